import ArgumentParser
import ShakeClient
import UndoProtocol

/// `shakectl preferences`: the caller's own Shake to Undo switch and sensitivity.
struct PreferencesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preferences",
        abstract: "Show or change your own Shake to Undo switch and shake sensitivity.",
        discussion: """
            Each user has their own preferences, kept by shaked in its state directory; no root is \
            needed and no user can see or change another's. With Shake to Undo off, shaking does \
            nothing while your apps are in front and the sensor is not read at all; undo stays \
            available through the apps themselves and through `shakectl request`. The sensitivity \
            says how firm a shake must be: low (a firm shake, for people who jolt their phone a \
            lot), medium, or high (a gentle one).

            With no options, prints the current values (GetPreferences); with options, changes \
            them (SetPreferences) and prints the values now in force. With --format json, prints \
            one object with the keys shakeToUndo, sensitivity and standIn. \
            --apps-that-dont-take-part off keeps the session's agent from offering shake to undo \
            in apps that don't take part themselves (it reads their text fields through the \
            accessibility bus; docs/agent.md). Exits with status 1 when the \
            daemon cannot be reached or could not save the change, saying why.
            """
    )

    /// `on` or `off`.
    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Option(help: "Turn Shake to Undo on or off.")
    var shakeToUndo: Switch?

    @Option(help: "How firm a shake must be: low, medium or high.")
    var sensitivity: String?

    @Option(
        name: .customLong("apps-that-dont-take-part"),
        help: "Let the session's agent (shake-agent) offer shake to undo in apps that don't take part: on or off.")
    var standIn: Switch?

    @OptionGroup var daemon: SocketOptions

    @Option(help: "Output format: text or json (one object).")
    var format: OutputFormat = .text

    func validate() throws {
        if let sensitivity, !FieldRule.sensitivityLevels.contains(sensitivity) {
            throw ValidationError("--sensitivity must be low, medium or high, not \"\(sensitivity)\".")
        }
    }

    func run() async throws {
        let change = SetPreferencesParameters(
            shakeToUndo: shakeToUndo.map { $0 == .on }, sensitivity: sensitivity, standIn: standIn.map { $0 == .on })
        let changing = change.shakeToUndo != nil || change.sensitivity != nil || change.standIn != nil
        let reply = try await withDaemon(daemon.path) { connection in
            changing
                ? try await connection.call(.setPreferences, change, returning: PreferencesReply.self)
                : try await connection.call(.getPreferences, NoParameters(), returning: PreferencesReply.self)
        }
        let p = reply.preferences
        print(
            format == .json
                ? encodeJSONLine(p)
                : """
                shake to undo: \(p.shakeToUndo ? "on" : "off")
                sensitivity:   \(p.sensitivity)
                apps that don't take part: \(p.standIn ? "on" : "off")
                """)
    }
}
