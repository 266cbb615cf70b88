import ArgumentParser
import Logging
import ShakeDetection
import ShakeService

/// The shaked daemon: turns a shake of the device into an undo or redo prompt in the app in
/// front, over varlink on a Unix socket.
@main
struct Shaked: AsyncParsableCommand {
    static let version = "0.4.0"

    static let configuration = CommandConfiguration(
        commandName: "shaked",
        abstract: "Shake to undo: the daemon that turns a shake into an undo prompt in the app in front.",
        discussion: """
            shaked reads the accelerometer only while an app that can undo something is in front. \
            When the detector recognizes a shake, the app in the current context gets an undo \
            (or redo) intent over varlink, answers with a prompt such as "Undo Typing", and the \
            person's choice is carried back.

            Sample sources: the IIO accelerometer (default), --replay TRACE.csv (a recording, in \
            real time, started when an app first comes into context), or --demo (synthetic rest, \
            tremor and walking; io.shaked.Demo.Shake plays a shake, as `shakectl demo` does).

            Try it without hardware:
              shaked --demo --socket /tmp/shaked.sock &
              shakectl demo --socket /tmp/shaked.sock
            """,
        version: version
    )

    @Option(help: ArgumentHelp("The varlink socket to serve.", valueName: "path"))
    var socket: String = "/run/shaked/io.shaked.Undo"

    @OptionGroup(title: "Sample source")
    var source: SourceOptions

    @Option(help: "Shake sensitivity: low, medium or high.")
    var sensitivity: Sensitivity = .medium

    @Option(help: ArgumentHelp("Seconds a prompt may stay open without a choice.", valueName: "seconds"))
    var promptTimeout: Double = 30

    @Option(help: ArgumentHelp("Seconds shakes are ignored after a prompt ends.", valueName: "seconds"))
    var cooldown: Double = 1

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard promptTimeout > 0, promptTimeout <= 600 else {
            throw ValidationError("--prompt-timeout must be above 0 and at most 600 seconds.")
        }
        guard cooldown >= 0, cooldown <= 60 else { throw ValidationError("--cooldown must be 0 to 60 seconds.") }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let settings = ServiceSettings(
            timing: .init(promptTimeout: .seconds(promptTimeout), cooldown: .seconds(cooldown)))
        let daemon = try Daemon(
            socket: socket, source: try source.makeSource(), sensitivity: sensitivity, settings: settings,
            version: Self.version)
        try await daemon.run()
    }
}

extension Sensitivity: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
