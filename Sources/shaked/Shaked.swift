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
struct Shaked {
    static let version = "0.5.0"

    let options: DaemonOptions

    /// Parses the command line and runs the daemon.
    ///
    /// SIGHUP's default action ends the process, so until the reload loop takes the signal over, a
    /// reload asked for during start-up is ignored (the files are being read anyway) instead of killing
    /// the daemon.
    ///
    /// The main thread waits in `pause(2)` while the daemon runs as a task. An `async` main ends the
    /// main thread on Linux with `pthread_exit` (in `dispatch_main`), which unwinds its stack through
    /// the executable's unwind tables: 0.6 MiB of pages read once and then kept resident for the
    /// daemon's lifetime (docs/performance.md). Nothing in the daemon runs on the main
    /// actor. The process exits when the daemon ends, as it would from an `async` main.
    static func main() {
        signal(SIGHUP, SIG_IGN)
        let request: DaemonOptions.Request
        do {
            request = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            printToStandardError("shaked: \(error)\nRun 'shaked --help' for the options.")
            exit(64)  // EX_USAGE
        }
        let options: DaemonOptions
        switch request {
        case .help:
            print(DaemonOptions.help)
            exit(0)
        case .version:
            print(version)
            exit(0)
        case .run(let given):
            options = given
        }
        // Detached: `main` is isolated to the main actor, whose queue nothing drains here.
        Task.detached {
            do {
                try await Shaked(options: options).run()
                exit(0)
            } catch let status as ExitStatus {
                exit(status.code)
            } catch {
                printToStandardError("shaked: \(error)")
                exit(1)
            }
        }
        while true { pause() }
    }

    func run() async throws {
        if options.checkConfig {
            let check = ShakedSettings.check(configFile: options.checkFile ?? options.config)
            print(check.report)
            if !check.isValid { throw ExitStatus(code: 78) }  // EX_CONFIG
            return
        }
        let settings: ShakedSettings
        do {
            settings = try options.overrides.load(configFile: options.config)
        } catch {
            printToStandardError("shaked: the configuration has errors; nothing was started.\n\(error)")
            throw ExitStatus(code: 78)
        }
        let level = options.logLevel ?? Logger.Level(rawValue: settings.log.level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, logLevel: level) }
        let daemon = Daemon(
            settings: settings, source: try options.source.makeSource(settings.sensor), configFile: options.config,
            overrides: options.overrides, version: Self.version)
        try await daemon.run()
    }
}

/// Ends the process with this status, after what was to be said has been printed.
struct ExitStatus: Error {
    let code: Int32
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

/// Writes a line to standard error, in one write(2).
func printToStandardError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}
