import Foundation
import ShakeDetection
import TestSupport
import Testing

/// A body that stops is not a hand that stops (issue 42): a chain that only carries on the rhythm the body
/// kept before it is no shake (``ShakeRule/bodyRhythm``), a shake whose device comes to rest turned from
/// where it was held is a body that fell or lay down (``DropReason/postureChanged``), and a chain one rule
/// stops is told as a near miss.
@Suite struct WhatCameBeforeTests {
    /// A body stepping at `rate` Hz along x (up), with gravity on x: `impacts` s of foot strikes (a sharp
    /// landing, a long low phase: a high crest), then `smooth` s of the same steps rounded off, as the last
    /// steps onto a landing are, at the same pace, strength and line; then standing still. Samples at 100 Hz.
    static func stepsThenStop(rate: Double = 2.2, strength: Double = 20, impacts: Double = 6, smooth: Double = 1.4)
        -> [Sample]
    {
        let g = standardGravity
        return (0..<Int((impacts + smooth + 3) * 100)).map { i in
            let t = Double(i) / 100
            let phase = 2 * Double.pi * rate * t
            var up = 0.0
            if t < impacts {
                // A landing: a narrow peak each cycle, the rest a gentle dip that carries the weight.
                let u = (rate * t).truncatingRemainder(dividingBy: 1)
                up = u < 0.15 ? 1.2 * strength * pow(sin(.pi * u / 0.15), 2) - 0.05 * strength : -0.2 * strength
            } else if t < impacts + smooth {
                up = strength * sin(phase)
            }
            // A little sway sideways, as every body has.
            return Sample(seconds: t, x: g + up, y: 0.8 * sin(phase / 2), z: 0.3 * sin(phase))
        }
    }

    @Test("the last steps of a flight, at the rhythm the body kept for seconds, are no shake: the body's rhythm stops them")
    func theBodysRhythmStopsTheEndOfAFlight() {
        expectTheRuleStops(Self.stepsThenStop(), turnOff: { $0.rhythmStrokes = 0 }, "steps, then smooth steps that stop")
    }

    @Test("what stopped them is told as a near miss, once")
    func aNearMissNamesTheRule() {
        var detector = ShakeDetector()
        var misses: [ShakeRule] = []
        for sample in Self.stepsThenStop() {
            if case .nearMiss(_, let rule)? = detector.advance(sample) { misses.append(rule) }
        }
        #expect(misses.contains(.bodyRhythm), "\(misses)")
        #expect(misses.filter { $0 == .bodyRhythm }.count <= 2, "one report a chain: \(misses)")
    }

    /// Steps as in ``stepsThenStop``, then a hand's shake at `shakeRate` Hz and `strength` m/s² along `line`.
    static func stepsThenShake(shakeRate: Double, strength: Double, line: SIMD3<Double>) -> [Sample] {
        let steps = stepsThenStop(impacts: 6, smooth: 0).prefix(600)
        let g = standardGravity
        let shake = (0..<300).map { i -> Sample in
            let t = 6 + Double(i) / 100
            let s = t < 7.5 ? strength * sin(2 * .pi * shakeRate * (t - 6)) : 0
            return Sample(seconds: t, x: g + s * line.x, y: s * line.y, z: s * line.z)
        }
        return Array(steps) + shake
    }

    @Test(
        "a person who walks and then shakes is answered: the shake changes the rhythm, the line or the strength",
        arguments: [
            (4.5, 20.0, SIMD3<Double>(1, 0, 0)),  // faster, along the steps' line
            (2.2, 20.0, SIMD3<Double>(0, 1, 0)),  // the steps' pace, across their line
            (2.2, 50.0, SIMD3<Double>(1, 0, 0)),  // the steps' pace and line, twice as strong
        ])
    func aShakeAfterStepsIsAnswered(rate: Double, strength: Double, line: SIMD3<Double>) {
        let found = detect(Self.stepsThenShake(shakeRate: rate, strength: strength, line: line), with: ShakeDetector())
        #expect(found.count == 1, "\(rate) Hz, \(strength) m/s² along \(line): \(found.count) events")
        #expect(found.allSatisfy { $0.endedAt >= 6_000_000_000 })
    }

    /// Held upright (gravity along y), a shake along x from stillness, turning the device flat (gravity
    /// along z) over its last `turnTime` s, as a body that falls turns it; then lying flat, or, with
    /// `comesBack`, brought back upright 0.3 s after the strokes stop, as a hand brings the screen back.
    static func shakeThenLie(comesBack: Bool, turnTime: Double = 0.4) -> [Sample] {
        let g = standardGravity
        return (0..<600).map { i in
            let t = Double(i) / 100
            let shake = t >= 2 && t < 3 ? 25 * sin(2 * .pi * 4 * (t - 2)) : 0
            var angle = min(1, max(0, (t - 3 + turnTime) / turnTime)) * .pi / 2
            if comesBack, t > 3.3 { angle = max(0, .pi / 2 * (1 - (t - 3.3) / 0.3)) }
            return Sample(seconds: t, x: shake, y: g * cos(angle), z: g * sin(angle))
        }
    }

    @Test("a shake whose device comes to rest turned, as a body that fell leaves it, is dropped for its posture")
    func aDeviceLeftTurnedIsNoShake() {
        expectTheRuleStops(Self.shakeThenLie(comesBack: false), turnOff: { $0.postureTurn = -1 }, "turned and left")
        var detector = ShakeDetector()
        let reasons = Self.shakeThenLie(comesBack: false).compactMap { sample -> DropReason? in
            if case .dropped(_, let reason, _)? = detector.advance(sample) { return reason }
            return nil
        }
        #expect(reasons == [.postureChanged])
    }

    @Test("a hand that tilts the device as it stops and brings it back is answered, once it is back")
    func aDeviceBroughtBackIsAShake() {
        let found = detect(Self.shakeThenLie(comesBack: true), with: ShakeDetector())
        #expect(found.count == 1)
        // Answered once the device is back within 60° of where it was held, about 3.5 s; not at the first
        // quiet, when it still lay turned.
        #expect(found.allSatisfy { $0.endedAt > 3_300_000_000 && $0.endedAt < 4_000_000_000 })
    }

    @Test("the new tunables out of range are refused, naming the key")
    func validation() {
        for (key, change) in [
            ("rhythmStrokes", { (c: inout ShakeDetectorConfiguration) in c.rhythmStrokes = 17 }),
            ("rhythmLikeness", { $0.rhythmLikeness = 0.9 }),
            ("postureTurn", { $0.postureTurn = 2 }),
            ("postureWait", { $0.postureWait = -1 }),
            ("postureSpan", { $0.postureSpan = 31 }),
        ] {
            var configuration = ShakeDetectorConfiguration()
            change(&configuration)
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
            do { try configuration.validate() } catch { #expect(error.key == key) }
        }
    }

    @Test("every rule can be turned off by name, and its key reads back", arguments: ShakeRule.allCases)
    func rulesByName(rule: ShakeRule) throws {
        #expect(ShakeRule(key: rule.key) == rule)
        #expect(ShakeRule(key: rule.rawValue) == rule)
        #expect(throws: Never.self) { try ShakeDetectorConfiguration().without([rule]).validate() }
        // Compared outside #expect: its expansion of a comparison of two structs this large crashed (Swift 6.3.1).
        let changed = ShakeDetectorConfiguration().without([rule]) != ShakeDetectorConfiguration()
        #expect(changed)
        #expect(ShakeRules(rule).single == rule)
    }
}
