import Foundation
import ShakeDetection
import TestSupport
import Testing

/// The physics that separates the whole body moving from a hand shaking. A hand can push and
/// pull the device, so along gravity it may read anything; the ground can only push, so a body
/// that bounces harder than 1 g leaves it and reads 0 g in flight (free fall). Motion slower
/// than any shake (under 1.7 Hz) is never one. A gentle bounce that never leaves the ground at
/// 2-2.5 Hz is not separable from a gentle shake up and down, and is not claimed here.
@Suite struct BodyMotionPropertyTests {
    /// A regular oscillation along gravity: rest for 2 s, then `seconds` of a sine of `amplitude`
    /// m/s² at `frequency` Hz (plus a second harmonic of `harmonic` times that, the lopsided
    /// shape of a bounce), with gravity along `up`, each axis clipped at ±`range`, then rest for
    /// 1.5 s: the motion stops, as a hand's does (and a body's, at the end of a bout). When
    /// `groundPushes`, the total never goes below 0 g: the ground can push a body, not pull it.
    static func verticalOscillation(
        frequency: Double, amplitude: Double, harmonic: Double, up: (Double, Double, Double), rate: Double,
        seconds: Double, range: Double, groundPushes: Bool = false
    ) -> [Sample] {
        let n = (up.0 * up.0 + up.1 * up.1 + up.2 * up.2).squareRoot()
        let u = (up.0 / n, up.1 / n, up.2 / n)
        let clip = { (v: Double) in max(-range, min(range, v)) }
        return (0..<Int((seconds + 3.5) * rate)).map { i in
            let t = Double(i) / rate
            let w = 2 * Double.pi * frequency * (t - 2)
            let a = t < 2 || t >= 2 + seconds ? 0 : amplitude * (sin(w) + harmonic * sin(2 * w + 0.7))
            let total = groundPushes ? max(0, standardGravity + a) : standardGravity + a
            return Sample(seconds: t, x: clip(total * u.0), y: clip(total * u.1), z: clip(total * u.2))
        }
    }

    static let belowShakes = [0.6, 1.2, 1.5]
    static let bouncing = [1.8, 2.0, 2.2, 2.4, 2.49]

    @Test(
        "no regular oscillation along gravity slower than a shake, lasting over 3 s, is one, whatever its amplitude",
        arguments: belowShakes)
    func slowVerticalOscillation(frequency: Double) {
        oscillationsAreSilent(frequency: frequency, amplitudes: [5.0, 12, 20, 40, 80, 200], groundPushes: false)
    }

    @Test(
        "no body bouncing off the ground at 1.8-2.5 Hz with a flight (over 1.2 g) is a shake, whatever its amplitude",
        arguments: bouncing)
    func bouncingWithFlight(frequency: Double) {
        oscillationsAreSilent(frequency: frequency, amplitudes: [12.0, 20, 40, 80, 200], groundPushes: true)
    }

