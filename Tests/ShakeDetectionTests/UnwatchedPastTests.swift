import Foundation
import ShakeDetection
import TestSupport
import Testing

/// The unwatched past (docs/detector.md, "Silent in daily life"): a chain that began less than the
/// activity window (2 s) after the detector's first sample, unless the device was seen held still for
/// ``ShakeDetectorConfiguration/stillnessSeen`` before it, needs one more reversal (the motion may have
/// been going on all along), and is no shake at all when strokes came before it in what the detector
/// did see (a body already moving hard). A person who shakes to undo was looking at the screen; a body
/// already running when the sensor starts is never still that long.
@Suite struct UnwatchedPastTests {
    /// A burst of `cycles` cycles of a 4 Hz back and forth along x (25 m/s², gravity on z: even,
    /// on a line, crest √2, so no gate of motion stops it) after `lead` s of a device held still,
    /// then 1 s still. The detector starts at t = 0.
    static func burst(rate: Double, cycles: Double, lead: Double) -> [Sample] {
        let frequency = 4.0
        let duration = cycles / frequency
        return (0..<Int((lead + duration + 1) * rate)).map { i in
            let t = Double(i) / rate
            let moving = t >= lead && t < lead + duration
            let x = moving ? 25 * sin(2 * Double.pi * frequency * (t - lead)) : 0
            return Sample(seconds: t, x: x, y: 0, z: standardGravity)
        }
    }

    @Test("four strokes already under way when the detector starts are not a shake; the rule is what stops them", arguments: [50.0, 100.0, 200.0])
    func motionUnderWayAtTheStart(rate: Double) {
        let samples = Self.burst(rate: rate, cycles: 2, lead: 0)
        expectTheRuleStops(samples, turnOff: { $0.stillnessSeen = 0 }, "\(rate) Hz")
    }

    @Test("the same four strokes after the device was seen still for 0.3 s are a shake", arguments: [50.0, 100.0, 200.0])
    func stillnessSeenFirst(rate: Double) {
        // 0.3 s is under calmDwell (1 s): the motion is not fresh from stillness, only watched.
        let samples = Self.burst(rate: rate, cycles: 2, lead: 0.3)
        #expect(detect(samples, with: ShakeDetector()).count == 1, "\(rate) Hz")
    }

    /// One cycle of 4 Hz along x (two strokes), then `cycles` cycles along y with no pause: the x
    /// strokes do not reverse into the y ones, so the chain begins with the first y stroke, after
    /// strokes the detector saw. The detector starts at t = 0; 1 s still at the end.
    static func strokesThenShake(rate: Double, cycles: Double) -> [Sample] {
        let frequency = 4.0
        let switchAt = 1 / frequency
        let end = switchAt + cycles / frequency
        return (0..<Int((end + 1) * rate)).map { i in
            let t = Double(i) / rate
            let x = t < switchAt ? 25 * sin(2 * Double.pi * frequency * t) : 0
            let y = t >= switchAt && t < end ? 25 * sin(2 * Double.pi * frequency * (t - switchAt)) : 0
            return Sample(seconds: t, x: x, y: y, z: standardGravity)
        }
    }

    @Test("a shake after strokes the detector saw, never still, in its first 2 s is not a shake; the rule is what stops it", arguments: [50.0, 100.0, 200.0])
    func strokesBeforeTheChain(rate: Double) {
        // Three cycles: enough for the one more reversal of ongoing activity, so only the rule stops them.
        let samples = Self.strokesThenShake(rate: rate, cycles: 3)
        expectTheRuleStops(samples, turnOff: { $0.stillnessSeen = 0 }, "\(rate) Hz")
    }

    @Test("a shake already under way when the detector starts, with nothing before it, still counts, one reversal later", arguments: [50.0, 100.0, 200.0])
    func longerShakeCounts(rate: Double) {
        let samples = Self.burst(rate: rate, cycles: 3, lead: 0)
        let events = detect(samples, with: ShakeDetector())
        #expect(events.count == 1, "\(rate) Hz")
        #expect(events.first.map { $0.reversals >= 4 } ?? false, "\(rate) Hz: \(events)")
    }

    @Test("stillnessSeen out of range is refused, naming the key")
    func validation() {
        var configuration = ShakeDetectorConfiguration()
        configuration.stillnessSeen = -0.1
        do { try configuration.validate() } catch { #expect(error.key == "stillnessSeen") }
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.stillnessSeen = configuration.calmDwell + 0.1
        do { try configuration.validate() } catch { #expect(error.key == "stillnessSeen") }
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.stillnessSeen = 0
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
