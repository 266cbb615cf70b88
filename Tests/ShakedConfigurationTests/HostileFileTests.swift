import Foundation
import ShakedConfiguration
import TestSupport
import Testing

/// Hostile configuration files, as bytes on disk read by the real loader: each row is a file and
/// the named problem it must give. ValidationTableTests holds the ordinary mistakes, as text;
/// these are the bytes and shapes that could break the reader (`scripts/fuzz.sh config-loader` feeds it more).
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
            name: "a header starting with =", bytes: text("[ = 100\n[Sensor]\nRate=100\n"), code: .syntax, line: 1,
            says: "a name in brackets"),
        Row(
            name: "a header with no name", bytes: text("[]\n"), code: .syntax,
            line: 1, says: "a name in brackets"),
        Row(
            name: "a byte order mark, then a header of three brackets",
            bytes: [0xEF, 0xBB, 0xBF] + text("[[[mou]]]\n"), code: .unknownTable, line: 1, says: "not a section"),
        Row(
            name: "brackets 10,000 deep",
            bytes: text("[Sensor]\nMountMatrix=") + Array(repeating: UInt8(ascii: "["), count: 10_000)
                + Array(repeating: UInt8(ascii: "]"), count: 10_000) + text("\n"), code: .syntax, line: 2,
            says: "without quotes or brackets"),
        Row(
            name: "an integer beyond 64 bits", bytes: text("[Limits]\nConnections=99999999999999999999\n"),
            code: .wrongType, line: 2, says: "a whole number"),
        Row(
            name: "a line of 100,000 equals signs",
            bytes: text("[Prompt]\n") + Array(repeating: UInt8(ascii: "="), count: 100_000),
            code: .syntax, line: 2, says: "needs a name before '='"),
        Row(
            name: "lines ended by CR LF", bytes: text("[Prompt]\r\nTimeout=0\r\n"), code: .outOfRange,
            line: 2, says: "from 1 to 600"),
        Row(
            name: "invalid UTF-8", bytes: text("[Prompt]\nTimeout=5 # caf") + [0xE9] + text("\n"),
            code: .unreadable, line: 2, says: "not valid UTF-8"),
        Row(
            name: "an overlong NUL", bytes: text("[Prompt]\n") + [0xC0, 0x80], code: .unreadable, line: 2, says: "UTF-8"
        ),
        Row(name: "a NUL byte", bytes: text("[Prompt]\n\nTimeout=5") + [0], code: .unreadable, line: 3, says: "NUL"),
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
        let text = "[Prompt]\n\u{1b}[2JTime\u{202e}out=5\n"
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.parse(text, file: "e.conf") }
        let problem = try #require(error.problems.first)
        #expect(problem.code == .unknownKey)
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(error)")
    }
}
