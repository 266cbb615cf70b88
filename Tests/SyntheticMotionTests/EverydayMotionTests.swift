import Foundation
import ShakeDetection
import SyntheticMotion
import Testing

/// Whole-body motion and impacts: the generator is physically what it claims, and the
/// detector stays silent on it, in a pocket at 100 Hz clipped at ±2 g and at other rates.
struct EverydayMotionTests {
    static let seeds: [UInt64] = Array(1...6)

    /// Runs of |a| below `level` lasting at least `dwell` seconds, as (start, end) times.
    static func freeFalls(_ samples: [Sample], level: Double = 0.3 * standardGravity, dwell: Double = 0.08)
        -> [(Double, Double)]
    {
        var runs: [(Double, Double)] = []
        var start: Double?
        for sample in samples {
            if sample.magnitude < level {
                start = start ?? sample.seconds
            } else if let s = start {
                if sample.seconds - s >= dwell { runs.append((s, sample.seconds)) }
                start = nil
            }
        }
        return runs
    }

    @Test(arguments: [EverydayActivity.jumping, .skippingRope, .jumpingJacks])
    func jumpsRepeatAtTheirRateWithAFlightInFreeFallEachTime(activity: EverydayActivity) throws {
        for seed in Self.seeds.prefix(3) {
            let motion = EverydayMotion(activity, seed: seed)
            let frequency = try #require(motion.frequency)
            #expect((1.8...2.8).contains(frequency))
            let samples = motion.samples(seconds: 20)
            let magnitude = samples.map(\.magnitude)
            let measured = SignalMeasures.dominantFrequency(magnitude, rate: 100, band: 1...4)
            #expect(abs(measured - frequency) < 0.15, "seed \(seed): \(measured) Hz, made at \(frequency) Hz")
            // Every jump has a flight: about one free fall per cycle.
            let flights = Self.freeFalls(samples).count
            #expect(Double(flights) >= 0.8 * 20 * frequency, "seed \(seed): \(flights) flights in 20 s")
            // The body's weight is carried: over whole seconds the mean |a| is near 1 g (clipping lowers it).
            let mean = magnitude.reduce(0, +) / Double(magnitude.count)
            #expect(mean > 0.6 * standardGravity && mean < 1.4 * standardGravity, "seed \(seed): mean \(mean)")
            #expect(samples.allSatisfy { max(abs($0.x), abs($0.y), abs($0.z)) <= EverydayMotion.pocketRange })
        }
    }

    @Test func aFallEndsWithTheDeviceTurnedOnItsSideAndStill() throws {
        for seed in Self.seeds {
            let motion = EverydayMotion(.fallOntoSide, seed: seed)
            let impact = try #require(motion.impactTime)
            let samples = motion.samples(seconds: impact + 4)
            let before = samples.filter { $0.seconds > impact - 2.5 && $0.seconds < impact - 1.2 }
            let after = samples.filter { $0.seconds > impact + 2.5 }
            func mean(_ s: [Sample]) -> SIMD3<Double> {
                s.reduce(SIMD3<Double>.zero) { $0 + SIMD3($1.x, $1.y, $1.z) } / Double(s.count)
            }
            let (up, down) = (mean(before), mean(after))
            let length = { (v: SIMD3<Double>) in (v * v).sum().squareRoot() }
            #expect(abs(length(up) - standardGravity) < 1 && abs(length(down) - standardGravity) < 1)
            let turn = acos(min(1, (up * down).sum() / (length(up) * length(down)))) * 180 / .pi
            #expect(turn > 50 && turn < 110, "seed \(seed): turned \(turn)°")
            // The impact saturates a ±2 g sensor.
            let hit = samples.filter { abs($0.seconds - impact) < 0.15 }
            #expect(hit.contains { max(abs($0.x), abs($0.y), abs($0.z)) >= EverydayMotion.pocketRange - 0.01 })
        }
    }

    @Test func aDroppedPhoneFallsFreelyThenLiesStill() throws {
        for seed in Self.seeds {
            let motion = EverydayMotion(.droppedOnTable, seed: seed)
            let impact = try #require(motion.impactTime)
            let samples = motion.samples(seconds: impact + 3)
            let falls = Self.freeFalls(samples)
            #expect(falls.contains { $0.1 >= impact - 0.02 && $0.1 <= impact + 0.02 }, "seed \(seed): \(falls)")
            let resting = samples.filter { $0.seconds > impact + 1.5 }
            #expect(resting.allSatisfy { abs($0.magnitude - standardGravity) < 0.5 && abs($0.z) > 9.5 })
        }
    }

    /// Bouts of a rhythmic `activity` that stop: 3, 5 and 8 s of it (each a person of its own, drawn from
    /// `seed`), each followed by 2.5 s of the body standing still, gravity where the bout's last half second
    /// had it, recorded at `rate` Hz and clipped at ±`range`. A body that stops is where a detector that
    /// answers when the motion ends looks hardest at it.
    static func bouts(
        _ activity: EverydayActivity, seed: UInt64, rate: Double = EverydayMotion.pocketRate,
        range: Double = EverydayMotion.pocketRange
    ) -> [Sample] {
        var all: [Sample] = []
        var offset: Int64 = 0
        let step = Int64(1e9 / rate)
        for (index, seconds) in [3.0, 5, 8].enumerated() {
            let bout = EverydayMotion(activity, seed: seed &* 31 &+ UInt64(index)).samples(
                seconds: seconds, rate: rate, range: range)
            let tail = bout.suffix(Int(rate / 2))
            var g = tail.reduce(SIMD3<Double>.zero) { $0 + SIMD3($1.x, $1.y, $1.z) }
            g *= standardGravity / (g * g).sum().squareRoot()
            all += bout.map { Sample(timestamp: $0.timestamp + offset, x: $0.x, y: $0.y, z: $0.z) }
            offset = (all.last?.timestamp ?? 0) + step
            for i in 0..<Int(2.5 * rate) {
                all.append(Sample(timestamp: offset + Int64(i) * step, x: g.x, y: g.y, z: g.z))
            }
            offset = (all.last?.timestamp ?? 0) + step
        }
        return all
    }

