import ShakeDetection
import SyntheticMotion
import Testing

/// The real detector on synthetic motion: everyday motion never fires it, and every synthetic
/// shake does, soon after it ends, whatever the device was doing.
struct DetectionOnSyntheticMotionTests {
    static let seeds: [UInt64] = Array(1...16)

    /// Four minutes per seed of the demo script (table, hand, walking, hand) give no event.
    @Test(arguments: Sensitivity.allCases)
    func everydayMotionNeverFires(sensitivity: Sensitivity) {
        for seed in Self.seeds {
            var generator = MotionGenerator(seed: seed)
            let found = events(generator.next(100 * 240), sensitivity: sensitivity)
            #expect(found.isEmpty, "seed \(seed): \(found.count) events in everyday motion")
        }
    }

    /// Other sample rates, at the most sensitive setting: still no event.
    @Test(arguments: [25.0, 50, 200])
    func everydayMotionNeverFiresAtOtherRates(rate: Double) {
        for seed in Self.seeds.prefix(6) {
            var generator = MotionGenerator(seed: seed, rate: rate)
            let found = events(generator.next(Int(rate * 180)), sensitivity: .high)
            #expect(found.isEmpty, "seed \(seed) at \(rate) Hz: \(found.count) events")
        }
    }

    /// Shakes at random moments (on the table, in the hand, walking, mid-fade) are each
    /// recognized once, when the hand stops: within 1.2 s of the shake's first sample (a shake lasts
    /// at most 0.79 s: six strokes at 3.8 Hz or faster), and nothing else fires.
    @Test(arguments: Sensitivity.allCases, [50.0, 100, 200])
    func everyShakeIsRecognizedOnceAndSoon(sensitivity: Sensitivity, rate: Double) {
        var latencies: [Double] = []
        for seed in Self.seeds.prefix(12) {
            var random = SeededRandom(seed: seed &* 7919)
            var times: [Double] = []
            var t = random.uniform(1...4)
            while t < 110 {
                times.append(t)
                t += random.uniform(3...9)
            }
            let (samples, starts) = motion(seed: seed, rate: rate, seconds: 115, shakesAt: times)
            #expect(starts.count == times.count)
            let found = events(samples, sensitivity: sensitivity)
            #expect(found.count == starts.count, "seed \(seed): \(found.count) events for \(starts.count) shakes")
            for start in starts {
                let matching = found.filter { $0.endedAt >= start && $0.endedAt - start <= 1_200_000_000 }
                #expect(matching.count == 1, "seed \(seed): shake at \(Double(start) / 1e9) s")
                if let event = matching.first {
                    #expect(event.onset >= start, "the detector saw no stroke before the shake began")
                    latencies.append(Double(event.endedAt - start) / 1e9)
                }
            }
        }
        latencies.sort()
        // The shake lasts 0.63-0.79 s, and is answered a whole cycle (about 0.24 s) after its last stroke.
        #expect(latencies.count > 100)
        if !latencies.isEmpty {
            #expect(latencies[latencies.count / 2] < 1.0, "median \(latencies[latencies.count / 2]) s from the start")
        }
    }

    /// The benchmark's stand-in motion has exactly the shakes it promises.
    @Test(arguments: Sensitivity.allCases)
    func theMixedMotionGivesOneEventPerShake(sensitivity: Sensitivity) {
        let samples = MotionGenerator.mixedMotion(seconds: 600, rate: 50, seed: 1, shakeInterval: 20)
        let found = events(samples, sensitivity: sensitivity)
        #expect(found.count == 30)
        for (index, event) in found.enumerated() {
            let start = Int64((Double(index) + 0.5) * 20 * 1e9)
            #expect(event.endedAt >= start && event.endedAt - start <= 1_200_000_000)
        }
    }
}
