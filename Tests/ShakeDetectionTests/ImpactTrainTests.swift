import Foundation
import ShakeDetection
import TestSupport
import Testing

/// The impact gate (docs/detector.md, "How it decides" and "What each rule earns"): in ongoing motion, a chain whose
/// strongest stroke stands far above the motion's RMS is a train of impacts (foot strikes,
/// landings), not a hand's shake, which is near a sine.
@Suite struct ImpactTrainTests {
    /// Alternating jolts of `peak` m/s², each a half sine `width` s wide, every half `period`,
    /// with quiet between, along x, for 3 s; preceded by `lead` s of a device held still (too short
    /// to count as stillness, so the motion is ongoing, not fresh), and followed by rest.
    static func jolts(rate: Double, period: Double = 0.36, width: Double = 0.05, peak: Double = 30, lead: Double = 0.5)
        -> [Sample]
    {
        (0..<Int(5 * rate)).map { i in
            let t = Double(i) / rate
            var x = 0.0
            if t >= lead && t < lead + 3 {
                let phase = (t - lead).truncatingRemainder(dividingBy: period)
                let half = period / 2
                let inHalf = phase.truncatingRemainder(dividingBy: half)
                let sign = phase < half ? 1.0 : -1.0
                if inHalf < width { x = sign * peak * sin(Double.pi * inHalf / width) }
            }
            return Sample(seconds: t, x: x, y: 0, z: standardGravity)
        }
    }

    @Test("jolts with quiet between are not a shake; the gate is what stops them", arguments: [50.0, 100.0, 200.0])
    func joltsAreNotAShake(rate: Double) {
        let samples = Self.jolts(rate: rate)
        var open = ShakeDetectorConfiguration()
        open.impactCrest = .infinity
        // Without the gate the same jolts make a chain that passes every other check: the test
        // would prove nothing if they did not.
        #expect(!detect(samples, with: ShakeDetector(configuration: open)).isEmpty, "\(rate) Hz, gate off")
        #expect(detect(samples, with: ShakeDetector()).isEmpty, "\(rate) Hz")
    }

    @Test("a shake at the same rate and strength, in the same ongoing motion, is still one", arguments: [50.0, 100.0, 200.0])
    func sineStillCounts(rate: Double) {
        // 2.8 Hz: the jolts' rhythm (0.36 s a cycle); 30 m/s², their peak; from 0.5 s, as they begin.
        let samples = Motion.shake(rate: rate, frequency: 1 / 0.36, amplitude: 30, duration: 1.5, start: 0.5)
        #expect(detect(samples, with: ShakeDetector()).count == 1, "\(rate) Hz")
    }

    @Test("a clipped shake's crest is lower than a sine's, so clipping cannot trip the gate")
    func clippedShake() {
        let samples = Motion.shake(rate: 50, frequency: 4, amplitude: 70, start: 0.5, clip: 39.2)
        #expect(detect(samples, with: ShakeDetector()).count == 1)
    }

    @Test("impactCrest below a sine's crest factor is refused, naming the key")
    func validation() {
        var configuration = ShakeDetectorConfiguration()
        configuration.impactCrest = 1.2
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch { #expect(error.key == "impactCrest") }
        configuration.impactCrest = .infinity
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
