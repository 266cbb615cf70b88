import Foundation
import ShakeDetection
import SyntheticMotion
import Testing

/// The shakes people make, from the whole range (``HumanShake``): the generator stays inside
/// what a hand does, and the detector recognizes each shake that starts from stillness once,
/// at every sample rate and sensor range a phone uses.
struct HumanShakeTests {
    /// The people every rate and range is tried on (the same ones each time).
    static let people: [HumanShake] = (1...UInt64(200)).map(person)

    /// Person number `seed`, drawn from the whole range.
    static func person(_ seed: UInt64) -> HumanShake {
        var random = SeededRandom(seed: seed &* 0x2545_F491_4F6C_DD1D)
        return .person(using: &random)
    }

    /// The named kinds of shake that are hardest to tell from everyday motion, each of which
    /// the property must cover.
    static let subsets: [(name: String, contains: @Sendable (HumanShake) -> Bool)] = [
        ("along gravity", { $0.isAlongGravity }),
        ("slow", { $0.shake.frequency <= 2.6 }),
        ("slow and wide", { $0.shake.frequency <= 2.2 && $0.shake.displacement >= 0.08 }),
        ("gentle", { $0.shake.amplitude <= 0.8 * standardGravity }),
        ("clipped at ±4 g", { $0.shake.amplitude + standardGravity > 4 * standardGravity }),
        ("elliptical", { $0.shake.ellipse > 0 }),
        ("arced", { $0.shake.curvature > 0.3 }),
    ]

