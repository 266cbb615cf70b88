import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// The trace parser refuses bad input with the file, the line and what is wrong.
@Suite struct TraceReaderTests {
    static let badInputs: [(name: String, text: String, code: TraceError.Code, line: Int?, mentions: String)] = [
        ("empty file", "", .empty, 1, "empty"),
        ("bad header", "time,x,y,z\n0,0,0,9.8\n", .badHeader, 1, "t,x,y,z"),
        ("header only, then missing field", "t,x,y,z\n0,0,9.8\n", .badFieldCount, 2, "found 3"),
        ("text in numbers", "t,x,y,z\n0,0,0,9.8\n0.02,abc,0,9.8\n", .badNumber, 3, "x is not a number"),
        ("NaN", "t,x,y,z\n0,0,0,9.8\n0.02,0,nan,9.8\n", .notFinite, 3, "y is nan"),
        ("infinity", "t,x,y,z\n0,0,0,inf\n", .notFinite, 2, "z is inf"),
        ("huge number", "t,x,y,z\n0,0,0,9.8\n0.02,1e300,0,9.8\n", .outOfRange, 3, "out of range"),
        ("huge time", "t,x,y,z\n1e18,0,0,9.8\n", .outOfRange, 2, "t = 1e18"),
        (
            "time going backwards", "t,x,y,z\n0,0,0,9.8\n0.04,0,0,9.8\n0.02,0,0,9.8\n", .timeNotIncreasing, 4,
            "does not increase"
        ),
        ("repeated time", "t,x,y,z\n0,0,0,9.8\n0,0,0,9.8\n", .timeNotIncreasing, 3, "strictly increasing"),
        ("blank line", "t,x,y,z\n0,0,0,9.8\n\n0.02,0,0,9.8\n", .badFieldCount, 3, "blank line"),
        ("quoted field", "t,x,y,z\n\"0\",0,0,9.8\n", .badNumber, 2, "t is not a number"),
    ]

    @Test("bad input gives an error naming file, line and problem", arguments: badInputs)
    func badInput(name: String, text: String, code: TraceError.Code, line: Int?, mentions: String) throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("bad.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TraceError.self, "\(name)") { try TraceReader(path: path).readAll() }
        do {
            _ = try TraceReader(path: path).readAll()
        } catch {
            #expect(error.code == code, "\(name)")
            #expect(error.line == line, "\(name)")
            #expect(error.path == path)
            #expect(error.description.hasPrefix("\(path):"), "\(name): \(error.description)")
            #expect(error.message.contains(mentions), "\(name): \(error.message)")
        }
        // Iterating with for-in stops at the problem and keeps it, rather than skipping on.
        var iterator = TraceReader(path: path).makeIterator()
        while iterator.next() != nil {}
        #expect(iterator.error?.code == code)
    }

    @Test("a missing file is an error, not a crash")
    func missingFile() {
        #expect(throws: TraceError.self) { try TraceReader(path: "/nonexistent/trace.csv").readAll() }
    }

    @Test("non-UTF-8 bytes are reported with their line")
    func notText() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("binary.csv").path
        var data = Data("t,x,y,z\n0,0,0,9.8\n".utf8)
        data.append(contentsOf: [0xFF, 0xFE, 0x0A])
        try data.write(to: URL(fileURLWithPath: path))
        do {
            _ = try TraceReader(path: path).readAll()
            Issue.record("expected an error")
        } catch { #expect(error.line == 3) }
    }

    @Test("CRLF line ends read the same as LF")
    func crlf() throws {
        let dir = try TestPaths.temporaryDirectory()
        let lf = "t,x,y,z\n0.000000,0.1,0.2,9.8\n0.020000,0.3,-0.4,9.7\n"
        try lf.write(toFile: dir.appendingPathComponent("lf.csv").path, atomically: true, encoding: .utf8)
        try lf.replacingOccurrences(of: "\n", with: "\r\n")
            .write(toFile: dir.appendingPathComponent("crlf.csv").path, atomically: true, encoding: .utf8)
        let a = try TraceReader(path: dir.appendingPathComponent("lf.csv").path).readAll()
        let b = try TraceReader(path: dir.appendingPathComponent("crlf.csv").path).readAll()
        #expect(a.count == 2)
        #expect(a == b)
    }

    @Test("a long trace streams in chunks and reads back exactly what was written")
    func writeAndStream() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("long.csv").path
        let writer = try TraceWriter(path: path)
        let samples = Motion.rest(seconds: 600, rate: 100, direction: (0, 1, 1), noise: 0.3)
        for s in samples { try writer.write(s) }
        try writer.close()
        var count = 0
        var maxError = 0.0
        for (read, original) in zip(TraceReader(path: path), samples) {
            count += 1
            maxError = max(maxError, abs(read.x - original.x), abs(read.y - original.y), abs(read.z - original.z))
            #expect(abs(read.timestamp - original.timestamp) <= 1000)
        }
        #expect(count == samples.count)
        #expect(maxError <= 0.5e-5, "written with five decimals")
        #expect(throws: TraceError.self) { try writer.write(samples[0]) }
    }

    @Test("every trace in the shared corpus parses")
    func corpusParses() throws {
        let files = TestPaths.allTraces()
        try #require(files.count >= 50, "the shared corpus must be beside the checkout (../shared/traces)")
        for file in files {
            #expect(throws: Never.self, "\(file)") { _ = try TraceRun.run(path: file, detectors: [.shaked]) }
        }
    }
}
