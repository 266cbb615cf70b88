import Foundation
import TestSupport
import Testing
import Traces

/// `shakectl evaluate` on a trace with an events file, run as the built binary.
@Suite struct EvaluateEventsTests {
    let shakectl = TestPaths.binary("shakectl")

    /// A trace of three copies of a real shake, 4 s apart, with the time each copy was recognized.
    func threeShakes() throws -> (csv: String, recognized: [Double]) {
        let source = try String(contentsOfFile: TestPaths.trace("qt_shake_left"), encoding: .utf8)
        let rows = source.split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 1) }
        var text = "t,x,y,z\n"
        for copy in 0..<3 {
            for row in rows { text += "\(String(format: "%.6f", Double(row[0])! + 4 * Double(copy))),\(row[1])\n" }
        }
        let csv = try TestPaths.temporaryDirectory().appendingPathComponent("three.csv").path
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        let detect = try runProcess(shakectl, ["detect", csv, "--format", "json"])
        #expect(detect.status == 0, "\(detect.stderr)")
        let recognized = try detect.stdout.split(separator: "\n").map { line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["ended"] as? Double)
        }
        try #require(recognized.count == 3, "shaked should recognize each copy of qt_shake_left once: \(recognized)")
        return (csv, recognized)
    }

    @Test("with events: a hit 0.8 s early, a false alarm in a Tennis clip, one between clips apart")
    func events() throws {
        let (csv, r) = try threeShakes()
        let f = { (v: Double) in String(format: "%.3f", v) }
        // The first is recognized 0.8 s before its labelled start, the second inside a Tennis clip,
        // the third in no clip.
        try "\(f(r[0] + 0.8)) \(f(r[0] + 1))\n".write(
            toFile: Labels.path(forTrace: csv), atomically: true, encoding: .utf8)
        let before = try runProcess(shakectl, ["evaluate", csv, "--format", "json"])
        let first = try #require(before.stdout.split(separator: "\n").first, "\(before.stderr)")
        let plain = try #require(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(plain["hits"] as? Int == 0 && plain["falsePositives"] as? Int == 3, "no events: as before")
        #expect(plain["betweenClips"] == nil, "no events: no new keys")

        try "\(f(r[0] + 0.8)) \(f(r[0] + 1)) Shake\n\(f(r[1] - 0.3)) \(f(r[1] + 0.2)) Backhand Tennis\n"
            .write(toFile: Events.path(forTrace: csv), atomically: true, encoding: .utf8)
        let json = try runProcess(shakectl, ["evaluate", csv, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try json.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let total = try #require(rows.last)
        #expect(total["total"] as? Bool == true)
        #expect(total["hits"] as? Int == 1 && total["labelled"] as? Int == 1)
        #expect(total["falsePositives"] as? Int == 1)
        #expect(total["betweenClips"] as? Int == 1)
        #expect(total["tracesWithEvents"] as? Int == 1)
        #expect((total["latencyMedian"] as? Double).map { abs($0 + 0.8) < 0.002 } == true, "\(total)")
        #expect(total["falseAlarmsByClass"] as? [String: Int] == ["Backhand Tennis": 1])
        let groups = try #require(total["falseAlarmsByGroup"] as? [String: Int])
        #expect(groups["swingsAndThrows"] == 1 && groups["rest"] == 0 && groups["shakeRepeat"] == 0)
        #expect(total["clipsByClass"] as? [String: Int] == ["Shake": 1, "Backhand Tennis": 1])

        let text = try runProcess(shakectl, ["evaluate", csv, "--summary"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.contains("between") == true, "\(text.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("TOTAL (1 traces)") && $0.contains("1/1    1       1") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("swings and throws") && $0.hasSuffix("1         1") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("between clips (not FP)") && $0.hasSuffix("1") }, "\(text.stdout)")
    }

    @Test("a bad events file stops the run with file:line:")
    func badEvents() throws {
        let (csv, _) = try threeShakes()
        try "1 2\n".write(toFile: Labels.path(forTrace: csv), atomically: true, encoding: .utf8)
        try "1 2 Shake\n3 4 Backhand\tTennis\n".write(
            toFile: Events.path(forTrace: csv), atomically: true, encoding: .utf8)
        let result = try runProcess(shakectl, ["evaluate", csv])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(Events.path(forTrace: csv)):2: the class"), "\(result.stderr)")
        #expect(result.stdout.isEmpty || !result.stdout.contains("TOTAL"))
    }

    @Test("--help explains the events file and the report by gesture")
    func help() throws {
        let result = try runProcess(shakectl, ["evaluate", "--help"])
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for mention in ["NAME.events", "\"start end CLASS\"", "between clips", "swings and throws", "1 s before"] {
            #expect(words.contains(mention), "\(mention)")
        }
    }
}