    /// Frequency, reach, peak, length, swing and line all stay where a hand puts them, on
    /// 2,000 people, and every named kind of shake turns up.
    @Test func peopleStayInTheRangeAHandMoves() {
        let g = standardGravity
        var counts = [Int](repeating: 0, count: Self.subsets.count)
        for seed in 1...UInt64(2000) {
            let person = Self.person(seed)
            let shake = person.shake
            let context = Comment(rawValue: Self.describe(person, seed: seed))
            #expect((1.7...7).contains(shake.frequency), context)
            #expect((0.02 - 1e-12...0.12 + 1e-12).contains(shake.displacement), context)
            #expect((0.5 * g - 1e-9...6 * g + 1e-9).contains(shake.amplitude), context)
            #expect((0.8...6).contains(shake.duration), context)
            #expect(shake.halfCycles % 2 == 0, "whole cycles, so the hand ends at rest: \(context)")
            #expect(shake.ellipse == 0 || (0.1...0.5).contains(shake.ellipse), context)
            #expect(shake.ellipse == 0 || (60...120).contains(shake.ellipsePhase * 180 / .pi), context)
            // An arc about the wrist or elbow: 10-45 cm from the phone, turning at most 0.8 rad.
            if shake.curvature > 0 {
                #expect(shake.curvature <= 0.8 + 1e-12, context)
                let radius = shake.displacement / shake.curvature
                #expect((0.10 - 1e-9...0.45 + 1e-9).contains(radius), context)
            }
            #expect(abs((shake.direction * shake.across).sum()) < 1e-9)
            #expect(abs((person.up * person.up).sum() - 1) < 1e-9)
            #expect(person.stillBefore >= 2 && person.stillAfter >= 2)
            if person.isAlongGravity { #expect(person.degreesFromGravity <= 30) }
            for (index, subset) in Self.subsets.enumerated() where subset.contains(person) { counts[index] += 1 }
        }
        // Every kind turns up often enough to test: the rarest, gentle shakes, are slow ones
        // with a short reach, a few in a hundred.
        // By name: Swift 6.2.3's IRGen crashes on a #expect whose comment captures the tuple with the closure.
        for (index, name) in Self.subsets.map(\.name).enumerated() {
            #expect(counts[index] >= 50, "\(name): \(counts[index]) of 2000")
        }
    }

    /// A gentle shake is slow and a vigorous one fast: the peak follows the frequency.
    @Test func gentleShakesAreSlowAndFastOnesStrong() {
        for seed in 1...UInt64(2000) {
            let shake = Self.person(seed).shake
            if shake.amplitude <= 0.8 * standardGravity { #expect(shake.frequency < 3.2) }
            if shake.frequency >= 6 { #expect(shake.amplitude >= 2.8 * standardGravity) }
        }
    }

    /// The hand starts and ends the shake at rest, ellipse or not: the acceleration integrates
    /// to no velocity. (A curved shake's centripetal push, in the turning device's axes, does
    /// not integrate to a velocity, so it is left out here.) And that push only ever points
    /// towards the arc's centre.
    @Test func theHandEndsAtRestAndAnArcPullsOneWay() {
        for seed in 1...UInt64(300) {
            let shake = Self.person(seed).shake
            var straight = shake
            straight.curvature = 0
            let steps = Int(shake.duration * 4000)
            let dt = shake.duration / Double(steps)
            var velocity = SIMD3<Double>.zero
            var leastPull = Double.infinity
            for step in 0..<steps {
                let t = (Double(step) + 0.5) * dt
                velocity += straight.acceleration(at: t) * dt
                let pull = ((shake.acceleration(at: t) - straight.acceleration(at: t)) * shake.across).sum()
                leastPull = min(leastPull, pull)
            }
            let peakSpeed = shake.amplitude / (2 * Double.pi * shake.frequency)
            let left = (velocity * velocity).sum().squareRoot()
            #expect(left < 1e-3 * peakSpeed, "seed \(seed): the hand ends moving at \(left) m/s")
            #expect(leastPull >= -1e-9, "seed \(seed): the arc pushes outwards")
        }
    }

    /// A curved shake turns the device with its arc: gravity swings through the device's axes by the
    /// arc's angle either way, and comes back; a straight one leaves gravity where it was.
    @Test func anArcTurnsGravityThroughTheDevice() {
        var arcs = 0
        for seed in 1...UInt64(300) {
            let person = Self.person(seed)
            // The turn about the arc's axis: the angle between gravity and "up" across that axis.
            let axis = SIMD3(
                person.shake.direction.y * person.shake.across.z - person.shake.direction.z * person.shake.across.y,
                person.shake.direction.z * person.shake.across.x - person.shake.direction.x * person.shake.across.z,
                person.shake.direction.x * person.shake.across.y - person.shake.direction.y * person.shake.across.x)
            let flat = { (v: SIMD3<Double>) in v - (v * axis).sum() * axis }
            let upAcross = flat(person.up)
            let across = (upAcross * upAcross).sum().squareRoot()
            guard across > 0.2 else { continue }
            var widest = 0.0
            for step in 0...2000 {
                let t = person.shakeStart + person.shake.duration * Double(step) / 2000
                let g = flat(person.gravityDirection(at: t))
                let cosine = (g * upAcross).sum() / ((g * g).sum().squareRoot() * across)
                widest = max(widest, acos(min(1, cosine)))
            }
            #expect(abs((person.gravityDirection(at: person.shakeEnd + 0.01) * person.up).sum() - 1) < 1e-9)
            if person.shake.curvature > 0 {
                arcs += 1
                #expect(abs(widest - person.shake.curvature) < 0.02 * person.shake.curvature + 1e-3, "seed \(seed)")
            } else {
                #expect(widest < 1e-6, "seed \(seed)")
            }
        }
        #expect(arcs > 80)
    }

    /// The recording is the device held still, the shake at its frequency and strength, and
    /// still again, within the sensor's range.
    @Test(arguments: 1...UInt64(12))
    func theRecordingIsStillThenTheShakeThenStill(seed: UInt64) {
        let person = Self.person(seed)
        let range = 4 * standardGravity
        let samples = person.samples(rate: 100, range: range)
        #expect(samples.count == Int(person.seconds * 100))
        #expect(samples.allSatisfy { max(abs($0.x), abs($0.y), abs($0.z)) <= range })
        let before = samples.filter { $0.seconds < person.shakeStart }
        let after = samples.filter { $0.seconds > person.shakeEnd + 0.05 }
        for still in [before, after] {
            // Near 1 g and barely moving: what the detector calls held still (below 1.5 m/s²).
            #expect(still.allSatisfy { abs($0.magnitude - standardGravity) < 0.6 })
            let mean = still.reduce(SIMD3<Double>.zero) { $0 + SIMD3($1.x, $1.y, $1.z) } / Double(still.count)
            let wobble =
                still.map { s in
                    let d = SIMD3(s.x, s.y, s.z) - mean
                    return (d * d).sum().squareRoot()
                }.max() ?? 0
            #expect(wobble < 1.0, "seed \(seed): the still hand moves by \(wobble) m/s²")
            let tilt = mean / standardGravity - person.up
            #expect((tilt * tilt).sum().squareRoot() < 0.05, "seed \(seed): held still, gravity is off 'up'")
        }
        // During the shake, the motion along its line is at the shake's frequency.
        let during = samples.filter { $0.seconds >= person.shakeStart && $0.seconds < person.shakeEnd }
        let line = person.shake.direction
        let along = during.map { $0.x * line.x + $0.y * line.y + $0.z * line.z }
        let measured = SignalMeasures.dominantFrequency(along, rate: 100, band: 1...9)
        // A short shake is a few cycles: its spectrum is only as sharp as 1 / duration.
        let resolution = max(0.15, 0.6 / person.shake.duration)
        #expect(
            abs(measured - person.shake.frequency) <= resolution,
            "seed \(seed): \(measured) Hz, made at \(person.shake.frequency) Hz")
    }

    /// What the detector (issue 22) does on ``people``, at each rate and range: how
    /// many shakes it recognizes in time, and how many of those give exactly one event. Floors:
    /// doing worse fails the test; when the detector does better, raise them.
    ///
    /// Where it falls short, and why (measured on these 200 people):
    /// - **Two slow cycles.** A shake of four strokes at 1.7-2.4 Hz (0.9-1.2 s) begins at its fourth stroke
    ///   and stops there: no stroke of its size follows (``ShakeDetectorConfiguration/sustainHalfCycles``),
    ///   as with a knock or a heel strike ringing. Seeds 19, 38, 54, 91 and 178. Asking for half a half
    ///   cycle instead finds them (196-197 at every rate) but also a mid-air "Z" in many-hands
    ///   (docs/detector.md).
    /// - **A slow wide arc that keeps going.** Seed 148 (1.8 Hz, 12 cm, turning 0.34 rad): its later
    ///   strokes no longer look like a shake, and it is dropped for keeping going.
    /// - **Up and down near 1 g.** Shaken along gravity (within about 27°) at 0.9-1.25 g, mostly
    ///   at 2-2.6 Hz, the device reads under 0.3 g for more than 60 ms at the top of each stroke,
    ///   which the detector takes for the flight of a jump: seeds 87 and 125 (not 125 at 25 Hz).
    /// A shake that goes on for seconds gives one event, when it stops: no person's shake repeats.
    /// Down from 197/196 because the people are harder now (issue 42: slow wide shakes to 1.7 Hz, reaches to
    /// 12 cm, arcs to 46° that turn the device): the measured figures, every person in one event or none.
    static let floors: [String: (recognized: Int, once: Int)] = [
        "25 Hz ±2 g": (193, 193), "25 Hz ±4 g": (193, 193),
        "50 Hz ±2 g": (192, 192), "50 Hz ±4 g": (192, 192),
        "100 Hz ±2 g": (192, 192), "100 Hz ±4 g": (192, 192),
        "200 Hz ±2 g": (192, 192), "200 Hz ±4 g": (192, 192),
    ]

    /// Every person's shake, started from stillness and sampled at each rate and range a
    /// phone uses, should give exactly one event at medium sensitivity, recognized between the
    /// shake's start and half a second after its end (when the hand stops). The detector is held to ``floors``;
    /// a failure lists every shake it missed or repeated, with its parameters.
    @Test(arguments: [25.0, 50, 100, 200], [2.0, 4.0])
    func everyShakeFromStillnessGivesOneEvent(rate: Double, rangeInG: Double) throws {
        let setting = "\(Int(rate)) Hz ±\(Int(rangeInG)) g"
        let floor = try #require(Self.floors[setting])
        var recognized = 0
        var once = 0
        var unrecognized: [String] = []
        var repeated: [String] = []
        var subsetTotals = [Int](repeating: 0, count: Self.subsets.count)
        var subsetHits = [Int](repeating: 0, count: Self.subsets.count)
        for (index, person) in Self.people.enumerated() {
            let found = events(person.samples(rate: rate, range: rangeInG * standardGravity))
            let start = Int64(person.shakeStart * 1e9)
            let end = Int64((person.shakeEnd + 0.5) * 1e9)
            let times = found.map { String(format: "%.2f", Double($0.endedAt - start) / 1e9) }
            let line = "\(Self.describe(person, seed: UInt64(index + 1))): events at \(times) s into the shake"
            let inTime = found.first.map { $0.endedAt >= start && $0.endedAt <= end } ?? false
            let hit = inTime && found.count == 1
            if inTime { recognized += 1 } else { unrecognized.append(line) }
            if hit { once += 1 } else if inTime { repeated.append(line) }
            for (s, subset) in Self.subsets.enumerated() where subset.contains(person) {
                subsetTotals[s] += 1
                if hit { subsetHits[s] += 1 }
            }
        }
        for (s, name) in Self.subsets.map(\.name).enumerated() {
            #expect(subsetTotals[s] > 0, "no \(name) shake among the people")
        }
        let bySubset = Self.subsets.indices.map { "\(Self.subsets[$0].name) \(subsetHits[$0])/\(subsetTotals[$0])" }
        let summary =
            "\(setting): one event in time for \(once) of \(Self.people.count) (\(bySubset.joined(separator: ", ")))"
        #expect(
            recognized >= floor.recognized,
            "\(summary); not recognized in time:\n\(unrecognized.joined(separator: "\n"))")
        #expect(
            once >= floor.once,
            "\(summary); recognized but repeated:\n\(repeated.joined(separator: "\n"))")
    }

    /// One person's shake in a line: its seed and every parameter.
    static func describe(_ person: HumanShake, seed: UInt64) -> String {
        let shake = person.shake
        let g = standardGravity
        var text = String(
            format: "seed %llu: %.2f Hz, %.2f g, %.1f cm, %.2f s, %.0f° from gravity", seed, shake.frequency,
            shake.amplitude / g, shake.displacement * 100, shake.duration, person.degreesFromGravity)
        if shake.curvature > 0 { text += String(format: ", curved %.2f rad", shake.curvature) }
        if shake.ellipse > 0 {
            text += String(format: ", ellipse %.2f at %.0f°", shake.ellipse, shake.ellipsePhase * 180 / .pi)
        }
        text += String(format: ", up (%.2f, %.2f, %.2f)", person.up.x, person.up.y, person.up.z)
        return text
    }
}
