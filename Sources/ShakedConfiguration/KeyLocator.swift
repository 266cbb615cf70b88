/// Finds the line of a table or key in a TOML text, for problems found after parsing (unknown keys, bad values).
///
/// A light scan, not a parser: it follows `[table]` headers, `key =` and `table.key =` lines, and skips
/// comments, strings, multi-line arrays and multi-line strings. That is enough for configuration files.
struct KeyLocator {
    /// The line of each table header and key, by its path (`"prompt"`, `"prompt.timeout"`).
    private var lines: [String: Int] = [:]

    /// Scans a file's text.
    init(text: String) {
        var table: [String] = []
        var depth = 0
        var openString: String?
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            if let delimiter = openString {
                if line.contains(delimiter) { openString = nil }
                continue
            }
            if depth > 0 {
                depth += Self.bracketBalance(line, openString: &openString)
                continue
            }
            if line.hasPrefix("[") && !line.hasPrefix("[[") {
                if let close = line.firstIndex(of: "]") {
                    table = Self.keyPath(line[line.index(after: line.startIndex)..<close])
                    record(table, number)
                }
                continue
            }
            guard !line.hasPrefix("#"), let equals = Self.assignment(in: line) else { continue }
            let path = table + Self.keyPath(line[..<equals])
            for length in stride(from: path.count, to: table.count, by: -1) {
                record(Array(path.prefix(length)), number)
            }
            depth += Self.bracketBalance(line[line.index(after: equals)...], openString: &openString)
        }
    }

    /// The line of `table.key`, or of `[table]` when `key` is nil.
    func line(table: String, key: String? = nil) -> Int? {
        lines[key.map { "\(table).\($0)" } ?? table]
    }

    /// The line of a key outside any table.
    func line(rootKey: String) -> Int? {
        lines[rootKey]
    }

    private mutating func record(_ path: [String], _ number: Int) {
        let key = path.joined(separator: ".")
        if lines[key] == nil { lines[key] = number }
    }

    /// The `=` of a `key = value` line, skipping quoted keys.
    private static func assignment(in line: Substring) -> Substring.Index? {
        var quote: Character?
        for index in line.indices {
            let c = line[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "=" {
                return index
            }
        }
        return nil
    }

    /// `a. "b c" .d` → `["a", "b c", "d"]`.
    private static func keyPath(_ text: Substring) -> [String] {
        text.split(separator: ".").map { part in
            let trimmed = part.drop(while: \.isWhitespace)
            var name = String(trimmed.reversed().drop(while: \.isWhitespace).reversed())
            if name.count >= 2, let first = name.first, first == "\"" || first == "'", name.last == first {
                name = String(name.dropFirst().dropLast())
            }
            return name
        }
    }

    /// Opening minus closing brackets outside strings and comments; notes a multi-line string left open.
    private static func bracketBalance(_ text: Substring, openString: inout String?) -> Int {
        var balance = 0
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c == "#" { break }
            if c == "\"" || c == "'" {
                let triple = String(repeating: c, count: 3)
                if text[index...].hasPrefix(triple) {
                    let after = text.index(index, offsetBy: 3)
                    guard let close = text[after...].firstRange(of: triple) else {
                        openString = triple
                        return balance
                    }
                    index = close.upperBound
                    continue
                }
                var next = text.index(after: index)
                while next < text.endIndex && text[next] != c {
                    if c == "\"" && text[next] == "\\" { next = text.index(after: next) }
                    if next < text.endIndex { next = text.index(after: next) }
                }
                index = next < text.endIndex ? text.index(after: next) : next
                continue
            }
            if c == "[" || c == "{" { balance += 1 }
            if c == "]" || c == "}" { balance -= 1 }
            index = text.index(after: index)
        }
        return balance
    }
}
