import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// The sample streams `shakectl evaluate --stream-rate/--stream-gaps` emulates.
@Suite struct SampleStreamTests {
    /// Which of `count` samples at `hertz` a stream delivers (their indexes).
    static func delivered(_ stream: SampleStream, hertz: Double, count: Int) -> [Int] {
        var filter = stream.filter()
        return (0..<count).filter { filter.admits(Int64(Double($0) / hertz * 1e9)) }
    }

    @Test("a rate keeps the first sample at or after each due time: its average rate, not the trace's")
    func rate() {
        #expect(Self.delivered(SampleStream(rate: 25), hertz: 100, count: 9) == [0, 4, 8])
        // 33 Hz from 100 Hz: mostly every third sample, sometimes the fourth; 33 a second on average.
        #expect(Self.delivered(SampleStream(rate: 33), hertz: 100, count: 1000).count == 330)
        #expect(Self.delivered(SampleStream(rate: 10), hertz: 100, count: 1000).count == 100)
        #expect(Self.delivered(SampleStream(rate: 200), hertz: 100, count: 50).count == 50)
    }

    @Test("gaps lose the last LENGTH of every PERIOD")
    func gaps() throws {
        let gaps = try #require(SampleStream.gaps(parsing: "700:300"))
        #expect(gaps.period == 0.7 && gaps.length == 0.3)
        let kept = Self.delivered(SampleStream(gaps: gaps), hertz: 100, count: 140)
        #expect(kept == Array(0..<40) + Array(70..<110))
        // With a rate: after each gap the rate starts again from the first sample past it.
        let both = Self.delivered(SampleStream(rate: 25, gaps: gaps), hertz: 100, count: 140)
        #expect(both == [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 70, 74, 78, 82, 86, 90, 94, 98, 102, 106])
    }

    @Test("bad gaps are refused", arguments: ["700", "700:0", "300:700", "700:700", "a:b", "70000:10", ":300", "nan:1"])
    func badGaps(text: String) {
        #expect(SampleStream.gaps(parsing: text) == nil)
    }

    @Test("evaluation feeds every detector only what the stream delivers")
    func evaluation() throws {
        // Held still for 3.45 s, then a 4 Hz shake for 1.2 s, then still again.
        let csv = try restThenShakeTrace()
        let full = try TraceRun.run(path: csv, detectors: [.shaked])
        let fifty = try TraceRun.run(path: csv, detectors: [.shaked], stream: SampleStream(rate: 50))
        // Two samples a second cannot follow a 4 Hz shake.
        let two = try TraceRun.run(path: csv, detectors: [.shaked], stream: SampleStream(rate: 2))
        // Losing 900 ms of every second leaves too little of each stroke.
        let gappy = try TraceRun.run(path: csv, detectors: [.shaked], stream: SampleStream(gaps: (1, 0.9)))
        #expect(full.scores()[0].score.hits == 1)
        #expect(fifty.scores()[0].score.hits == 1)
        #expect(two.scores()[0].score.hits == 0, "\(two.events[0].events)")
        #expect(gappy.scores()[0].score.hits == 0, "\(gappy.events[0].events)")
        #expect(two.duration == full.duration)
    }
}
