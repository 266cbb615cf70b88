import ArgumentParser
import ShakeClient
import UndoProtocol

extension Operation: ExpressibleByArgument {}

/// `shakectl request undo|redo`: an intent without a shake.
struct Request: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask shaked for an undo or redo intent without shaking, as a shortcut key would.",
        discussion: """
            Calls io.shaked.Undo.RequestIntent (which needs the "request" permission). The intent \
            goes to the app in the current context exactly as a shake's would: the app shows its \
            prompt ("Undo Typing"), and the person confirms or cancels there. Without an operation \
            the daemon proposes undo when the app can undo, else redo.

            Prints the new intent's id and the app it went to (with --format json: one object with \
            the keys intent and app). When there is no intent, says why on standard error and exits \
            with status 1: no app in the current context can do it (NoContext), a prompt is open or \
            its cooldown runs (Busy), this user may not request (NotAllowed), or the daemon cannot \
            be reached.
            """
    )

    @Argument(help: "undo or redo (default: whichever the app can do, undo first).")
    var operation: Operation?

    @OptionGroup var daemon: SocketOptions

    @Option(help: "Output format: text or json (one object).")
    var format: OutputFormat = .text

    func run() async throws {
        let parameters = RequestIntentParameters(operation: operation)
        let reply = try await withDaemon(daemon.path) { connection in
            try await connection.call(.requestIntent, parameters, returning: RequestIntentReply.self)
        }
        if format == .json {
            print(encodeJSONLine(reply))
        } else {
            let what = operation.map { "\($0)" } ?? "undo or redo"
            print("\(reply.intent): \(what) intent sent to \(reply.app ?? "the app in front (another user's)"); it shows its prompt now")
        }
    }
}
