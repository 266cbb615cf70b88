import ArgumentParser
import ShakeClient
import UndoProtocol

/// `shakectl status`: what the daemon is doing now.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what shaked is doing: sensor, detector, subscribers, last shake, open prompt.",
        discussion: """
            Calls io.shaked.Undo.GetStatus on the daemon's socket and prints the sample source and \
            whether it is being read now (only while some app can use a shake), and if not why \
            ("the session is locked", "the session is idle", "no app can use a shake", "Shake to \
            Undo is off"), the detector and its \
            sensitivity, how many apps are subscribed, the app in the current context, how long ago \
            the last shake was recognized, the intent whose prompt is open, and whether a prompt \
            agent is registered.

            With --format json, prints the status as one JSON object with the interface's keys: \
            sensor, sensorActive, sensorOff, detector, subscribers, currentApp, lastShakeAgo (seconds), \
            openIntent and agent (a key without a value, such as currentApp with no app in \
            context, is left out). Exits with status 1 when the daemon cannot \
            be reached, saying why.
            """
    )

    @OptionGroup var daemon: SocketOptions

    @Option(help: "Output format: text or json (one object).")
    var format: OutputFormat = .text

    func run() async throws {
        let path = daemon.path
        let status = try await withDaemon(path) { connection in
            try await connection.call(.getStatus, NoParameters(), returning: GetStatusReply.self).status
        }
        print(format == .json ? encodeJSONLine(status) : Self.text(status, socket: path))
    }

    /// The status for people, one field a line.
    static func text(_ status: ServiceStatus, socket: String) -> String {
        let lastShake = status.lastShakeAgo.map { "\(decimal($0, 1)) s ago" } ?? "none yet"
        let unavailable = status.unavailable.map { "\n  unavailable: \($0)" } ?? ""
        let reading = status.sensorActive ? "reading" : status.sensorOff.map { "off: \($0)" } ?? "off"
        return """
            shaked at \(socket)
              sensor:      \(status.sensor) (\(reading))\(unavailable)
              detector:    \(status.detector)
              subscribers: \(status.subscribers)
              current app: \(status.currentApp ?? "none")
              last shake:  \(lastShake)
              open prompt: \(status.openIntent ?? "none")
              agent:       \(status.agent ? "registered (it draws every prompt)" : "none (apps draw their own prompts)")
            """
    }
}
