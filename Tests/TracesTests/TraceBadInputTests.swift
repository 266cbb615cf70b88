import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// Hostile trace and labels files, as bytes on disk: each row is a file and the named error it
/// must give (TraceReaderTests.badInputs holds the ordinary mistakes). Rows marked "fuzz" were
/// found by `scripts/fuzz.sh trace-parser` and trapped or were wrongly accepted before.
@Suite struct TraceBadInputTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: TraceError.Code
        var line: Int?
        var says: String
        var testDescription: String { name }
    }

    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    static let traces: [Row] = [
        Row(
            name: "fuzz: times 1e-100 s apart, the same nanosecond",
            bytes: text("t,x,y,z\n0.01,0,0,9.8\n0.01000000001e0,0,0,9.8\n"),
            code: .timeNotIncreasing, line: 3, says: "by at least 1 ns"),
        Row(
            name: "fuzz: a hexadecimal float", bytes: text("t,x,y,z\n0,0x1p3,0,9.8\n"), code: .badNumber, line: 2,
            says: "x is not a number"),
        Row(
            name: "a NUL in a number", bytes: text("t,x,y,z\n0,1") + [0] + text(",0,9.8\n"), code: .badNumber, line: 2,
            says: "x is not a number"),
        Row(name: "a NUL header", bytes: [0, 0, 0, 10], code: .badHeader, line: 1, says: "t,x,y,z"),
        Row(
            name: "invalid UTF-8 in the header", bytes: [0xC3, 0x28] + text(",x,y,z\n"), code: .badNumber, line: 1,
            says: "not valid text"),
        Row(
            name: "a lone CR line end", bytes: text("t,x,y,z\r0,0,0,9.8\r"), code: .badHeader, line: 1, says: "t,x,y,z"),
        Row(name: "five fields", bytes: text("t,x,y,z\n0,0,0,9.8,1\n"), code: .badFieldCount, line: 2, says: "found 5"),
        Row(
            name: "spaces around a number", bytes: text("t,x,y,z\n0, 1,0,9.8\n"), code: .badNumber, line: 2,
            says: "x is not a number"),
        Row(
            name: "a negative infinity", bytes: text("t,x,y,z\n0,-inf,0,9.8\n"), code: .notFinite, line: 2,
            says: "x is -inf"),
        Row(
            name: "a time past 1e9 s", bytes: text("t,x,y,z\n1000000000.5,0,0,9.8\n"), code: .outOfRange, line: 2,
            says: "out of range"),
        Row(
            name: "an acceleration of 10,001 m/s²", bytes: text("t,x,y,z\n0,0,10001,9.8\n"), code: .outOfRange, line: 2,
            says: "y = 10001"),
        Row(
            name: "a line of a megabyte",
            bytes: text("t,x,y,z\n0,") + [UInt8](repeating: 0x31, count: 1 << 20) + text(",0,0\n"),
            code: .notFinite, line: 2, says: "x is 1111"),
        Row(
            name: "a terminal escape and a bidi override in a number",
            bytes: text("t,x,y,z\n0,\u{1B}[2J\u{202E}1,0,9.8\n"), code: .badNumber, line: 2,
            says: "\\u{1b}[2J\\u{202e}1"),
    ]

    @Test("hostile trace files give a named error with the line", arguments: traces)
    func trace(_ row: Row) throws {
        let path = try write(row.bytes, "bad.csv")
        let error = try #require(throws: TraceError.self) { try TraceReader(path: path).readAll() }
        #expect(error.code == row.code, "\(error)")
        #expect(error.line == row.line, "\(error)")
        #expect(error.message.contains(row.says), "\(error)")
        #expect(error.description.count < 400, "the message quotes too much of the file: \(error.description.count)")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(error)")
    }

    static let labels: [Row] = [
        Row(name: "fuzz: an end of 1e93 s", bytes: text(".11 5\n5 1e93\n"), code: .badLabel, line: 2, says: "≤ 1e9 s"),
        Row(name: "fuzz: a hexadecimal start", bytes: text("0x10 20\n"), code: .badLabel, line: 1, says: "expected"),
        Row(name: "infinity", bytes: text("1 inf\n"), code: .badLabel, line: 1, says: "finite"),
        Row(name: "a tab between the numbers", bytes: text("1\t2\n"), code: .badLabel, line: 1, says: "one space"),
        Row(name: "two spaces", bytes: text("1  2\n"), code: .badLabel, line: 1, says: "one space"),
        Row(name: "invalid UTF-8", bytes: [0x31, 0x20, 0xFF, 0x0A], code: .badLabel, line: nil, says: "UTF-8"),
        Row(name: "a NUL", bytes: text("1 2") + [0] + text("\n"), code: .badLabel, line: 1, says: "expected"),
    ]

    @Test("hostile labels files give a named error with the line", arguments: labels)
    func label(_ row: Row) throws {
        let path = try write(row.bytes, "bad.labels")
        let error = try #require(throws: TraceError.self) { try Labels.read(path: path) }
        #expect(error.code == row.code, "\(error)")
        #expect(error.line == row.line, "\(error)")
        #expect(error.message.contains(row.says), "\(error)")
    }

    @Test("fuzz: samples under 1 µs apart are written so that they read back, not as equal times")
    func writerKeepsNanoseconds() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("close.csv").path
        let samples = [0, 1, 2, 1_000, 310_000_000, 310_000_200].map {
            Sample(timestamp: 5_000_000_000 + $0, x: 0.1, y: -0.2, z: 9.81)
        }
        let writer = try TraceWriter(path: path)
        for sample in samples { try writer.write(sample) }
        try writer.close()
        let read = try TraceReader(path: path).readAll()
        #expect(read.map(\.timestamp) == samples.map { $0.timestamp - 5_000_000_000 })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n0.000001000,") == false && text.contains("\n0.000001,"), "whole µs keep six decimals")
        #expect(text.contains("\n0.310000200,"), "\(text)")
    }

    @Test("fuzz: a sample time too far from the first is a named error, not an overflow trap")
    func writerRefusesOverflow() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("far.csv").path
        let writer = try TraceWriter(path: path)
        try writer.write(Sample(timestamp: .min + 1, x: 0, y: 0, z: 9.8))
        let error = try #require(throws: TraceError.self) {
            try writer.write(Sample(timestamp: .max, x: 0, y: 0, z: 9.8))
        }
        #expect(error.code == .outOfRange)
        #expect(error.line == 3)
    }

    @Test("fuzz: labels and samples beyond Int64 nanoseconds are formatted, not trapped on")
    func hugeValuesFormat() {
        #expect(Labels.format([LabelledInterval(start: 1, end: 1e93)]) == "1.000 1e+93\n")
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
