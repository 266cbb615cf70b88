import Testing

@testable import ShakedConfiguration

/// The TOML reader against documents from the TOML 1.0 specification's examples: what it accepts,
/// the value it reads, and where it says a text is not TOML.
struct TOMLParserTests {
    struct Accepted: CustomTestStringConvertible, Sendable {
        var text: String
        var path: [String]
        var value: TOMLValue
        var testDescription: String { text.debugDescription }
    }

    static let accepted: [Accepted] = [
        Accepted(text: "a = 1", path: ["a"], value: .integer(1)),
        Accepted(text: "a = +99\n", path: ["a"], value: .integer(99)),
        Accepted(text: "a = -17", path: ["a"], value: .integer(-17)),
        Accepted(text: "a = 1_000_000", path: ["a"], value: .integer(1_000_000)),
        Accepted(text: "a = 0xDEAD_beef", path: ["a"], value: .integer(0xDEAD_BEEF)),
        Accepted(text: "a = 0o755", path: ["a"], value: .integer(0o755)),
        Accepted(text: "a = 0b1101", path: ["a"], value: .integer(13)),
        Accepted(text: "a = 9223372036854775807", path: ["a"], value: .integer(Int.max)),
        Accepted(text: "a = 3.1415", path: ["a"], value: .float(3.1415)),
        Accepted(text: "a = -0.01", path: ["a"], value: .float(-0.01)),
        Accepted(text: "a = 5e+22", path: ["a"], value: .float(5e22)),
        Accepted(text: "a = 6.626e-34", path: ["a"], value: .float(6.626e-34)),
        Accepted(text: "a = 224_617.445_991", path: ["a"], value: .float(224_617.445_991)),
        Accepted(text: "a = -inf", path: ["a"], value: .float(-.infinity)),
        Accepted(text: "a = true # yes", path: ["a"], value: .boolean(true)),
        Accepted(
            text: "a = \"tab\\there \\u00E9 \\U0001F600 \\\"q\\\"\"", path: ["a"],
            value: .string("tab\there é 😀 \"q\"")),
        Accepted(text: "a = 'C:\\Users\\x'", path: ["a"], value: .string("C:\\Users\\x")),
        Accepted(text: "a = \"\"\"\nRoses\nViolets\"\"\"", path: ["a"], value: .string("Roses\nViolets")),
        Accepted(text: "a = \"\"\"one \\\n    two\"\"\"", path: ["a"], value: .string("one two")),
        Accepted(text: "a = \"\"\"x\"\"\"\"\"", path: ["a"], value: .string("x\"\"")),
        Accepted(text: "a = '''\nfirst\r\nsecond'''", path: ["a"], value: .string("first\nsecond")),
        Accepted(
            text: "a = 1979-05-27T07:32:00Z", path: ["a"], value: .dateTime("1979-05-27T07:32:00Z", kind: .dateTime)),
        Accepted(
            text: "a = 1979-05-27 07:32:00.999-07:00 # c", path: ["a"],
            value: .dateTime("1979-05-27 07:32:00.999-07:00", kind: .dateTime)),
        Accepted(text: "a = 1979-05-27", path: ["a"], value: .dateTime("1979-05-27", kind: .date)),
        Accepted(text: "a = 07:32:00", path: ["a"], value: .dateTime("07:32:00", kind: .time)),
        Accepted(
            text: "a = [\n  [0, 1, 0], # row\n  [1, 0, 0],\n]", path: ["a"],
            value: .array([
                .array([.integer(0), .integer(1), .integer(0)]), .array([.integer(1), .integer(0), .integer(0)]),
            ])),
        Accepted(text: "a = []", path: ["a"], value: .array([])),
        Accepted(text: "[t]\nb.c = 2", path: ["t", "b", "c"], value: .integer(2)),
        Accepted(text: "[ t . \"x y\" ]\nk = 1", path: ["t", "x y", "k"], value: .integer(1)),
        Accepted(text: "[a.b.c]\n[a]\nd = 1", path: ["a", "d"], value: .integer(1)),
        Accepted(
            text: "[f]\napple.color = 1\n[f.apple.texture]\nsmooth = true", path: ["f", "apple", "texture", "smooth"],
            value: .boolean(true)),
        Accepted(text: "p = { x = 1, y.z = 'w' }", path: ["p", "y", "z"], value: .string("w")),
        Accepted(text: "\r\n[t]\r\nk = 'v'\r\n", path: ["t", "k"], value: .string("v")),
    ]

