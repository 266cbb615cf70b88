/// Reads a TOML 1.0 document (https://toml.io/en/v1.0.0) into a ``TOMLTable``, with the standard
/// library only, so the daemon loads neither Foundation nor a C++ runtime to read its configuration.
///
/// The whole language is accepted: tables, arrays of tables, dotted and quoted keys, inline tables,
/// the four kinds of strings with their escapes, integers in four bases, floats with `inf` and
/// `nan`, booleans, dates and times, arrays over several lines with comments. The first thing that
/// is not TOML throws a ``TOMLSyntaxError`` with its line and column, including keys and tables
/// defined twice. Nothing is assumed of the text: every byte is checked.
struct TOMLParser {
    /// How a table came to be, for the rules on defining it again.
    enum Origin {
        /// Made on the way to a deeper `[a.b.c]` header; one header may still define it.
        case implicit
        /// Defined by its own `[header]`.
        case header
        /// Made by dotted keys (`a.b = 1`) in the current section; more dotted keys may add to it.
        case dotted
        /// An inline table or any other value: final.
        case value
        /// An array of tables (`[[a]]`); each header appends one.
        case arrayOfTables
    }

    /// The bytes and where reading is (in ``TOMLCursor``), the document, the current section.
    var cursor: TOMLCursor
    private var root = TOMLTable()
    private var origins: [[String]: Origin] = [:]
    /// The current section: its key path, with array-of-table elements as `name[index]`.
    private var section: [String] = []
    /// Which paths were made by dotted keys in the current section.
    private var dottedInSection: Set<[String]> = []
    /// How many arrays and inline tables enclose the value being read.
    private var depth = 0
    /// The deepest nesting of arrays and inline tables accepted.
    static let maximumDepth = 32

