import Logging
import ShakeDetection
import ShakedConfiguration
import TextSafety

/// shaked's command line, parsed with the standard library alone.
///
/// The daemon takes a dozen long options, as systemd's daemons and iio-sensor-proxy do, and no
/// subcommands. ArgumentParser (which `shakectl` keeps) finds its options by reflection and dynamic
/// casts at every start; in the daemon that cost 0.2 MiB of resident memory for the whole of its
/// life (docs/performance.md).
struct DaemonOptions: Sendable {
    var config: String?
    var checkConfig = false
    /// With --check-config: the file to check.
    var checkFile: String?
    var socket: String?
    var source = SourceOptions()
    var sensitivity: Sensitivity?
    var promptTimeout: Double?
    var cooldown: Double?
    var logLevel: Logger.Level?

    /// What the command line asks for.
    enum Request: Sendable {
        case run(DaemonOptions)
        case help
        case version
    }

    /// Parses the arguments after the program name. Options take their value as the next argument or
    /// after `=`; `--` ends the options.
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var options = DaemonOptions()
        var rest = arguments[...]
        var positional: [String] = []
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let attached { return attached }
                guard let next = rest.popFirst() else { throw UsageError("\(name.escapingHiddenScalars) needs a value.") }
                return next
            }
            func flag() throws(UsageError) -> Bool {
                guard attached == nil else { throw UsageError("\(name) takes no value.") }
                return true
            }
            switch name {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--config": options.config = try value()
            case "--check-config": options.checkConfig = try flag()
            case "--socket": options.socket = try value()
            case "--replay": options.source.replay = try value()
            case "--demo": options.source.demo = try flag()
            case "--device": options.source.device = try value()
            case "--rate": options.source.rate = try number(name, try value())
            case "--sensitivity": options.sensitivity = try choice(name, try value(), Sensitivity.allCases)
            case "--prompt-timeout": options.promptTimeout = try number(name, try value())
            case "--cooldown": options.cooldown = try number(name, try value())
            case "--log-level": options.logLevel = try choice(name, try value(), Logger.Level.allCases)
            default: throw UsageError("Unknown option \(name.escapingHiddenScalars).")
            }
        }
        if positional.count > 1 {
            throw UsageError("Unexpected argument \(positional[1].escapingHiddenScalars); shaked takes one file, with --check-config.")
        }
        options.checkFile = positional.first
        try options.validate()
        return .run(options)
    }

    /// The checks that concern more than one option, or values the settings allow.
    func validate() throws(UsageError) {
        if checkFile != nil && !checkConfig {
            throw UsageError("A file argument is only taken with --check-config; use --config FILE to run with one.")
        }
        if source.replay != nil && source.demo { throw UsageError("--replay and --demo are two sources; give one.") }
        if let rate = source.rate, !ShakedSettings.Sensor.rates.contains(rate) {
            throw UsageError("--rate must be \(ShakedSettings.Sensor.rates) Hz.")
        }
        if let promptTimeout, !ShakedSettings.Prompt.timeouts.contains(promptTimeout) {
            throw UsageError("--prompt-timeout must be \(ShakedSettings.Prompt.timeouts) seconds.")
        }
        if let cooldown, !ShakedSettings.Prompt.cooldowns.contains(cooldown) {
            throw UsageError("--cooldown must be \(ShakedSettings.Prompt.cooldowns) seconds.")
        }
    }

    /// The options given on the command line that override file settings (on reload too).
    var overrides: Overrides {
        Overrides(
            socket: socket, sensitivity: sensitivity, promptTimeout: promptTimeout, cooldown: cooldown,
            device: source.device, rate: source.rate)
    }

    private static func number(_ name: String, _ text: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(name) takes a number, not '\(text.escapingHiddenScalars)'.")
        }
        return value
    }

    private static func choice<Value: RawRepresentable<String>>(
        _ name: String, _ text: String, _ values: [Value]
    ) throws(UsageError) -> Value {
        guard let value = Value(rawValue: text) else {
            let names = values.map(\.rawValue).joined(separator: ", ")
            throw UsageError("\(name) must be one of \(names), not '\(text.escapingHiddenScalars)'.")
        }
        return value
    }
}

/// A command line shaked cannot run with: printed with a pointer to `--help`, exit status 64 (EX_USAGE).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension DaemonOptions {
    /// `shaked --help`.
    static let help = """
        OVERVIEW: Shake to undo: the daemon that turns a shake into an undo prompt in the app in front.

        shaked reads the accelerometer only while an app that can undo something is in front. When the
        detector recognizes a shake, the app in the current context gets an undo (or redo) intent over
        varlink, answers with a prompt such as "Undo Typing", and the person's choice is carried back.

        Settings come from /etc/shaked/shaked.conf and then /etc/shaked/shaked.conf.d/*.conf (or only
        --config FILE); options given here override them. SIGHUP reloads the files without dropping
        subscribers; a bad file keeps the settings in force and logs why.

        Sample sources: the IIO accelerometer (default), --replay TRACE.csv (a recording, played in real
        time while an app is in context), or --demo (synthetic rest, tremor and walking;
        io.shaked.Demo.Shake plays a shake, as `shakectl demo` does).

        Try it without hardware:
          shaked --demo --socket /tmp/shaked.sock &
          shakectl demo --socket /tmp/shaked.sock

        USAGE: shaked [OPTIONS]
               shaked --check-config [--config FILE | FILE]

        OPTIONS:
          --config FILE           Read only this configuration file, not /etc/shaked.
          --check-config          Check the configuration (the files shaked would read, or the FILE
                                  given), print the result and exit.
          --socket PATH           Serve this socket (overrides socket.path).
          --sensitivity LEVEL     Shake sensitivity: low, medium or high (overrides detector.sensitivity).
          --prompt-timeout SECONDS
                                  Seconds a prompt may stay open (overrides prompt.timeout).
          --cooldown SECONDS      Seconds shakes are ignored after a prompt (overrides prompt.cooldown).
          --log-level LEVEL       Log level: trace, debug, info, notice, warning, error or critical
                                  (overrides log.level).
          --version               Show the version.
          -h, --help              Show this help.

        SAMPLE SOURCE:
          --replay TRACE.CSV      Replay a trace file (t,x,y,z CSV) in real time instead of reading a sensor.
          --demo                  Use synthetic motion (rest, tremor, walking) instead of a sensor;
                                  io.shaked.Demo.Shake plays a shake.
          --device DEVICE         The accelerometer, by name, label, sysfs path or device node (overrides
                                  sensor.device).
          --rate HZ               The sampling rate to ask the sensor for, in Hz (overrides sensor.rate).

        Options take their value as the next argument or after '=' (--socket=PATH).
        """
}
