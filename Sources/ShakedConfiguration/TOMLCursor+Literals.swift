extension TOMLCursor {
    // MARK: Strings

    /// A basic (`"…"`), literal (`'…'`), or multi-line (`"""…"""`, `'''…'''`) string.
    mutating func string() throws(TOMLSyntaxError) -> String {
        let quote = peek!
        let literal = quote == UInt8(ascii: "'")
        let start = position
        var multiLine = false
        if peekAhead(1) == quote && peekAhead(2) == quote {
            multiLine = true
            advance(3)
            // A line end right after the opening delimiter is trimmed.
            if peek == UInt8(ascii: "\n") {
                advance()
            } else if peek == UInt8(ascii: "\r") && peekAhead(1) == UInt8(ascii: "\n") {
                advance(2)
            }
        } else {
            advance()
        }
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek else { throw error(at: start, "the string is not closed") }
            if byte == quote {
                if !multiLine {
                    advance()
                    return String(scalars)
                }
                if peekAhead(1) == quote && peekAhead(2) == quote {
                    // Up to two quotes may end the content just before the closing delimiter.
                    var extra = 0
                    while extra < 2 && peekAhead(3 + extra) == quote { extra += 1 }
                    for _ in 0..<extra { scalars.append(Unicode.Scalar(quote)) }
                    advance(3 + extra)
                    return String(scalars)
                }
                scalars.append(Unicode.Scalar(quote))
                advance()
                continue
            }
            if byte == UInt8(ascii: "\\") && !literal {
                try escape(into: &scalars, multiLine: multiLine)
                continue
            }
            if multiLine && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                guard byte == UInt8(ascii: "\n") || peekAhead(1) == UInt8(ascii: "\n") else {
                    throw error("a carriage return must be followed by a line feed")
                }
                if byte == UInt8(ascii: "\r") { advance() }
                advance()
                scalars.append("\n")
                continue
            }
            guard byte >= 0x20 || byte == UInt8(ascii: "\t"), byte != 0x7F else {
                throw error(
                    byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                        ? "the string is not closed on its line (use \"\"\" for several lines)"
                        : "a string may not hold control characters; write them as escapes such as \\u0001")
            }
            scalars.append(nextScalar())
        }
    }

    /// One UTF-8 encoded scalar (the text came from a Swift String, so it is valid).
    private mutating func nextScalar() -> Unicode.Scalar {
        var decoder = UTF8()
        var iterator = bytesFromPosition()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
            advance()
            return "\u{FFFD}"
        }
        advance(UTF8.width(scalar))
        return scalar
    }

    private mutating func escape(into scalars: inout String.UnicodeScalarView, multiLine: Bool) throws(TOMLSyntaxError)
    {
        let start = position
        advance()
        guard let byte = peek else { throw error(at: start, "the string is not closed") }
        advance()
        switch byte {
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = byte == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let d = peek.flatMap(Self.hexValue) else {
                    throw error(at: start, "\\\(Unicode.Scalar(byte)) takes exactly \(digits) hexadecimal digits")
                }
                value = value * 16 + UInt32(d)
                advance()
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error(
                    at: start, "\\\(Unicode.Scalar(byte)) names no Unicode character (a surrogate or too large)")
            }
            scalars.append(scalar)
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            guard multiLine else {
                throw error(at: start, "a backslash ends a line only in a multi-line string (\"\"\")")
            }
            // A backslash ending a line trims the line end and the whitespace after it.
            position -= 1
            skipSpaces()
            guard peek == UInt8(ascii: "\n") || peek == UInt8(ascii: "\r") else {
                throw error(at: start, "a backslash may only be followed by whitespace at the end of a line")
            }
            while let next = peek,
                next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
                    || (next == UInt8(ascii: "\r") && peekAhead(1) == UInt8(ascii: "\n"))
            {
                advance()
            }
        default:
            throw error(
                at: start,
                "\\\(Unicode.Scalar(byte)) is not an escape TOML knows "
                    + "(\\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
        }
    }

    // MARK: Booleans, numbers, dates and times

    /// `true`, `false`, an integer, a float, or a date or time.
    mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue {
        let start = position
        // A date and a time may be separated by one space: take it when a digit follows.
        while let byte = peek, Self.isScalarByte(byte) || (byte == UInt8(ascii: " ") && continuesDateTime(from: start))
        {
            advance()
        }
        let token = String(decoding: slice(start..<position), as: UTF8.self)
        guard !token.isEmpty else {
            throw error("expected a value (a string in quotes, a number, true or false, [ or {)")
        }
        if token == "true" { return .boolean(true) }
        if token == "false" { return .boolean(false) }
        switch TOMLNumber.parse(token) {
        case .value(let number): return number
        case .tooLarge: throw error(at: start, "\(token.prefix(40)) is too large for a 64-bit integer")
        case .notANumber: break
        }
        if let kind = TOMLDateTime.kind(of: token) { return .dateTime(token, kind: kind) }
        let bytes = Array(token.utf8)
        if bytes.count >= 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            TOMLDateTime.kind(of: String(decoding: bytes[..<10], as: UTF8.self)) == .date
        {
            throw error(at: start, "a date-time needs a time after its T, such as 1979-05-27T07:32:00Z")
        }
        throw error(
            at: start,
            "\(token.prefix(40)) is not a value; a string needs quotes, a number digits (1, -2, 0.5, 1e3, 0x1F), "
                + "a boolean true or false")
    }

    private static func isScalarByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default: false
        }
    }

    /// At a space inside a token that began at `start`: whether it is a date (`YYYY-MM-DD`) followed by
    /// a time (` HH:`).
    private func continuesDateTime(from start: Int) -> Bool {
        guard position - start == 10,
            TOMLDateTime.kind(of: String(decoding: slice(start..<position), as: UTF8.self)) == .date
        else { return false }
        let isDigit = { (byte: UInt8?) in byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        return isDigit(peekAhead(1)) && isDigit(peekAhead(2)) && peekAhead(3) == UInt8(ascii: ":")
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