    @Test(arguments: accepted)
    func readsValue(_ c: Accepted) throws {
        let root = try TOMLParser.parse(c.text)
        var value = TOMLValue.table(root)
        for key in c.path { value = try #require(value.table?[key], "no \(key) in \(value)") }
        #expect(value == c.value)
    }

    @Test("arrays of tables append one table per header")
    func arrayOfTables() throws {
        let root = try TOMLParser.parse("[[p]]\nn = 1\n[[p]]\nn = 2\n[p.sub]\nq = 3\n")
        let elements = try #require(root["p"]?.array)
        #expect(elements.map { $0.table?["n"] } == [.integer(1), .integer(2)])
        #expect(elements[1].table?["sub"]?.table?["q"] == .integer(3))
    }

    @Test("keys keep the order they were written in")
    func order() throws {
        let root = try TOMLParser.parse("[z]\n[a]\n[m]\n")
        #expect(root.map { $0.0 } == ["z", "a", "m"])
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var text: String
        var line: Int
        var column: Int
        var says: String
        var testDescription: String { text.debugDescription }
    }

    static let refused: [Refused] = [
        Refused(text: "a = = 1", line: 1, column: 5, says: "expected a value"),
        Refused(text: "a = 1\na = 2", line: 2, column: 1, says: "defined twice"),
        Refused(text: "[t]\n[t]", line: 2, column: 1, says: "defined twice"),
        Refused(text: "[t]\nk = 1\n[t.k]", line: 3, column: 1, says: "already a value"),
        Refused(text: "a.b = 1\n[a]", line: 2, column: 1, says: "defined twice"),
        Refused(text: "[a.b.c]\n[a]\nb.d = 1", line: 3, column: 1, says: "dotted keys can't add"),
        Refused(text: "p = { x = 1 }\np.y = 2", line: 2, column: 1, says: "dotted keys can't add"),
        Refused(text: "a = 1 2", line: 1, column: 7, says: "end of the line"),
        Refused(text: "a = \"open", line: 1, column: 5, says: "not closed"),
        Refused(text: "a = \"x\\qy\"", line: 1, column: 7, says: "not an escape"),
        Refused(text: "a = \"\\uD800\"", line: 1, column: 6, says: "no Unicode character"),
        Refused(text: "a = 'bell\u{07}'", line: 1, column: 10, says: "control characters"),
        Refused(text: "# x\u{01}", line: 1, column: 4, says: "control characters"),
        Refused(text: "a = 1\rb = 2", line: 1, column: 6, says: "carriage return"),
        Refused(text: "a = 012", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = 1__0", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = 1.", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = .5", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = -0x1", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = 9223372036854775808", line: 1, column: 5, says: "too large"),
        Refused(text: "a = 1979-13-01", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = 07:32", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = TRUE", line: 1, column: 5, says: "not a value"),
        Refused(text: "a = [1, 2", line: 1, column: 10, says: "expected , or ]"),
        Refused(text: "a = [1,,2]", line: 1, column: 8, says: "separated by commas"),
        Refused(text: "a = [}]", line: 1, column: 6, says: "separated by commas"),
        Refused(text: "[ = 1", line: 1, column: 3, says: "table header must be a name"),
        Refused(text: "a = 1979-05-27T&7:32:00Z", line: 1, column: 5, says: "a time after its T"),
        Refused(
            text: "a = " + String(repeating: "[", count: 33) + String(repeating: "]", count: 33), line: 1,
            column: 37, says: "nest at most 32 deep"),
        Refused(
            text: "a = " + String(repeating: "{ b = ", count: 33) + String(repeating: "}", count: 33), line: 1,
            column: 4 + 32 * 6 + 1, says: "nest at most 32 deep"),
        Refused(text: "p = { x = 1, }", line: 1, column: 14, says: "expected a key"),
        Refused(text: "p = { x = 1\n}", line: 1, column: 12, says: "inline table"),
        Refused(text: "[t", line: 1, column: 3, says: "ends with ]"),
        Refused(text: "[[t]\n", line: 1, column: 5, says: "ends with ]]"),
        Refused(text: "[[t]]\n[t]", line: 2, column: 1, says: "array of tables"),
        Refused(text: "é = 1", line: 1, column: 1, says: "expected a key"),
        Refused(text: "k = 'é' x", line: 1, column: 9, says: "end of the line"),
        Refused(text: "\"\"\"k\"\"\" = 1", line: 1, column: 1, says: "multi-line"),
    ]

    @Test(arguments: refused)
    func refusesWithPosition(_ c: Refused) throws {
        let error = try #require(throws: TOMLSyntaxError.self) { try TOMLParser.parse(c.text) }
        #expect(error.line == c.line, "\(error)")
        #expect(error.column == c.column, "\(error)")
        #expect(error.message.contains(c.says), "\(error)")
    }
}
