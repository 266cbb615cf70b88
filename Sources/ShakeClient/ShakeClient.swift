import NIOCore
import NIOPosix
import Synchronization
import UndoProtocol

/// Takes part in shake to undo: subscribes an app to shaked, publishes what it can undo,
/// answers intents with prompts that follow the guidelines, and carries the person's choice.
///
/// The client composes each prompt itself ("Undo Typing", Cancel on the left, in the person's
/// language from `LC_ALL`, `LC_MESSAGES` or `LANG`), offering redo as well when the app has
/// both. It keeps the connection up: when the daemon restarts or its socket is missing, it
/// tries again with exponential backoff, subscribes again and republishes the context.
///
/// With an ``UndoStack`` an app takes part in a few lines:
///
/// ```swift
/// let stack = UndoStack()                                  // the app's undo history
/// let shake = ShakeClient(app: "org.example.Notes", name: "Notes")
/// await shake.run(undoing: stack) { request in             // until the task is cancelled
///     await showAlert(request.prompt)                      // return the Role the person picked
/// }
/// ```
///
/// Apps that draw their own way read ``events`` and call ``choose(_:)`` and
/// ``reportResult(_:)``, while ``run()`` runs in a task of its own:
///
/// ```swift
/// for await event in shake.events {
///     switch event {
///     case .prompt(let request): present(request.prompt)    // later: shake.choose(.undo)
///     case .perform(let request): shake.reportResult(perform(request.operation))
///     case .cancelled, .failed: dismissPrompt()
///     case .connected, .disconnected: updateStatusIcon()
///     case .shakeUnavailable(let reason): showHint(reason)    // "shake to undo unavailable: …"
///     case .shakeAvailable: showHint(nil)
///     }
/// }
/// ```
public final class ShakeClient: Sendable {
    /// The app's stable identifier, such as `org.example.Notes`.
    public let app: String
    /// The app's name, shown to people.
    public let name: String
    /// The daemon's socket.
    public let socketPath: String
    /// The language prompts are composed in.
    public let language: PromptLanguage

    let eventLoopGroup: any EventLoopGroup
    let backoffPolicy: ReconnectBackoff
    let state: Mutex<State>
    private let eventStream: AsyncStream<Event>
    let eventSink: AsyncStream<Event>.Continuation

    /// What the client holds between calls; guarded by ``state``.
    struct State: Sendable {
        var context: UndoContext
        var tracker = IntentTracker()
        var connection = ConnectionState.stopped
        var running = false
        /// Whether the current session got as far as publishing the context.
        var connectedThisSession = false
        /// The running session's queue of calls, while connected.
        var commands: AsyncStream<Command>.Continuation?
    }

    /// A call for the session's call connection, in order.
    enum Command: Sendable {
        /// Send the context if it changed since last sent.
        case publishContext
        /// An intent action (answer, choose, report) from the tracker.
        case intent(IntentTracker.Action)
    }

    /// Creates a client; nothing happens until ``run()``.
    ///
    /// - Parameters:
    ///   - app: a stable identifier, such as `org.example.Notes`.
    ///   - name: the name shown to people.
    ///   - socketPath: the daemon's socket; `$SHAKED_SOCKET`, or `/run/shaked/io.shaked.Undo`.
    ///   - language: the prompts' language; from `LC_ALL`, `LC_MESSAGES` or `LANG`.
    ///   - focused: whether the app starts in the foreground.
    ///   - backoff: how long to wait between attempts to reach the daemon.
    ///   - eventLoopGroup: SwiftNIO's event loops for the connections.
    public init(
        app: String, name: String, socketPath: String = ClientEnvironment.socketPath(),
        language: PromptLanguage = ClientEnvironment.language(), focused: Bool = true,
        backoff: ReconnectBackoff = ReconnectBackoff(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.app = app
        self.name = name
        self.socketPath = socketPath
        self.language = language
        self.backoffPolicy = backoff
        self.eventLoopGroup = eventLoopGroup
        self.state = Mutex(State(context: UndoContext(focused: focused)))
        (eventStream, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    deinit {
        eventSink.finish()
    }

    /// What happens, for the app to act on: prompts to show, operations to perform,
    /// cancellations, and the connection coming and going. Read it from one task; it ends
    /// when that task is cancelled (for good: it can't be read again) or the client goes away.
    public var events: AsyncStream<Event> { eventStream }

    /// Where the connection stands now.
    public var connectionState: ConnectionState { state.withLock { $0.connection } }

    /// The context last set, published to the daemon whenever connected.
    public var context: UndoContext { state.withLock { $0.context } }

    /// Sets whether the app is in the foreground and what it can undo and redo; sent to the
    /// daemon at once when it changed (and again after every reconnect).
    public func setContext(_ context: UndoContext) {
        state.withLock { state in
            guard state.context != context else { return }
            state.context = context
            state.commands?.yield(.publishContext)
        }
    }

    /// Says whether the app is in the foreground. Leaving it cancels an open prompt.
    public func setFocused(_ focused: Bool) {
        var context = self.context
        context.focused = focused
        setContext(context)
    }

    /// Says what the app can undo and redo now, by action name ("Typing"), or nil for nothing.
    public func setActions(undo: String?, redo: String?) {
        var context = self.context
        context.undo = undo
        context.redo = redo
        setContext(context)
    }

    /// The person's choice in the prompt from the last ``Event/prompt(_:)``: the role of the
    /// action pressed. Does nothing when no prompt is open.
    public func choose(_ choice: Role) {
        state.withLock { state in
            apply(state.tracker.choose(choice), to: &state)
        }
    }

    /// What performing the last ``Event/perform(_:)`` changed, such as "Restored line 3", so
    /// the daemon can pass it on. Does nothing when nothing is being performed.
    public func reportResult(_ summary: String) {
        state.withLock { state in
            apply(state.tracker.report(summary), to: &state)
        }
    }

    /// Carries out tracker actions: events to the app, calls to the session's queue. A call
    /// with no session to make it is dropped: the daemon ends that intent on the disconnect.
    func apply(_ actions: [IntentTracker.Action], to state: inout State) {
        for action in actions {
            if case .deliver(let event) = action {
                eventSink.yield(event)
            } else {
                state.commands?.yield(.intent(action))
            }
        }
    }
}
