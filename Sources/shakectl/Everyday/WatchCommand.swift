import ArgumentParser
import Foundation
import ShakeClient
import ShakeDetection
import UndoProtocol

/// `shakectl watch`: one line per shake and per intent outcome, as they happen.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print each shake as it begins and ends, and what became of each intent, until Ctrl-C.",
        discussion: """
            Calls io.shaked.Undo.Monitor (which needs the "monitor" permission) and prints one line \
            per event as it happens (once the daemon confirms the monitor, "watching shaked at \
            PATH" goes to standard error). A shake begins when its strokes look like one, and is \
            answered only when it ends, when the hand stops ("shake recognized", with its reversals \
            and peak); a shake that began may instead be dropped, with the reason: "kept going" (the \
            motion went on, as a body's does when running or climbing stairs), "too short" (it \
            stopped as soon as it began, as a knock does), "interrupted" (the samples stopped or \
            went back in time before the hand stopped) or "posture changed" (the device came to rest \
            turned from where the hand held it, as after a fall). A near miss is a chain of strokes that came \
            close to a shake, with the one rule that stopped it ("near miss: rhythm"): where a shake \
            of yours is missed, it says why. Then the outcome of each intent or shake: \
            performed, cancelled, noContext (no app was in the current context, so the shake was \
            only logged) or ignored (a prompt was open, or the short cooldown after one ran). Times \
            are seconds on the daemon's monotonic clock. The monitor never carries apps' titles or \
            results.

            With --format json, prints one JSON object per line with the keys kind (began, shake, \
            dropped, nearMiss or outcome), time, reversals, peak, reason and outcome. Stops after --count \
            events when given, and exits with status 1 when the daemon cannot be reached or goes away.
            """
    )

    @OptionGroup var daemon: SocketOptions

    @Option(help: "Output format: text or json (one object per event per line).")
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("Stop after this many events (default: run until Ctrl-C).", valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        let path = daemon.path
        let format = format
        let count = count
        try await withDaemon(path) { connection in
            var seen = 0
            for try await reply in try await connection.stream(.monitor, NoParameters(), of: MonitorReply.self) {
                if reply.event.kind == .started {
                    printError("watching shaked at \(path); Ctrl-C to stop")
                    continue
                }
                // Unbuffered, so that a pipe sees each event as it happens.
                let line = format == .json ? encodeJSONLine(reply.event) : Self.text(reply.event)
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                seen += 1
                if let count, seen >= count { return }
            }
            throw DaemonFailure(VarlinkConnectionError(.closed, path: path, method: "io.shaked.Undo.Monitor"))
        }
    }

    /// A shake's reversals and peak, for people.
    static func strokes(_ event: MonitorEvent) -> String {
        let reversals = event.reversals.map { "\($0) reversals" } ?? "reversals unknown"
        return reversals + (event.peak.map { ", peak \(decimal($0, 1)) m/s²" } ?? "")
    }

    /// An event for people: its time, then what happened.
    static func text(_ event: MonitorEvent) -> String {
        let time = pad(decimal(event.time, 3), 10) + " s  "
        switch event.kind {
        case .started:
            return time + "monitoring started"
        case .began:
            return time + "shake began (\(Self.strokes(event))): waiting for the hand to stop"
        case .shake:
            return time + "shake recognized (\(Self.strokes(event))): the hand stopped"
        case .dropped:
            let why =
                switch event.reason.flatMap(DropReason.init(rawValue:)) {
                case .keptGoing?: "kept going, as a body's motion does"
                case .tooShort?: "too short, it stopped as soon as it began"
                case .interrupted?: "interrupted, the samples stopped or went back in time before the hand stopped"
                case .postureChanged?: "posture changed, the device came to rest turned, as a body that fell or lay down leaves it"
                case nil: event.reason ?? "reason unknown"
                }
            return time + "shake dropped (\(Self.strokes(event))): \(why)"
        case .nearMiss:
            return time + "near miss (\(Self.strokes(event))): stopped by \(event.reason ?? "a rule")"
        case .outcome:
            switch event.outcome {
            case .performed?: return time + "performed: the app undid or redid"
            case .cancelled?: return time + "cancelled: nothing performed"
            case .noContext?: return time + "no context: no app in the current context can undo, shake only logged"
            case .ignored?: return time + "ignored: a prompt was open or the cooldown ran"
            case nil: return time + "outcome unknown"
            }
        }
    }
}
