import Dispatch
import Foundation
import ShakeClient
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The demo's main loop: keys, the client's events, shake results and a clock tick all arrive
/// on one stream and are handled one at a time, so the notes and the screen need no locks.
final class NotesApp {
    /// Something that happened.
    enum Input: Sendable {
        case keys([Key])
        case inputClosed
        case client(ShakeClient.Event)
        /// The daemon played the shake (nil) or refused (why).
        case shook(String?)
        case tick
        case resize
    }

    /// How long a changed line stays highlighted.
    static let highlightTime = Duration.seconds(4)

    private let terminal: RawTerminal
    private let socket: String
    private let client: ShakeClient
    private let document: NotesDocument
    private var view: DemoView
    private var highlightEnds: ContinuousClock.Instant?
    private let inputs: AsyncStream<Input>
    private let sink: AsyncStream<Input>.Continuation

    init(socket: String, terminal: RawTerminal) {
        self.socket = socket
        self.terminal = terminal
        client = ShakeClient(app: "io.shaked.demo.Notes", name: "Notes (shakectl demo)", socketPath: socket)
        document = NotesDocument(language: client.language)
        view = DemoView(socket: socket)
        (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        document.stack.onChange = { [client] state in
            client.setActions(undo: state.undoActionName, redo: state.redoActionName)
        }
    }

    /// Runs until Ctrl-C, Ctrl-Q or the end of input.
    func run() async {
        let sink = sink
        KeyReader.start { keys in sink.yield(keys.map(Input.keys) ?? .inputClosed) }
        _ = signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH)
        resize.setEventHandler { sink.yield(.resize) }
        resize.resume()
        defer { resize.cancel() }
        let client = client
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask {
                for await event in client.events { sink.yield(.client(event)) }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(200))
                    sink.yield(.tick)
                }
            }
            draw()
            for await input in inputs {
                guard handle(input, group: &group) else { break }
            }
            group.cancelAll()
        }
    }

    /// Handles one input and redraws; false means quit.
    private func handle(_ input: Input, group: inout TaskGroup<Void>) -> Bool {
        switch input {
        case .keys(let keys):
            for key in keys {
                guard handle(key, group: &group) else { return false }
            }
        case .inputClosed:
            return false
        case .client(let event):
            handle(event)
        case .shook(let failure):
            view.status = failure.map { "No shake: \($0)" } ?? "Shaking the device… (the daemon's detector decides)"
        case .tick:
            guard let ends = highlightEnds, ContinuousClock.now >= ends else { return true }
            highlightEnds = nil
            view.highlightedLine = nil
            view.highlightStatus = false
        case .resize:
            terminal.write("\u{1B}[2J")
        }
        draw()
        return true
    }

    private func handle(_ key: Key, group: inout TaskGroup<Void>) -> Bool {
        switch key {
        case .control("c"), .control("q"): return false
        case .control("s"), .function(5): shake(in: &group)
        default:
            if view.alert != nil { handleAlert(key) } else { handleNotes(key) }
        }
        return true
    }

    private func handleAlert(_ key: Key) {
        guard let (request, focus) = view.alert else { return }
        let count = request.prompt.actions.count
        switch key {
        case .left, .backTab: view.alert?.focus = (focus + count - 1) % count
        case .right, .tab: view.alert?.focus = (focus + 1) % count
        case .enter: choose(request.prompt.actions[focus].role)
        case .escape: choose(.cancel)
        default: break
        }
    }

    private func choose(_ role: Role) {
        client.choose(role)
        view.alert = nil
        view.status = role == .cancel ? "Cancelling…" : "Confirmed; waiting for the daemon…"
    }

    private func handleNotes(_ key: Key) {
        switch key {
        case .character(let character): view.input.append(character)
        case .backspace: if !view.input.isEmpty { view.input.removeLast() }
        case .escape: view.input = ""
        case .enter:
            guard !view.input.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            show(document.add(view.input, at: document.lines.count))
            view.input = ""
        case .up: view.selected = max(0, view.selected - 1)
        case .down: view.selected = min(max(0, document.lines.count - 1), view.selected + 1)
        case .control("d"), .delete:
            guard !document.lines.isEmpty else { return }
            show(document.delete(at: view.selected))
        case .control("b"):
            guard !document.lines.isEmpty else { return }
            show(document.toggleBold(at: view.selected))
        case .control("z"): show(document.undo(), highlight: true)
        case .control("y"): show(document.redo(), highlight: true)
        default: break
        }
    }

    private func handle(_ event: ShakeClient.Event) {
        switch event {
        case .connected:
            view.connection = .connected
            view.status = "Connected to shaked at \(socket). Press Ctrl-S to shake."
        case .disconnected(let reason, let retryIn):
            view.connection = .waiting(reason: reason, retryIn: retryIn)
            view.status = "Not connected: \(reason)"
        case .prompt(let request):
            let focus = request.defaultAction.flatMap { request.prompt.actions.firstIndex(of: $0) } ?? 0
            view.alert = (request, focus)
            view.status = "The daemon asks: \(request.prompt.title)?"
        case .perform(let request):
            let change = request.operation == .undo ? document.undo() : document.redo()
            let summary = change?.summary ?? "Nothing to \(request.operation)"
            client.reportResult(summary)
            show(change, highlight: true)
            let prefix = PromptComposer.prompt(
                operation: request.operation, actionName: request.actionName, language: client.language
            ).title
            view.status = "\(prefix): \(summary)"
        case .cancelled(_, let reason):
            view.alert = nil
            view.status =
                reason == .declined ? "Cancelled: nothing changed." : "Prompt closed (\(reason)): nothing changed."
        case .failed(_, let error):
            view.alert = nil
            view.status = "The daemon refused: \(DaemonFailure.explain(error))"
        case .shakeUnavailable(let reason):
            view.status = reason.prefix(1).uppercased() + reason.dropFirst() + ". Ctrl-S still asks."
        case .shakeAvailable:
            view.status = "Shake to undo is available again."
        }
    }

    /// Shows the document after a change; highlights the changed line after an undo or redo.
    private func show(_ change: NotesDocument.Change?, highlight: Bool = false) {
        view.lines = document.lines
        view.undoName = document.undoActionName
        view.redoName = document.redoActionName
        guard let change else { return }
        view.selected = min(change.selection, max(0, document.lines.count - 1))
        guard highlight else { return }
        view.status = change.summary
        view.highlightedLine = change.line
        view.highlightStatus = true
        highlightEnds = .now + Self.highlightTime
    }

    /// Asks the daemon to play a synthetic shake, without blocking the keys.
    private func shake(in group: inout TaskGroup<Void>) {
        view.status = "Shaking…"
        let socket = socket
        let sink = sink
        group.addTask {
            let failure: String?
            do {
                try await VarlinkConnection.withConnection(to: socket) { connection in
                    _ = try await connection.call(.demoShake, NoParameters())
                }
                failure = nil
            } catch {
                failure = DaemonFailure(error).description
            }
            sink.yield(.shook(failure))
        }
    }

    private func draw() {
        let size = terminal.size
        terminal.write(view.render(columns: size.columns, rows: size.rows))
    }
}
