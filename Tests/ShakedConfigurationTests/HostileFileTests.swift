import Foundation
import ShakedConfiguration
import TestSupport
import Testing

/// Hostile configuration files, as bytes on disk read by the real loader: each row is a file and
/// the named problem it must give. ValidationTableTests holds the ordinary mistakes, as text;
/// these are the bytes and shapes that broke a layer below (rows marked "fuzz" were found by
/// `scripts/fuzz.sh config-loader`: toml++ aborted the process on them).
@Suite struct HostileFileTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: ConfigurationProblem.Code
        var line: Int?
        var says: String
        var testDescription: String { name }
    }

    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    static let rows: [Row] = [
        Row(
            name: "fuzz: a date-time with no time after its T",
            bytes: text("[prompt]\ntimeout = 5\nwhen = 1980-05-27T&7:32:00Z\n"), code: .syntax, line: 3,
            says: "a time after its T"),
        Row(
            name: "a date-time ending at its t", bytes: text("[log]\nlevel = [1979-05-27t"), code: .syntax,
            line: 2, says: "a time after its T"),
        Row(
            name: "fuzz: a table header starting with =", bytes: text("[ = 100\n[sensor]\nrate = 100\n"),
            code: .syntax, line: 1, says: "table header"),
        Row(
            name: "fuzz: a table header whose key is on the next line", bytes: text("[\nsensor\n]\nrate = 100\n"),
            code: .syntax, line: 1, says: "table header"),
        Row(
            name: "fuzz: a byte order mark, then a header of three brackets",
            bytes: [0xEF, 0xBB, 0xBF] + text("[[[mou]]]\nrate = 1\n"), code: .syntax, line: 1, says: "expected a key"),
        Row(
            name: "an array-of-tables header starting with a comma", bytes: text("[[ ,x]]\n"), code: .syntax,
            line: 1, says: "table header"),
        Row(
            name: "fuzz: an array closed by a brace", bytes: text("[detector]\nx = { inline = [}] }\n"),
            code: .syntax, line: 2, says: "values separated by commas"),
        Row(
            name: "an array starting with a comma, over lines and a comment",
            bytes: text("[sensor]\nmount-matrix = [\n  # rows\n  , [1, 0, 0]]\n"), code: .syntax, line: 4,
            says: "values separated by commas"),
        Row(
            name: "arrays nested 10,000 deep",
            bytes: text("[sensor]\nmount-matrix = ") + Array(repeating: UInt8(ascii: "["), count: 10_000)
                + Array(repeating: UInt8(ascii: "]"), count: 10_000) + text("\n"), code: .syntax, line: 2,
            says: "nest"),
        Row(
            name: "an integer beyond 64 bits", bytes: text("[prompt]\ntimeout = 99999999999999999999\n"),
            code: .syntax, line: 2, says: "TOML"),
        Row(
            name: "invalid UTF-8", bytes: text("[prompt]\ntimeout = 5 # caf") + [0xE9] + text("\n"),
            code: .unreadable, line: 2, says: "not valid UTF-8"),
        Row(
            name: "an overlong NUL", bytes: text("[prompt]\n") + [0xC0, 0x80], code: .unreadable, line: 2, says: "UTF-8"
        ),
        Row(name: "a NUL byte", bytes: text("[prompt]\n\ntimeout = 5") + [0], code: .unreadable, line: 3, says: "NUL"),
        Row(
            name: "a file over 1 MiB", bytes: text("# ") + Array(repeating: UInt8(ascii: "x"), count: 1 << 20),
            code: .unreadable, line: nil, says: "at most 1048576 bytes"),
    ]

    @Test("hostile files give a named problem with the line, never a crash", arguments: rows)
    func hostileFile(_ row: Row) throws {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("shaked.conf").path
        try Data(row.bytes).write(to: URL(fileURLWithPath: path))
        let check = ShakedSettings.check(configFile: path, etcDirectory: directory.path)
        let problem = try #require(check.problems.first, "accepted: \(check.settings)")
        #expect(problem.code == row.code, "\(problem)")
        #expect(problem.line == row.line, "\(problem)")
        #expect(problem.file == path)
        #expect(problem.message.contains(row.says), "\(problem)")
        #expect(check.problems.count == 1, "\(check.report)")
    }

    @Test("a key with terminal escapes and bidi overrides is reported without them reaching the terminal")
    func escapesInKeys() throws {
        let text = "[prompt]\n\"\\u001b[2Jtime\\u202eout\" = 5\n"
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.parse(text, file: "e.conf") }
        let problem = try #require(error.problems.first)
        #expect(problem.code == .unknownKey)
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(error)")
    }
}
