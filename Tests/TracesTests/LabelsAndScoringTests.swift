import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// Labels files, and the rules that turn detections into hits and false positives.
@Suite struct LabelsAndScoringTests {
    @Test(
        "bad labels name the line and the problem",
        arguments: [
            ("1.0,2.0\n", 1, "expected"), ("1.0 2.0\n3.0\n", 2, "expected"), ("2.0 1.0\n", 1, "not before"),
            ("1.0 2.0\n1.5 3.0\n", 2, "overlaps"), ("-1 2\n", 1, "start ≥ 0"), ("1 nan\n", 1, "finite"),
        ])
    func badLabels(text: String, line: Int, mentions: String) {
        do {
            _ = try Labels.parse(text, path: "x.labels")
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(mentions), "\(error.message)")
        }
    }

    @Test("labels parse, with CRLF too, and an empty file means no shake")
    func goodLabels() throws {
        #expect(try Labels.parse("", path: "x").isEmpty)
        let parsed = try Labels.parse("1.080 2.280\r\n3.5 4.0\r\n", path: "x")
        #expect(parsed == [LabelledInterval(start: 1.08, end: 2.28), LabelledInterval(start: 3.5, end: 4.0)])
        #expect(try Labels.parse(Labels.format(parsed), path: "x") == parsed)
    }

    @Test("labels outside the trace are refused by evaluation")
    func labelsOutsideTrace() throws {
        let dir = try TestPaths.temporaryDirectory()
        let csv = dir.appendingPathComponent("short.csv").path
        try "t,x,y,z\n0,0,0,9.8\n1,0,0,9.8\n".write(toFile: csv, atomically: true, encoding: .utf8)
        try "0.5 3.0\n".write(toFile: Labels.path(forTrace: csv), atomically: true, encoding: .utf8)
        do {
            _ = try TraceRun.run(path: csv, detectors: [.shaked])
            Issue.record("expected labelOutsideTrace")
        } catch {
            #expect(error.code == .labelOutsideTrace)
            #expect(error.path.hasSuffix("short.labels"))
        }
    }

    @Test("a resting rate feeds a detector at rest that often, and leaves the baselines alone")
    func restingRate() throws {
        // Held still for 3.45 s, then a 4 Hz shake for 1.2 s, then still again.
        let csv = try restThenShakeTrace()
        let full = try TraceRun.run(path: csv, detectors: [.shaked, .seismic])
        let tenHertz = try TraceRun.run(path: csv, detectors: [.shaked, .seismic], restingRate: 10)
        // Polled once a second at rest, the shake is seen from about 4 s only: too little of it.
        let oneHertz = try TraceRun.run(path: csv, detectors: [.shaked, .seismic], restingRate: 1)
        #expect(full.scores()[0].score.hits == 1)
        #expect(tenHertz.scores()[0].score.hits == 1)
        #expect(oneHertz.scores()[0].score.hits == 0, "\(oneHertz.events[0].events)")
        #expect(oneHertz.events[1].events == full.events[1].events)
    }

    static let intervals = [LabelledInterval(start: 10, end: 11), LabelledInterval(start: 20, end: 21.5)]

    @Test(
        "hits fall in [start, end + 1 s]; one hit per interval; the rest are false positives",
        arguments: [
            ([10.4, 20.2], 2, 0),  // one each
            ([9.99, 12.0, 22.6], 1, 2),  // just before (FP), at the grace edge (hit), past the grace (FP)
            ([10.2, 10.6], 1, 1),  // a second detection for the same interval is a false positive
            ([], 0, 0),
            ([5, 15, 30], 0, 3),
        ])
    func matching(detections: [Double], hits: Int, falsePositives: Int) {
        let score = Score.match(detections: detections, labels: Self.intervals, duration: 100)
        #expect(score.hits == hits)
        #expect(score.falsePositives == falsePositives)
        #expect(score.labelled == 2)
        #expect(score.latencies.count == hits)
        #expect(score.latenciesFromEnd.count == hits)
        #expect(abs(score.unlabelledSeconds - 97.5) < 1e-9)
    }

    @Test("scores combine into recall, precision, F1, false positives per hour and latency")
    func derivedFigures() {
        var total = Score.match(detections: [10.4, 20.2, 50], labels: Self.intervals, duration: 100)
        total += Score.match(detections: [], labels: [LabelledInterval(start: 1, end: 2)], duration: 3502)
        #expect(total.hits == 2 && total.labelled == 3 && total.falsePositives == 1)
        #expect(abs(total.recall - 2.0 / 3) < 1e-9)
        #expect(abs(total.precision - 2.0 / 3) < 1e-9)
        #expect(abs(total.f1 - 2.0 / 3) < 1e-9)
        #expect(abs(total.falsePositivesPerHour - 1.0 / ((97.5 + 3501) / 3600)) < 1e-9)
        #expect(abs(total.medianLatency! - 0.3) < 1e-9)
        // From the labelled ends (11 and 21.5): -0.6 and -1.3.
        #expect(abs(total.medianLatencyFromEnd! + 0.95) < 1e-9)
        #expect(abs(total.p95LatencyFromEnd! + 0.635) < 1e-9)
        #expect(percentile([1, 2, 3, 4, 5], 50) == 3)
        #expect(percentile([1, 2], 95)! > 1.9)
        #expect(percentile([], 50) == nil)
    }

    @Test("replay delivers every sample, in order, in real time or as fast as possible")
    func replay() async throws {
        let path = TestPaths.trace("qt_shake_right")
        let original = try TraceReader(path: path).readAll()
        for realTime in [false, true] {
            var replayed: [Sample] = []
            let clock = ContinuousClock()
            let start = clock.now
            for try await event in TraceReplaySource(path: path, realTime: realTime).events() {
                if case .samples(let batch) = event { replayed += batch }
            }
            let elapsed = start.duration(to: clock.now)
            #expect(replayed.count == original.count)
            let offsets = replayed.map { $0.timestamp - replayed[0].timestamp }
            #expect(offsets == original.map { $0.timestamp - original[0].timestamp })
            #expect(replayed.map(\.x) == original.map(\.x))
            if realTime {
                // Paced by the trace (2.8 s); the bound only checks pacing happened at all.
                #expect(elapsed > .seconds(2))
            }
        }
    }
}
