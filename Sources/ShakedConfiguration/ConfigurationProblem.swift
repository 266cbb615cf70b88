import TextSafety

/// One thing wrong with a configuration file: where it is, which setting, and what to do about it.
public struct ConfigurationProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problems, for callers that branch on them.
    public enum Code: String, Sendable, Hashable {
        /// The file or drop-in directory cannot be read: missing (for `--config`), a directory, no
        /// permission, too large, not UTF-8.
        case unreadable
        /// A line that is not a `[Section]` header or a `Key=value` setting, or is written as in the TOML
        /// format of earlier versions.
        case syntax
        /// A `[Section]` that shaked does not know.
        case unknownTable
        /// A key that shaked does not know in a known section, or a key outside any section.
        case unknownKey
        /// A value of the wrong kind, such as a word where a number belongs.
        case wrongType
        /// A number outside its allowed range.
        case outOfRange
        /// A value of the right type that is still not allowed: an unknown level, a relative path.
        case invalidValue
        /// A mount matrix that is not 3×3, not finite, singular, or not a rotation or reflection.
        case badMountMatrix
    }

    /// What kind of problem this is.
    public var code: Code
    /// The file at fault (or the drop-in directory).
    public var file: String
    /// The line in the file, counted from 1, when known.
    public var line: Int?
    /// The setting as `Section.Key` (such as `Prompt.Timeout`), or the section's name for a section problem;
    /// nil for problems with the whole file.
    public var key: String?
    /// What is wrong and what to do about it.
    public var message: String

    /// Creates a problem.
    public init(
        _ code: Code, file: String, line: Int? = nil, key: String? = nil, _ message: String
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `FILE:LINE: key: message`, the form compilers use, so editors can jump to it. Control
    /// characters and bidi overrides (a key such as `\u{1b}[2J` quotes the file) are shown as
    /// `\u{1b}`, so that a file cannot write to the terminal or the log that shows the problem.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return (text + message).escapingHiddenScalars
    }
}

/// A configuration that cannot be used, with every problem found in it (not only the first).
public struct ConfigurationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, ordered by file and line.
    public var problems: [ConfigurationProblem]

    /// Creates an error from its problems.
    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// What `shaked --check-config` reports: the files read, their problems, and the settings they give.
public struct ConfigurationCheck: Sendable {
    /// The files read (or tried), in the order they were applied.
    public var files: [String]
    /// Every problem found, ordered by file and line; empty when the configuration is good.
    public var problems: [ConfigurationProblem]
    /// The effective settings; the defaults with whatever could be applied when there are problems.
    public var settings: ShakedSettings

    /// Whether the configuration can be used.
    public var isValid: Bool { problems.isEmpty }

    /// The settings when the configuration can be used, else every problem as one error.
    func validSettings() throws(ConfigurationFileError) -> ShakedSettings {
        guard isValid else { throw ConfigurationFileError(problems: problems) }
        return settings
    }

    /// One line per file (`FILE: OK`) or per problem (`FILE:LINE: key: message`); a note when no file exists.
    public var report: String {
        if files.isEmpty && problems.isEmpty { return "no configuration file; using the defaults" }
        let listed = Set(files)
        var lines = problems.filter { !listed.contains($0.file) }.map(\.description)
        for file in files {
            let own = problems.filter { $0.file == file }
            lines += own.isEmpty ? ["\(file): OK"] : own.map(\.description)
        }
        return lines.joined(separator: "\n")
    }
}
