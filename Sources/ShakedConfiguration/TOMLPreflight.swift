/// Checks a file's text for what makes TOMLKit's parser (toml++ 3.4) stop the process instead of
/// reporting a syntax error, before the text reaches it.
///
/// toml++ asserts that a date-time's time part starts with a digit (`parse_time`'s
/// `TOML_ASSERT_ASSUME(is_decimal_digit(*cp))`): with assertions on, as SwiftPM builds C++ even
/// in release, `x = 1980-05-27T&7:32:00Z` aborts shaked, also on a reload; with `NDEBUG` it is
/// undefined behaviour. shaked has no date or time settings, so such a value is refused here as
/// a syntax error naming its line and column. Likewise it asserts that a table header's key
/// starts with a key character (`parse_key`), so `[ = 1` aborts. Found by
/// `scripts/fuzz.sh config-loader`; each such input is a row of ConfigurationBadInputTests.
enum TOMLPreflight {
    /// The first problem toml++ would assert on instead of reporting: its line, column and what to do.
    static func check(_ text: String) -> (line: Int, column: Int, message: String)? {
        if let (line, column) = firstBrokenDateTime(in: text) {
            return (
                line, column,
                "a date-time must have a time after its T, such as 1979-05-27T07:32:00; no setting of shaked "
                    + "takes a date, so remove the value"
            )
        }
        if let (line, column) = firstBrokenTableHeader(in: text) {
            return (line, column, "a table header must be a name in brackets, such as [prompt]")
        }
        if let (line, column) = firstMissingArrayValue(in: text) {
            return (line, column, "an array holds values separated by commas, such as [1, 2, 3]")
        }
        return nil
    }

    /// The line and column of the first place in an array where a value must start (after `[` or
    /// `,`, spaces, line ends and comments) but the next character is `}` or `,` instead: toml++
    /// asserts there (`parse_value`'s `!is_value_terminator(*cp)`). Strings and comments are skipped.
    static func firstMissingArrayValue(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var brackets: [UInt8] = []  // the open `[` (array or header) and `{`
        var expectingValue = false
        var line = 1
        var lineStart = 0
        var atLineStart = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
                atLineStart = true
                index += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "#"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            default: break
            }
            if expectingValue && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: ",")) {
                return (line, index - lineStart + 1)
            }
            expectingValue = false
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index = endOfString(bytes, from: index)
                atLineStart = false
                continue
            case UInt8(ascii: "["):
                // A table header at a line's start outside any brackets holds a key, not values.
                let isHeader = atLineStart && brackets.isEmpty
                brackets.append(isHeader ? UInt8(ascii: "h") : byte)
                expectingValue = !isHeader
            case UInt8(ascii: "{"): brackets.append(byte)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): _ = brackets.popLast()
            case UInt8(ascii: ","): expectingValue = brackets.last == UInt8(ascii: "[")
            default: break
            }
            atLineStart = false
            index += 1
        }
        return nil
    }

    /// The index after the string starting at `start` (basic or literal, single or triple quoted).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        let quote = bytes[start]
        let triple = start + 2 < bytes.count && bytes[start + 1] == quote && bytes[start + 2] == quote
        var index = start + (triple ? 3 : 1)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                index += 2
                continue
            }
            if !triple && byte == UInt8(ascii: "\n") { return index }  // unterminated: toml++ reports it
            if byte == quote {
                if !triple { return index + 1 }
                if index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote {
                    return index + 3
                }
            }
            index += 1
        }
        return index
    }

    /// The line and column of the first line starting with `[` (or `[[`) whose next character,
    /// after spaces, can neither start a key nor close the brackets.
    static func firstBrokenTableHeader(in text: String) -> (line: Int, column: Int)? {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // toml++ skips a byte order mark first (fuzz: a BOM, then "[[[").
            var rest = Substring(line).drop(while: { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" })
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            if rest.first == "[" { rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" }) }
            // The key must follow on the same line: `[` then a line end asserts too (fuzz: "[\nsensor\n]").
            guard let next = rest.first else { return (number + 1, line.count + 1) }
            let startsKey = (next.isASCII && (next.isLetter || next.isNumber)) || "_-\"']".contains(next)
            if !startsKey { return (number + 1, line.distance(from: line.startIndex, to: rest.startIndex) + 1) }
        }
        return nil
    }

    /// The line and column (from 1) of the first date-time in value position whose `T` is not
    /// followed by a digit, or nil when there is none.
    static func firstBrokenDateTime(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var line = 1
        var lineStart = 0
        var previous: UInt8 = UInt8(ascii: "\n")  // the last byte before this one that is not a space or tab
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isDigit(byte), startsValue(previous), isBrokenDateTime(bytes, at: index) {
                return (line, index - lineStart + 1)
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { previous = byte }
            index += 1
        }
        return nil
    }

    /// `YYYY-MM-DD` then `T` or `t`, then anything but a digit (or the end).
    private static func isBrokenDateTime(_ bytes: [UInt8], at start: Int) -> Bool {
        let shape = Array("dddd-dd-ddT".utf8)
        guard start + shape.count <= bytes.count else { return false }
        for (offset, expected) in shape.enumerated() {
            let byte = bytes[start + offset]
            switch expected {
            case UInt8(ascii: "d"): guard isDigit(byte) else { return false }
            case UInt8(ascii: "T"): guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") else { return false }
            default: guard byte == expected else { return false }
            }
        }
        let next = start + shape.count
        return next == bytes.count || !isDigit(bytes[next])
    }

    /// Whether a value can start after this byte: after `=`, `[`, `,`, `{` or at a line's start.
    private static func startsValue(_ previous: UInt8) -> Bool {
        "=[,{\n\r".utf8.contains(previous)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
