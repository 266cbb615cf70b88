import Foundation
import ShakeDetection
import SyntheticMotion
import Testing

/// The generator's own promises: reproducible, evenly stamped, and each activity physically what it claims.
struct MotionGeneratorTests {
    @Test func sameSeedSameSamplesOtherSeedOtherSamples() {
        var a = MotionGenerator(seed: 7)
        var b = MotionGenerator(seed: 7)
        var c = MotionGenerator(seed: 8)
        let (first, same, other) = (a.next(500), b.next(500), c.next(500))
        #expect(first == same)
        #expect(first != other)
    }

    @Test(arguments: [25.0, 50, 100, 200, 400])
    func timestampsFollowTheRate(rate: Double) {
        var generator = MotionGenerator(seed: 1, rate: rate, startTimestamp: 5_000_000_000)
        let samples = generator.next(Int(rate * 3))
        #expect(samples.first?.timestamp == 5_000_000_000)
        let period = 1e9 / rate
        for (earlier, later) in zip(samples, samples.dropFirst()) {
            #expect(abs(Double(later.timestamp - earlier.timestamp) - period) <= 1)
        }
        #expect(generator.nextTimestamp == 5_000_000_000 + Int64((3 * 1e9).rounded()))
    }

    @Test func skipLeavesAGapAndCarriesTheScriptOn() {
        var skipping = MotionGenerator(seed: 3)
        var straight = MotionGenerator(seed: 3)
        _ = skipping.next(10)
        skipping.skip(to: 20_005_000_000)  // between two samples: the next one is at 20.01 s
        #expect(skipping.nextTimestamp == 20_010_000_000)
        #expect(skipping.activity == .walking)
        _ = straight.next(2001)
        // The motion at a time does not depend on how the generator got there (noise aside).
        let skipped = skipping.next()
        let reference = straight.next()
        #expect(skipped.timestamp == reference.timestamp)
        #expect(abs(skipped.magnitude - reference.magnitude) < 0.5)
        skipping.skip(to: 0)
        #expect(skipping.nextTimestamp == 20_020_000_000)
    }

    @Test(arguments: [
        (seconds: 0.0, activity: Activity.resting), (4.9, .resting), (6.1, .holding), (15, .holding),
        (27.9, .walking), (28.1, .holding), (35.9, .holding), (36.1, .resting), (36.0 * 5 + 20, .walking),
    ])
    func theDemoScriptCyclesThroughItsPhases(seconds: Double, activity: Activity) {
        #expect(MotionScript.demo.activity(at: seconds) == activity)
        #expect(MotionScript.demo.cycleDuration == 36)
    }

    /// Picking the device up fades in over the transition: no step in the signal anywhere.
    @Test(arguments: 1...5)
    func phasesFadeWithoutJumps(seed: Int) {
        var generator = MotionGenerator(seed: UInt64(seed), noise: 0)
        let samples = generator.next(100 * 80)
        let largestStep =
            zip(samples, samples.dropFirst()).map { a, b in
                max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
            }.max() ?? 0
        // Walking's fastest change is about 2π·2 Hz·5 m/s² ≈ 60 m/s³, so 0.6 m/s² per 10 ms.
        #expect(largestStep < 1)
    }

    @Test(arguments: 1...8)
    func restingIsGravityAndNoise(seed: Int) {
        var generator = MotionGenerator(seed: UInt64(seed), script: .only(.resting))
        let samples = generator.next(100 * 20)
        let magnitude = SignalMeasures.meanAndDeviation(samples.map(\.magnitude))
        #expect(abs(magnitude.mean - standardGravity) < 0.02)
        #expect(magnitude.deviation < 0.1)
        // Lying on a table, face up: nearly all of gravity on z.
        #expect(samples.allSatisfy { $0.z > 9.5 })
    }

    @Test(arguments: 1...8)
    func holdingTremblesAt8To12HzAndStaysGentle(seed: Int) {
        var generator = MotionGenerator(seed: UInt64(seed), script: .only(.holding))
        let samples = generator.next(100 * 20)
        let tremor = SignalMeasures.dominantFrequency(SignalMeasures.axis(samples, 0), rate: 100, band: 5...20)
        #expect((8...12).contains(tremor))
        // Held facing the person: gravity mostly on y and z, tilted 25-70° from flat.
        let tilt = samples.map { atan2($0.y, $0.z) * 180 / .pi }
        #expect(tilt.allSatisfy { (25...70).contains($0) })
        #expect(SignalMeasures.peakDynamic(samples) < 2)
    }