    func oscillationsAreSilent(frequency: Double, amplitudes: [Double], groundPushes: Bool) {
        var random = Motion.Random(seed: UInt64(frequency * 100))
        for amplitude in amplitudes {
            for rate in [25.0, 50, 100, 200] {
                for range in [Double.infinity, 2 * standardGravity, 4 * standardGravity] {
                    for harmonic in [0, 0.4] {
                        let up = (random.gaussian(), random.gaussian(), random.gaussian())
                        let seconds = 3.5 + 4 * random.next()
                        let samples = Self.verticalOscillation(
                            frequency: frequency, amplitude: amplitude, harmonic: harmonic, up: up, rate: rate,
                            seconds: seconds, range: range, groundPushes: groundPushes)
                        for sensitivity in Sensitivity.allCases {
                            let events = detect(samples, with: ShakeDetector(sensitivity: sensitivity))
                            #expect(
                                events.isEmpty,
                                "\(frequency) Hz, \(amplitude) m/s², \(rate) Hz, ±\(range), harmonic \(harmonic), \(sensitivity): \(events.count) events"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test("a shake along gravity at 3.5 Hz is still a shake, at ±4 g and clipped at ±2 g", arguments: [25.0, 50, 100])
    func fastVerticalShake(rate: Double) {
        var random = Motion.Random(seed: UInt64(rate))
        for range in [4 * standardGravity, 2 * standardGravity] {
            for _ in 0..<4 {
                let up = (random.gaussian(), random.gaussian(), random.gaussian())
                let samples = Self.verticalOscillation(
                    frequency: 3.5, amplitude: 30, harmonic: 0, up: up, rate: rate, seconds: 1.2, range: range)
                let events = detect(samples, with: ShakeDetector())
                #expect(events.count == 1, "±\(range) at \(rate) Hz, gravity along \(up): \(events.count) events")
            }
        }
    }

    /// Rest, `fall` seconds of free fall (0 g) ending at 2 s, rest, and a 4 Hz shake along x of
    /// `duration` seconds starting `gap` seconds after the free fall ended.
    static func shakeAfterFreeFall(fall: Double, gap: Double, duration: Double = 1.2, rate: Double = 100) -> [Sample] {
        (0..<Int((gap + 4) * rate)).map { i in
            let t = Double(i) / rate
            let falling = t >= 2 - fall && t < 2
            let shaking = t >= 2 + gap && t < 2 + gap + duration
            let x = shaking ? 30 * sin(2 * Double.pi * 4 * (t - 2 - gap)) : 0
            return Sample(seconds: t, x: x, y: 0, z: falling ? 0.3 : standardGravity)
        }
    }

    @Test("a burst of reversals that begins just after the device fell freely is a landing, not a shake")
    func shakeRightAfterFreeFall() {
        // Three cycles (0.7 s), as a body or a table rings after an impact; the same burst
        // with no free fall before it is a shake. A burst that goes on beyond the memory (0.5 s)
        // is recognized from its later strokes.
        for rate in [25.0, 100] {
            for gap in [0.0, 0.1] {
                let landing = Self.shakeAfterFreeFall(fall: 0.2, gap: gap, duration: 0.7, rate: rate)
                #expect(detect(landing, with: ShakeDetector()).isEmpty, "\(rate) Hz, \(gap) s after the fall")
                let control = Self.shakeAfterFreeFall(fall: 0, gap: gap, duration: 0.7, rate: rate)
                #expect(detect(control, with: ShakeDetector()).count == 1, "\(rate) Hz, no fall")
            }
        }
    }

    @Test("a free fall too short to be one, or long past, does not stop a shake")
    func freeFallThatDoesNotCount() {
        // 30 ms near 0 g is what a vigorous vertical stroke can pass through; a second later the
        // device is in the hand again.
        #expect(detect(Self.shakeAfterFreeFall(fall: 0.03, gap: 0), with: ShakeDetector()).count == 1)
        #expect(detect(Self.shakeAfterFreeFall(fall: 0.25, gap: 1.5), with: ShakeDetector()).count == 1)
    }

    @Test("a shake clipped at ±2 g with gravity on its line is recognized, whichever way gravity points")
    func lopsidedClipping() {
        // Gravity along the shake, split over x and y: one way each axis has 1.3 g of room left,
        // the other way 2.7 g, so the clipped strokes come out unequal.
        for sign in [1.0, -1.0] {
            let samples = Self.verticalOscillation(
                frequency: 4, amplitude: 35, harmonic: 0, up: (sign, sign, 0.3), rate: 100, seconds: 1.2,
                range: 2 * standardGravity)
            #expect(detect(samples, with: ShakeDetector()).count == 1, "gravity along \(sign > 0 ? "+" : "-")x")
        }
    }

    /// Gravity along y for 2 s; then the device turns by `turn` degrees towards z over `over`
    /// seconds, faster and faster (a body toppling: the angle grows as time squared); then,
    /// `pause` seconds later, an oscillation along the new gravity at `frequency` Hz of
    /// `amplitude` m/s², for 2 s, fading with damping ratio `damping` (0: steady); then rest for 1.5 s.
    /// Each axis clipped at ±`range`.
    static func turnThenOscillation(
        turn: Double, over: Double = 0.8, pause: Double = 0, frequency: Double, amplitude: Double,
        damping: Double, rate: Double, range: Double
    ) -> [Sample] {
        let clip = { (v: Double) in max(-range, min(range, v)) }
        let landing = 2 + over + pause
        return (0..<Int((landing + 3.5) * rate)).map { i in
            let t = Double(i) / rate
            let u = min(max((t - 2) / over, 0), 1)
            let angle = turn * Double.pi / 180 * u * u
            let up = (0.0, cos(angle), sin(angle))
            var a = standardGravity
            if t >= landing && t < landing + 2 {
                let s = t - landing
                let omega = 2 * Double.pi * frequency
                a += amplitude * exp(-damping * omega * s) * sin(omega * s)
            }
            return Sample(seconds: t, x: clip(a * up.0), y: clip(a * up.1), z: clip(a * up.2))
        }
    }

    @Test("a shake right after the device was picked up (turned 45°) is a shake, even one that fades")
    func shakeAfterPickingUp() {
        for rate in [25.0, 50, 100] {
            for damping in [0.0, 0.02] {
                for pause in [0.0, 0.3] {
                    let samples = Self.turnThenOscillation(
                        turn: 45, over: 0.6, pause: pause, frequency: 4, amplitude: 30, damping: damping, rate: rate,
                        range: 2 * standardGravity)
                    let events = detect(samples, with: ShakeDetector())
                    #expect(events.count == 1, "\(rate) Hz, ζ \(damping), \(pause) s after: \(events.count) events")
                }
            }
        }
    }
}
