/// The lines of a configuration file in systemd's format (`systemd.syntax(7)`), as `logind.conf` and
/// `resolved.conf` are written: `[Section]` headers, `Key=value` settings, comments from `#` or `;`.
///
/// Whitespace around keys and values is dropped; a value runs to the end of its line. A line that is
/// none of these is a problem at its line, and reading goes on, so every problem in a file is found.
struct ConfigurationSyntax {
    /// One `Key=value` line, with the section it is under (nil above the first header).
    struct Assignment {
        var section: String?
        var key: String
        var value: String
        var line: Int
    }

    /// The settings in the order they appear.
    var assignments: [Assignment] = []
    /// The section headers in the order they appear.
    var headers: [(name: String, line: Int)] = []
    /// Lines that are neither: the line and what is wrong.
    var malformed: [(line: Int, message: String)] = []

    /// Splits a file's text into headers and assignments.
    init(_ text: String) {
        var section: String?
        let text = text.first == "\u{FEFF}" ? text.dropFirst() : text[...]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated()
        {
            let line = raw.trimmingWhitespace
            let number = index + 1
            if line.isEmpty || line.first == "#" || line.first == ";" { continue }
            if line.first == "[" {
                guard line.last == "]", line.count > 2 else {
                    malformed.append((number, "a section header is a name in brackets, such as [Prompt]"))
                    continue
                }
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace
                section = name
                headers.append((name, number))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                malformed.append((number, "is not a [Section] header or a Key=value setting: \"\(line)\""))
                continue
            }
            let key = String(line[..<equals]).trimmingWhitespace
            guard !key.isEmpty else {
                malformed.append((number, "a setting needs a name before '=', such as Timeout=30"))
                continue
            }
            assignments.append(
                Assignment(
                    section: section, key: key, value: String(line[line.index(after: equals)...]).trimmingWhitespace,
                    line: number))
        }
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
