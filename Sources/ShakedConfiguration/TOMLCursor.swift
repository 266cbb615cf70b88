/// The bytes of a TOML text and the position reading has reached: the lexical half of
/// ``TOMLParser`` (whitespace, comments, keys, strings, numbers, dates and times).
struct TOMLCursor {
    private let bytes: [UInt8]
    /// The offset of the next byte.
    var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
    /// The byte `offset` places after the next one.
    func peekAhead(_ offset: Int) -> UInt8? { position + offset < bytes.count ? bytes[position + offset] : nil }
    /// Bytes of the text.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }
    /// The bytes from the position on, for decoding one scalar.
    func bytesFromPosition() -> IndexingIterator<ArraySlice<UInt8>> { bytes[position...].makeIterator() }
    mutating func advance(_ count: Int = 1) { position = min(bytes.count, position + count) }

    // MARK: Errors

    /// A syntax error at the current position.
    func error(_ message: String) -> TOMLSyntaxError { error(at: position, message) }

    /// A syntax error at `offset`: its line, and its column counted in characters (Unicode scalars).
    func error(at offset: Int, _ message: String) -> TOMLSyntaxError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = 1 + bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
        return TOMLSyntaxError(line: line, column: column, message: message)
    }

    // MARK: Whitespace, comments, line ends

    mutating func skipSpaces() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// Spaces, then an optional comment, then a line end or the end of the text.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        if peek == UInt8(ascii: "#") { try comment() }
        guard !atEnd else { return }
        guard try newline() else { throw error("expected the end of the line after the value (one setting per line)") }
    }

    /// Whitespace, line ends and comments, as may stand between array elements.
    mutating func skipBlank() throws(TOMLSyntaxError) {
        while true {
            skipSpaces()
            if peek == UInt8(ascii: "#") { try comment() }
            guard try newline() else { return }
        }
    }

    /// Consumes `\n` or `\r\n`; false when neither is next.
    private mutating func newline() throws(TOMLSyntaxError) -> Bool {
        if peek == UInt8(ascii: "\n") {
            advance()
            return true
        }
        guard peek == UInt8(ascii: "\r") else { return false }
        guard peekAhead(1) == UInt8(ascii: "\n") else {
            throw error("a carriage return must be followed by a line feed")
        }
        advance(2)
        return true
    }

    private mutating func comment() throws(TOMLSyntaxError) {
        while let byte = peek, byte != UInt8(ascii: "\n") {
            if byte == UInt8(ascii: "\r") && peekAhead(1) == UInt8(ascii: "\n") { return }
            guard !Self.isControl(byte) else { throw error("a comment may not hold control characters") }
            advance()
        }
    }

    /// Control characters TOML allows in no comment or single-line string: all but tab.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    mutating func expect(_ character: Unicode.Scalar, _ message: String) throws(TOMLSyntaxError) {
        guard peek == UInt8(ascii: character) else { throw error(message) }
        advance()
    }

    // MARK: Keys

    /// A key: bare, quoted or dotted (`a."b c".d`), with spaces allowed around the dots.
    mutating func key() throws(TOMLSyntaxError) -> [String] {
        var path: [String] = []
        while true {
            switch peek {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if peekAhead(1) == peek && peekAhead(2) == peek { throw error("a key can't be a multi-line string") }
                path.append(try string())
            case let byte? where Self.isBareKey(byte):
                let start = position
                while let byte = peek, Self.isBareKey(byte) { advance() }
                path.append(String(decoding: bytes[start..<position], as: UTF8.self))
            default:
                throw error("expected a key (letters, digits, - and _, or a quoted string)")
            }
            skipSpaces()
            guard peek == UInt8(ascii: ".") else { return path }
            advance()
            skipSpaces()
        }
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
