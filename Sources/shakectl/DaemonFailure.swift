import ArgumentParser
import ShakeClient
import UndoProtocol

/// A failure talking to shaked, in words for people. Thrown out of a command, it is printed
/// as `Error: ...` on standard error and the command exits with status 1.
struct DaemonFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do, ending with the varlink error's name when there is one.
    var description: String

    /// Explains a varlink error reply or a connection failure.
    init(_ error: any Error) {
        switch error {
        case let error as VarlinkError: description = Self.explain(error)
        case let error as VarlinkConnectionError: description = error.description
        default: description = String(describing: error)
        }
    }

    /// A varlink error in words, with its name in parentheses for scripts.
    static func explain(_ error: VarlinkError) -> String {
        let field = { (name: String) in error.parameters[name] ?? "?" }
        let text: String
        switch error.name {
        case "io.shaked.Undo.NoContext":
            text = "no app is in the current context with something to undo or redo, so there is no intent"
        case "io.shaked.Undo.Busy":
            text =
                field("reason") == "cooldown"
                ? "a prompt just ended and the short cooldown still runs; try again in a moment"
                : "a prompt is open already; only one is open at a time"
        case "io.shaked.Undo.NotAllowed":
            text =
                "this user may not \(field("action")); the daemon's configuration says which users and groups may"
        case "io.shaked.Undo.LimitReached":
            text = "the daemon's limit on \(field("limit")) was reached; try again later"
        case "io.shaked.Undo.UnknownToken":
            text = "the daemon does not know this token (it restarted, or the token is another user's)"
        case "io.shaked.Undo.UnknownIntent":
            text = "the daemon does not know intent \(field("intent")) (it ended, or it is another app's)"
        case "io.shaked.Undo.WrongState":
            text = "intent \(field("intent")) is \(field("state")), which does not allow this"
        case "io.shaked.Undo.PromptRejected":
            text = "the prompt breaks the rule \(field("rule")): \(field("detail"))"
        case "io.shaked.Undo.NotSaved":
            text = "the change is in force until shaked stops, but it could not be saved: \(field("reason"))"
        case "io.shaked.Demo.NotDemo":
            text = "the daemon is not running with --demo, so there is no synthetic motion to shake"
        case "org.varlink.service.PermissionDenied":
            text = "the daemon denied the call"
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound":
            text = "the daemon does not serve \(error.parameters.values.first ?? "this"): is it an older shaked?"
        case "org.varlink.service.InvalidParameter":
            text = "the daemon refused the parameter \(field("parameter"))"
        default:
            return error.description
        }
        return "\(text) (\(error.name))"
    }
}

/// Runs `body` with a connection to the daemon at `path`, turning failures into
/// ``DaemonFailure``s that say what to do.
func withDaemon<Result>(
    _ path: String, isolation: isolated (any Actor)? = #isolation,
    _ body: (VarlinkConnection) async throws -> sending Result
) async throws -> sending Result {
    do {
        return try await VarlinkConnection.withConnection(to: path, isolation: isolation, body)
    } catch let error as CancellationError {
        throw error
    } catch let error as ExitCode {
        throw error
    } catch {
        throw DaemonFailure(error)
    }
}
