import ShakeDetection
import TestSupport
import Testing
import Traces

/// ``ShakeDetecting/quietHorizon`` lets a buffered reader skip wake-ups at no cost in latency, so it
/// must never promise quiet that a shake's phase then breaks (a shake beginning, ending or being
/// dropped): checked at every sample of every set, real shakes by many hands and daily life alike.
@Suite struct QuietHorizonTests {
    @Test("no phase of a shake comes sooner than the detector's quiet horizon said, in any recording of any set")
    func theHorizonHoldsOnEverySet() throws {
        var events = 0
        var samples = 0
        var promised = 0
        let sets = try Corpus.traceSets([TestPaths.traces.path])
        try #require(sets.count >= 4, "the shared corpus must be beside the checkout (../shared/traces): \(sets.map(\.name))")
        for set in sets {
            let files = set.files
            for file in files {
                guard let trace = try? TraceReader(path: file).readAll() else { continue }
                var detector = ShakeDetector()
                // The latest time before which the samples so far have promised no event.
                var quietUntil = Int64.min
                for sample in trace {
                    if let phase = detector.advance(sample) {
                        events += 1
                        let time = phase.time
                        #expect(time >= quietUntil, "\(file): \(phase) at \(time) ns, quiet promised until \(quietUntil)")
                    }
                    let horizon = detector.quietHorizon
                    #expect(horizon >= 0)
                    if horizon > 0 { promised += 1 }
                    quietUntil = max(quietUntil, sample.timestamp &+ horizon)
                    samples += 1
                }
            }
        }
        // Not vacuous: shakes began and ended, and most samples promised some quiet.
        #expect(events >= 200, "\(events) phases")
        #expect(promised * 2 >= samples, "\(promised) of \(samples) samples promised quiet")
    }

    @Test("quiet while nothing moves, none while a shake is under way, quiet again once it has ended")
    func horizonFollowsTheStrokes() throws {
        var detector = ShakeDetector()
        let expected = Int64(Double(detector.configuration.reversals) * detector.configuration.halfPeriod.lowerBound * 1e9)
        var horizons: [Int64] = []
        var recognizedAt: Int64?
        for sample in Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.2, start: 2, total: 6) {
            if let event = detector.process(sample) { recognizedAt = event.endedAt }
            horizons.append(detector.quietHorizon)
        }
        let recognized = try #require(recognizedAt)
        #expect(expected == 120_000_000)
        // Before the shake (from the second sample to 2 s), quiet; from its first stroke until it ends,
        // none (it may end at any sample); once it has ended its strokes are forgotten: quiet again.
        #expect(horizons[1..<200].allSatisfy { $0 == expected })
        let index = Int((recognized + 5_000_000) / 10_000_000)
        #expect(index > 320, "ended after the last stroke (3.2 s): \(recognized) ns")
        #expect(horizons[202..<index].allSatisfy { $0 == 0 }, "none while the shake is under way")
        #expect(horizons[index] == expected, "quiet once it has ended")
        #expect(horizons.last == expected)
    }
}
