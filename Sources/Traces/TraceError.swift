import TextSafety

/// A problem with a trace, labels or events file, naming the file, the line and what is wrong.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problems, for callers that branch on them.
    public enum Code: String, Sendable, Hashable {
        case unreadable
        case empty
        case badHeader
        case badFieldCount
        case badNumber
        case notFinite
        case outOfRange
        case timeNotIncreasing
        case badLabel
        case labelOutsideTrace
        case badEvent
        case eventOutsideTrace
        case eventsDisagreeWithLabels
        case unwritable
    }

    /// What kind of problem this is.
    public var code: Code
    /// The file at fault.
    public var path: String
    /// The 1-based line, when the problem is on one line.
    public var line: Int?
    /// What is wrong, and what to do where that is not obvious.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, line: Int? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.line = line
        self.message = message
    }

    /// `file:line: message`, the form editors and terminals link to.
    public var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}

/// Text from a file, quoted for an error message: at most `limit` characters (then `…`), with
/// control characters, escape sequences and bidi overrides shown as `\u{..}` so that a hostile
/// file cannot write to the terminal or the log that shows the message.
func quoted(_ text: some StringProtocol, _ limit: Int = 30, quotes: Bool = true) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(limit) {
        out += scalar.isHiddenInText ? scalar.escapedForm : String(scalar)
    }
    if text.unicodeScalars.count > limit { out += "…" }
    return quotes ? "\"\(out)\"" : out
}