    @Test(arguments: 1...8)
    func walkingBouncesAtTheStepRateBelowStrokeStrength(seed: Int) {
        var generator = MotionGenerator(seed: UInt64(seed), script: .only(.walking))
        let samples = generator.next(100 * 30)
        let cadence = SignalMeasures.dominantFrequency(samples.map(\.magnitude), rate: 100, band: 1...4)
        #expect((1.7...2.1).contains(cadence))
        let peak = SignalMeasures.peakDynamic(samples)
        // Clearly motion, yet below half the most sensitive stroke threshold (11 m/s²).
        #expect(peak > 1.5 && peak < 5.5)
    }

    /// A queued shake adds to the motion during the shake and changes nothing else.
    @Test(arguments: [Activity.resting, .holding, .walking])
    func aShakeAddsOnlyItself(activity: Activity) {
        let shake = SyntheticShake(frequency: 4, halfCycles: 6, amplitude: 25, direction: [1, 0.2, 0])
        var plain = MotionGenerator(seed: 11, script: .only(activity))
        var shaken = MotionGenerator(seed: 11, script: .only(activity))
        let (before, sameBefore) = (plain.next(150), shaken.next(150))
        #expect(sameBefore == before)
        let queued = shaken.queueShake(shake)
        let second = shaken.queueShake()
        #expect(queued)
        #expect(!second, "a second shake is refused while one is queued")
        let reference = plain.next(300)
        let withShake = shaken.next(300)
        #expect(shaken.shakeStart == 1_500_000_000)
        for (a, b) in zip(reference, withShake) {
            let seconds = Double(b.timestamp - 1_500_000_000) / 1e9
            let expected = shake.acceleration(at: seconds)
            #expect(abs(b.x - a.x - expected.x) < 1e-9 && abs(b.y - a.y - expected.y) < 1e-9)
            #expect(abs(b.z - a.z - expected.z) < 1e-9)
        }
        #expect(!shaken.isShaking)
        let again = shaken.queueShake()
        #expect(again, "after the shake has played, another may be queued")
    }

    /// The random shakes are what a person does: 3.5-5 Hz, 0.6-0.8 s, 2.4-3.5 g, with at least
    /// four strokes above even the least sensitive threshold (18 m/s²).
    @Test func randomShakesAreRealistic() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let shake = SyntheticShake.random(using: &random)
            #expect((3.5...5).contains(shake.frequency))
            #expect((0.6...0.8).contains(shake.duration))
            #expect((2.4 * standardGravity...3.5 * standardGravity).contains(shake.amplitude))
            #expect(abs(shake.direction.x) > cos(0.4))  // side to side along the screen's width
            var strongStrokes = 0
            for stroke in 0..<shake.halfCycles {
                let peak =
                    stride(from: 0.0, to: shake.halfPeriod, by: shake.halfPeriod / 50).map { dt in
                        let a = shake.acceleration(at: Double(stroke) * shake.halfPeriod + dt)
                        return (a * a).sum().squareRoot()
                    }.max() ?? 0
                if peak > 18 { strongStrokes += 1 }
            }
            #expect(strongStrokes >= 4)
        }
    }

    @Test(arguments: [
        (seconds: -0.1, envelope: 0.0), (0, 0), (0.0625, 0.5), (0.125, 1), (0.4, 1), (0.6875, 0.5), (0.75, 0), (1, 0),
    ])
    func theEnvelopeRisesAndFallsOverOneStroke(seconds: Double, envelope: Double) {
        let shake = SyntheticShake(frequency: 4, halfCycles: 6)
        #expect(abs(shake.envelope(at: seconds) - envelope) < 1e-9)
    }

    @Test func theSensorRangeClipsEachAxis() {
        var generator = MotionGenerator(seed: 2, script: .only(.resting), range: 20)
        generator.queueShake(SyntheticShake(amplitude: 60))
        let samples = generator.next(100)
        #expect(samples.map(\.x).max() == 20)
        #expect(samples.map(\.x).min() == -20)
    }

    @Test func theMixedMotionHasItsShakesWhereItSays() {
        let samples = MotionGenerator.mixedMotion(seconds: 100, rate: 50, seed: 4, shakeInterval: 20)
        #expect(samples.count == 5000)
        #expect(samples.first?.timestamp == 0)
        // Strong motion only around 10, 30, 50, 70 and 90 s.
        let strong = samples.filter { abs($0.magnitude - standardGravity) > 12 }.map(\.seconds)
        #expect(!strong.isEmpty)
        #expect(strong.allSatisfy { t in [10.0, 30, 50, 70, 90].contains { t >= $0 && t < $0 + 0.8 } })
        #expect(Set(strong.map { Int($0 / 20) }).count == 5)
    }
}
