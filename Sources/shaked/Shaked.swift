import ArgumentParser
import Logging
import ShakeDetection
import ShakedConfiguration
import Systemd

#if canImport(Glibc)
    import Glibc
#endif

/// The shaked daemon: turns a shake of the device into an undo or redo prompt in the app in
/// front, over varlink on a Unix socket.
@main
struct Shaked: AsyncParsableCommand {
    static let version = "0.5.0"

    static let configuration = CommandConfiguration(
        commandName: "shaked",
        abstract: "Shake to undo: the daemon that turns a shake into an undo prompt in the app in front.",
        discussion: """
            shaked reads the accelerometer only while an app that can undo something is in front. \
            When the detector recognizes a shake, the app in the current context gets an undo \
            (or redo) intent over varlink, answers with a prompt such as "Undo Typing", and the \
            person's choice is carried back.

            Settings come from /etc/shaked/shaked.conf and then /etc/shaked/shaked.conf.d/*.conf \
            (or only --config FILE); options given here override them. SIGHUP reloads the files \
            without dropping subscribers; a bad file keeps the settings in force and logs why.

            Sample sources: the IIO accelerometer (default), --replay TRACE.csv (a recording, \
            played in real time while an app is in context), or --demo (synthetic rest, tremor \
            and walking; io.shaked.Demo.Shake plays a shake, as `shakectl demo` does).

            Try it without hardware:
              shaked --demo --socket /tmp/shaked.sock &
              shakectl demo --socket /tmp/shaked.sock
            """,
        version: version
    )

    @Option(help: ArgumentHelp("Read only this configuration file, not /etc/shaked.", valueName: "file"))
    var config: String?

    @Flag(help: "Check the configuration (the files shaked would read, or the FILE given), print the result and exit.")
    var checkConfig = false

    @Argument(help: ArgumentHelp("With --check-config: the file to check.", valueName: "file"))
    var checkFile: String?

    @Option(help: ArgumentHelp("Serve this socket (overrides socket.path).", valueName: "path"))
    var socket: String?

    @OptionGroup(title: "Sample source")
    var source: SourceOptions

    @Option(help: "Shake sensitivity: low, medium or high (overrides detector.sensitivity).")
    var sensitivity: Sensitivity?

    @Option(help: ArgumentHelp("Seconds a prompt may stay open (overrides prompt.timeout).", valueName: "seconds"))
    var promptTimeout: Double?

    @Option(help: ArgumentHelp("Seconds shakes are ignored after a prompt (overrides prompt.cooldown).", valueName: "seconds"))
    var cooldown: Double?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical (overrides log.level).")
    var logLevel: Logger.Level?

    func validate() throws {
        if checkFile != nil && !checkConfig {
            throw ValidationError("A file argument is only taken with --check-config; use --config FILE to run with one.")
        }
        if let promptTimeout, !ShakedSettings.Prompt.timeouts.contains(promptTimeout) {
            throw ValidationError("--prompt-timeout must be \(ShakedSettings.Prompt.timeouts) seconds.")
        }
        if let cooldown, !ShakedSettings.Prompt.cooldowns.contains(cooldown) {
            throw ValidationError("--cooldown must be \(ShakedSettings.Prompt.cooldowns) seconds.")
        }
    }

    /// ArgumentParser's own entry point, with two differences.
    ///
    /// SIGHUP's default action ends the process, so until the reload loop takes the signal over, a
    /// reload asked for during start-up is ignored (the files are being read anyway) instead of killing
    /// the daemon.
    ///
    /// And the main thread waits in `pause(2)` while the command runs as a task. An `async` main ends
    /// the main thread on Linux with `pthread_exit` (in `dispatch_main`), which unwinds its stack
    /// through the executable's unwind tables: 0.6 MiB of pages read once and then kept resident for
    /// the daemon's lifetime (README.md, "Daemon benchmarks"). Nothing in the daemon runs on the main
    /// actor. The process exits when the command ends, as it would from an `async` main.
    static func main() {
        signal(SIGHUP, SIG_IGN)
        // Detached: `main` is isolated to the main actor, whose queue nothing drains here.
        Task.detached {
            do {
                var command = try parseAsRoot()
                if var command = command as? any AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
                Self.exit()
            } catch {
                Self.exit(withError: error)
            }
        }
        while true { pause() }
    }

    func run() async throws {
        if checkConfig {
            let check = ShakedSettings.check(configFile: checkFile ?? config)
            print(check.report)
            if !check.isValid { throw ExitCode(78) }  // EX_CONFIG
            return
        }
        let settings: ShakedSettings
        do {
            settings = try load()
        } catch {
            printToStandardError("shaked: the configuration has errors; nothing was started.\n\(error)")
            throw ExitCode(78)
        }
        let level = logLevel ?? Logger.Level(rawValue: settings.log.level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, logLevel: level) }
        let daemon = Daemon(
            settings: settings, source: try source.makeSource(settings.sensor), configFile: config,
            overrides: overrides, version: Self.version)
        try await daemon.run()
    }

    /// The files' settings with this command line's overrides.
    func load() throws(ConfigurationFileError) -> ShakedSettings {
        try overrides.load(configFile: config)
    }

    /// The options given on the command line that override file settings (on reload too).
    var overrides: Overrides {
        Overrides(
            socket: socket, sensitivity: sensitivity, promptTimeout: promptTimeout, cooldown: cooldown,
            device: source.device, rate: source.rate)
    }
}

/// Command-line options that win over the configuration files, at start and on every reload.
struct Overrides: Sendable {
    var socket: String?
    var sensitivity: Sensitivity?
    var promptTimeout: Double?
    var cooldown: Double?
    var device: String?
    var rate: Double?

    /// Reads the configuration and applies the overrides.
    func load(configFile: String?) throws(ConfigurationFileError) -> ShakedSettings {
        var settings = try ShakedSettings.load(configFile: configFile)
        if let socket { settings.socket.path = socket }
        if let sensitivity { settings.detector.sensitivity = sensitivity }
        if let promptTimeout { settings.prompt.timeout = promptTimeout }
        if let cooldown { settings.prompt.cooldown = cooldown }
        if let device { settings.sensor.device = device }
        if let rate { settings.sensor.rate = rate }
        return settings
    }
}

extension Sensitivity: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Writes a line to standard error, in one write(2).
func printToStandardError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}