    /// In a pocket at 100 Hz, clipped at ±2 g: no event at any sensitivity, in 30 s of the activity
    /// and in bouts of it that stop.
    @Test(arguments: EverydayActivity.allCases)
    func noEventInAPocket(activity: EverydayActivity) {
        for seed in Self.seeds {
            let motion = EverydayMotion(activity, seed: seed)
            var recordings = [motion.samples(seconds: motion.impactTime.map { $0 + 4 } ?? 30)]
            if activity.isRhythmic { recordings.append(Self.bouts(activity, seed: seed)) }
            for (index, samples) in recordings.enumerated() {
                for sensitivity in Sensitivity.allCases {
                    let found = events(samples, sensitivity: sensitivity)
                    #expect(
                        found.isEmpty,
                        "\(activity) seed \(seed)\(index == 1 ? " in bouts" : ""), \(sensitivity): \(found.count) events")
                }
            }
        }
    }

    /// Other sensors: 25, 50 and 200 Hz; ±2 g and ±4 g.
    @Test(arguments: EverydayActivity.allCases, [25.0, 50, 200])
    func noEventAtOtherRatesAndRanges(activity: EverydayActivity, rate: Double) {
        for seed in Self.seeds.prefix(3) {
            for range in [2 * standardGravity, 4 * standardGravity] {
                let motion = EverydayMotion(activity, seed: seed)
                var samples = motion.samples(seconds: motion.impactTime.map { $0 + 4 } ?? 20, rate: rate, range: range)
                if activity.isRhythmic {
                    let bouts = Self.bouts(activity, seed: seed, rate: rate, range: range)
                    let after = (samples.last?.timestamp ?? 0) + 1_000_000_000
                    samples += bouts.map { Sample(timestamp: $0.timestamp + after, x: $0.x, y: $0.y, z: $0.z) }
                }
                let found = events(samples)
                #expect(found.isEmpty, "\(activity) seed \(seed) at \(rate) Hz, ±\(range): \(found.count) events")
            }
        }
    }

    /// The material is hard: without the free-fall gate, bouts of jumping that stop fire the detector
    /// (a flight in free fall is what tells them from a hand), so the silence above is the gates' doing.
    /// A bout's chains begin fresh from the standing still before it; past the fresh window the gates on
    /// motion going on (impacts, strides, the body's rhythm) judge them too, and take some of what the
    /// free-fall gate alone would have to.
    @Test func withoutTheFreeFallGateJumpingFires() {
        func events(without rules: [ShakeRule]) -> Int {
            let configuration = ShakeDetectorConfiguration().without(rules)
            var total = 0
            for seed in Self.seeds {
                var detector = ShakeDetector(configuration: configuration)
                total += Self.bouts(.jumping, seed: seed).compactMap { detector.process($0) }.count
            }
            return total
        }
        let motionGates: [ShakeRule] = [.impacts, .strides, .bodyRhythm]
        let none = events(without: [.freeFall] + motionGates)
        let onlyMotionGates = events(without: [.freeFall])
        print("EVENTS jumping bouts: no gate \(none), the motion gates alone \(onlyMotionGates)")
        #expect(none >= 3, "\(none) events in 18 bouts of jumping without the gates")
        #expect(onlyMotionGates < none, "the gates on motion going on take none of them: \(onlyMotionGates) of \(none)")
        #expect(onlyMotionGates >= 1, "the free-fall gate is still needed: \(onlyMotionGates)")
        #expect(events(without: motionGates) == 0, "the free-fall gate alone")
    }

    /// The falls are hard material too: half land soft and ring at 2.5-4.5 Hz, which without the
    /// turn gate the detector takes for a shake now and then.
    @Test func withoutTheTurnGateSoftFallsFire() {
        // Both parts of the rule off: the turn gate (a chain dying away after a turn) and the posture a shake
        // ends in (the device left lying turned), either of which stops these falls.
        let configuration = ShakeDetectorConfiguration(sensitivity: .high).without([.turnedOver])
        var total = 0
        for seed in UInt64(1)...30 {
            let motion = EverydayMotion(.fallOntoSide, seed: seed)
            var detector = ShakeDetector(configuration: configuration)
            total += motion.samples(seconds: (motion.impactTime ?? 4) + 4).compactMap { detector.process($0) }.count
        }
        #expect(total >= 3, "\(total) events in 30 falls without the turn gate")
    }

    /// A shake right after a jumping session ends is still recognized once the body is still.
    @Test func aShakeAfterJumpingIsRecognized() {
        for seed in Self.seeds.prefix(3) {
            var samples = EverydayMotion(.jumping, seed: seed).samples(seconds: 10)
            let end = samples.last?.timestamp ?? 0
            var shakeGenerator = MotionGenerator(
                seed: seed, rate: 100, script: .only(.holding), startTimestamp: end + 10_000_000)
            var after = shakeGenerator.next(200)
            shakeGenerator.queueShake()
            after += shakeGenerator.next(300)
            let start = shakeGenerator.shakeStart ?? 0
            samples += after
            let found = events(samples).filter { $0.endedAt >= start }
            #expect(found.count == 1, "seed \(seed): \(found.count) events for the shake")
        }
    }
}