    /// Parses a document.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(cursor: TOMLCursor(text))
        try parser.document()
        return parser.root
    }

    private init(cursor: TOMLCursor) { self.cursor = cursor }

    private mutating func document() throws(TOMLSyntaxError) {
        while !cursor.atEnd {
            cursor.skipSpaces()
            switch cursor.peek {
            case nil: return
            case UInt8(ascii: "#"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): try cursor.endOfLine()
            case UInt8(ascii: "["):
                try header()
                try cursor.endOfLine()
            default:
                try keyValue()
                try cursor.endOfLine()
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`.
    private mutating func header() throws(TOMLSyntaxError) {
        let start = cursor.position
        cursor.advance()
        let isArray = cursor.peek == UInt8(ascii: "[")
        if isArray { cursor.advance() }
        cursor.skipSpaces()
        let path: [String]
        do { path = try cursor.key() } catch  where error.message.hasPrefix("expected a key") {
            throw cursor.error("a table header must be a name in brackets, such as [prompt]")
        }
        cursor.skipSpaces()
        try cursor.expect("]", "a table header ends with ]")
        if isArray { try cursor.expect("]", "an array-of-tables header ends with ]]") }
        let shown = path.joined(separator: ".")
        var location: [String] = []
        for (index, name) in path.enumerated() {
            let last = index == path.count - 1
            let here = location + [name]
            switch (origins[here], last) {
            case (nil, false):
                try set(.table(TOMLTable()), at: here, origin: .implicit, from: start)
                location = here
            case (nil, true):
                if isArray {
                    try set(.array([.table(TOMLTable())]), at: here, origin: .arrayOfTables, from: start)
                    location = here + ["0"]
                } else {
                    try set(.table(TOMLTable()), at: here, origin: .header, from: start)
                    location = here
                }
            case (.implicit, true) where !isArray:
                origins[here] = .header
                location = here
            case (.implicit, false), (.header, false), (.dotted, false):
                location = here
            case (.arrayOfTables, false):
                location = here + [String(try count(at: here) - 1)]
            case (.arrayOfTables, true) where isArray:
                let index = try count(at: here)
                try modify(here, from: start) { (value: inout TOMLValue) throws(TOMLSyntaxError) in
                    if case .array(var elements) = value {
                        elements.append(.table(TOMLTable()))
                        value = .array(elements)
                    }
                }
                location = here + [String(index)]
            case (.header, true), (.implicit, true), (.dotted, true):
                throw cursor.error(at: start, "the table [\(shown)] is defined twice")
            case (.arrayOfTables, true):
                throw cursor.error(at: start, "[\(shown)] is an array of tables; write [[\(shown)]] to add to it")
            case (.value, _):
                throw cursor.error(at: start, "\(here.joined(separator: ".")) is already a value, not a table")
            }
        }
        section = location
        dottedInSection = []
    }

    /// `key = value` in the current section.
    private mutating func keyValue() throws(TOMLSyntaxError) {
        let start = cursor.position
        let path = try cursor.key()
        cursor.skipSpaces()
        try cursor.expect("=", "expected = after the key \(path.joined(separator: "."))")
        cursor.skipSpaces()
        let value = try self.value()
        var location = section
        for name in path.dropLast() {
            location.append(name)
            switch origins[location] {
            case nil:
                try set(.table(TOMLTable()), at: location, origin: .dotted, from: start)
                dottedInSection.insert(location)
            case .dotted where dottedInSection.contains(location): break
            default:
                throw cursor.error(
                    at: start, "\(location.joined(separator: ".")) is already defined; dotted keys can't add to it")
            }
        }
        location.append(path[path.count - 1])
        guard origins[location] == nil else {
            throw cursor.error(at: start, "the key \(path.joined(separator: ".")) is defined twice")
        }
        try set(value, at: location, origin: .value, from: start)
    }

    /// One value: string, number, boolean, date or time, array or inline table.
    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        switch cursor.peek {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try cursor.string())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return try inlineTable()
        case nil: throw cursor.error("expected a value")
        default: return try cursor.scalar()
        }
    }

    private mutating func array() throws(TOMLSyntaxError) -> TOMLValue {
        try nest()
        defer { depth -= 1 }
        cursor.advance()
        var elements: [TOMLValue] = []
        while true {
            try cursor.skipBlank()
            if cursor.peek == UInt8(ascii: "]") { break }
            if cursor.peek == UInt8(ascii: ",") || cursor.peek == UInt8(ascii: "}") {
                throw cursor.error("an array holds values separated by commas, such as [1, 2, 3]")
            }
            elements.append(try value())
            try cursor.skipBlank()
            if cursor.peek == UInt8(ascii: ",") {
                cursor.advance()
                continue
            }
            guard cursor.peek == UInt8(ascii: "]") else { throw cursor.error("expected , or ] in the array") }
            break
        }
        cursor.advance()
        return .array(elements)
    }

    /// `{ a = 1, b.c = "x" }`, on one line, without a trailing comma.
    private mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLValue {
        try nest()
        defer { depth -= 1 }
        cursor.advance()
        var inner = TOMLParser(cursor: cursor)
        inner.depth = depth
        inner.cursor.skipSpaces()
        if inner.cursor.peek != UInt8(ascii: "}") {
            while true {
                inner.cursor.skipSpaces()
                try inner.keyValue()
                inner.cursor.skipSpaces()
                if inner.cursor.peek == UInt8(ascii: ",") {
                    inner.cursor.advance()
                    continue
                }
                guard inner.cursor.peek == UInt8(ascii: "}") else {
                    throw inner.cursor.error("expected , or } in the inline table (it must be on one line)")
                }
                break
            }
        }
        inner.cursor.advance()
        cursor = inner.cursor
        return .table(inner.root)
    }

    /// One level deeper into arrays and inline tables; refused past ``maximumDepth``, so a hostile
    /// file can't exhaust the stack.
    private mutating func nest() throws(TOMLSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            depth -= 1
            throw cursor.error("arrays and inline tables nest at most \(Self.maximumDepth) deep")
        }
    }

    // MARK: The document tree

    private mutating func set(
        _ value: TOMLValue, at path: [String], origin: Origin, from start: Int
    ) throws(TOMLSyntaxError) {
        try modify(Array(path.dropLast()), from: start) { (parent: inout TOMLValue) throws(TOMLSyntaxError) in
            guard case .table(var table) = parent else { return }
            table[path[path.count - 1]] = value
            parent = .table(table)
        }
        origins[path] = origin
    }

    private mutating func count(at path: [String]) throws(TOMLSyntaxError) -> Int {
        var count = 0
        try modify(path, from: cursor.position) { (value: inout TOMLValue) throws(TOMLSyntaxError) in
            count = value.array?.count ?? 0
        }
        return count
    }

    /// Runs `body` on the value at `path` (array elements named by their index).
    private mutating func modify(
        _ path: [String], from start: Int, _ body: (inout TOMLValue) throws(TOMLSyntaxError) -> Void
    ) throws(TOMLSyntaxError) {
        var value = TOMLValue.table(root)
        root = TOMLTable()  // released, so the tree below is uniquely referenced while it changes
        defer { if case .table(let table) = value { root = table } }
        try Self.descend(&value, path[...], body)
    }

    private static func descend(
        _ value: inout TOMLValue, _ path: ArraySlice<String>, _ body: (inout TOMLValue) throws(TOMLSyntaxError) -> Void
    ) throws(TOMLSyntaxError) {
        guard let first = path.first else { return try body(&value) }
        switch value {
        case .table(var table):
            value = .boolean(false)
            var child = table[first] ?? .table(TOMLTable())
            table[first] = .boolean(false)
            defer {
                table[first] = child
                value = .table(table)
            }
            try descend(&child, path.dropFirst(), body)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return }
            value = .boolean(false)
            defer { value = .array(elements) }
            try descend(&elements[index], path.dropFirst(), body)
        default:
            return
        }
    }
}
