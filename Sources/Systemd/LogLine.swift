import Logging
import TextSafety

#if canImport(Glibc)
    import Glibc
#endif

/// How log lines look: syslog priority prefixes for the journal, or readable timestamped lines.
public enum LogLine {
    /// The two shapes of a line.
    public enum Format: Sendable, Hashable {
        /// Stderr is the journal's: records go to the journal natively (``JournalRecord``); should that
        /// fail, as `<6>message key=value` lines, whose prefix journald reads as the priority.
        case journal
        /// `2026-11-21T10:00:00.123 info shaked: message key=value`, in local time, for a terminal or a file.
        case plain
    }

    /// The format for a descriptor: ``Format/journal`` when `JOURNAL_STREAM` (`device:inode`, set by
    /// systemd when it connects stdout or stderr to the journal) names the very file the descriptor is
    /// open on, else ``Format/plain``. A redirected stderr (`2>file`) thus gets plain lines.
    public static func format(
        for fileDescriptor: Int32 = STDERR_FILENO, journalStream: String? = ProcessEnvironment.get("JOURNAL_STREAM")
    ) -> Format {
        guard let journalStream else { return .plain }
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return .plain }
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return .plain }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode ? .journal : .plain
    }

    /// The syslog priority of a level: trace and debug 7, info 6, notice 5, warning 4, error 3, critical 2.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One log record as text, ending in a newline. A message of several lines keeps them: in the journal
    /// each line gets the priority prefix, in plain text later lines are indented.
    public static func render(
        format: Format, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata,
        timestamp: @autoclosure () -> String = timestamp()
    ) -> String {
        let fields = metadata.keys.sorted().map { "\(escaped($0))=\(value(metadata[$0]!))" }.joined(separator: " ")
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
        if !fields.isEmpty { lines[lines.count - 1] += lines[lines.count - 1].isEmpty ? fields : " " + fields }
        switch format {
        case .journal:
            let prefix = "<\(priority(level))>"
            return lines.map { prefix + $0 + "\n" }.joined()
        case .plain:
            let head = "\(timestamp()) \(level.rawValue) \(label): "
            return head + lines.joined(separator: "\n    ") + "\n"
        }
    }

    /// A metadata value: plain when it has no spaces, quotes, `=` or characters that need escaping,
    /// else quoted, with `"` and `\\` escaped and every character ``escaped(_:)`` escapes.
    static func value(_ value: Logger.Metadata.Value) -> String {
        let text = plainText(value)
        guard text.isEmpty || text.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.isHiddenInText })
        else {
            return text
        }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: appendEscaped(scalar, to: &quoted)
            }
        }
        return quoted + "\""
    }

    /// `text` safe to show on a terminal or in a plain log line: control characters (NUL, CR, LF, ESC,
    /// DEL, C1), bidirectional formatting characters and line separators are written as `\u{…}` (LF
    /// as `\n`), so no text can start a forged line, move the cursor or reorder what a reader sees.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isHiddenInText) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { appendEscaped(scalar, to: &result) }
        return result
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to result: inout String) {
        guard scalar.isHiddenInText else {
            result.unicodeScalars.append(scalar)
            return
        }
        result += scalar == "\n" ? "\\n" : scalar.escapedForm
    }

    /// A metadata value's text, with arrays and dictionaries spelt out; quoting happens once, outside.
    static func plainText(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): "[" + array.map(plainText).joined(separator: ", ") + "]"
        case .dictionary(let dictionary):
            "{" + dictionary.keys.sorted().map { "\($0): \(plainText(dictionary[$0]!))" }.joined(separator: ", ") + "}"
        }
    }

    /// Local time with milliseconds, `2026-11-21T10:00:00.123`, of now or of a given moment.
    public static func timestamp(_ time: timespec? = nil) -> String {
        var now = time ?? timespec()
        if time == nil { clock_gettime(CLOCK_REALTIME, &now) }
        var seconds = now.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + pad(Int32(now.tv_nsec / 1_000_000), 3)
    }
}
