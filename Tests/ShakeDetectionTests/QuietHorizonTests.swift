import ShakeDetection
import TestSupport
import Testing
import Traces

/// ``ShakeDetecting/quietHorizon`` lets a buffered reader skip wake-ups at no cost in latency, so it
/// must never promise quiet that an event then breaks: checked at every sample of every set, real
/// shakes by many hands and daily life alike.
@Suite struct QuietHorizonTests {
    @Test("no event comes sooner than the detector's quiet horizon said, in any recording of any set")
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
                    if let event = detector.process(sample) {
                        events += 1
                        #expect(
                            event.recognized >= quietUntil,
                            "\(file): an event at \(event.recognized) ns, quiet promised until \(quietUntil)")
                    }
                    let horizon = detector.quietHorizon
                    #expect(horizon >= 0)
                    if horizon > 0 { promised += 1 }
                    quietUntil = max(quietUntil, sample.timestamp &+ horizon)
                    samples += 1
                }
            }
        }
        // Not vacuous: shakes were recognized, and most samples promised some quiet.
        #expect(events >= 100, "\(events) events")
        #expect(promised * 2 >= samples, "\(promised) of \(samples) samples promised quiet")
    }

    @Test("quiet while nothing moves, none while a stroke is under way, quiet again while holding off")
    func horizonFollowsTheStrokes() throws {
        var detector = ShakeDetector()
        let expected = Int64(Double(detector.configuration.reversals) * detector.configuration.halfPeriod.lowerBound * 1e9)
        var horizons: [Int64] = []
        var recognizedAt: Int64?
        for sample in Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.2, start: 2, total: 6) {
            if let event = detector.process(sample) { recognizedAt = event.recognized }
            horizons.append(detector.quietHorizon)
        }
        let recognized = try #require(recognizedAt)
        #expect(expected == 120_000_000)
        // Before the shake (from the second sample to 2 s), quiet; during it, none while its strokes
        // build a chain; right after the event, the hold-off's; and at the end.
        #expect(horizons[1..<200].allSatisfy { $0 == expected })
        let index = Int((recognized + 5_000_000) / 10_000_000)
        #expect(index > 200 && horizons[200..<index].contains(0))
        #expect(horizons[index] == expected, "holding off after the event")
        #expect(horizons.last == expected)
    }
}
