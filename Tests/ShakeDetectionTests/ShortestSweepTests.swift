import Foundation
import ShakeDetection
import TestSupport
import Testing

/// The shortest sweep (docs/detector.md, "How it decides" and "What each rule earns"): a hand that shakes to undo moves
/// the device a centimetre or more; a chain whose sweep (peak acceleration over the angular
/// frequency squared, a sine's amplitude) is a few millimetres is a jiggle, not a shake, unless a
/// stroke saturated the sensor and so was stronger than it reads.
@Suite struct ShortestSweepTests {
    @Test("a fast jiggle of 4 mm from stillness is not a shake; the check is what stops it", arguments: [50.0, 100.0, 200.0])
    func jiggleIsNotAShake(rate: Double) {
        // 7 Hz at 8 m/s²: 8 / (2π · 7)² = 4.1 mm, above the gentle threshold of motion fresh from stillness.
        let samples = Motion.shake(rate: rate, frequency: 7, amplitude: 8, start: 2)
        expectTheRuleStops(samples, turnOff: { $0.shortestSweep = 0 }, "\(rate) Hz")
    }

    @Test("a shake at the same rate that moves the device 1.3 cm still counts", arguments: [50.0, 100.0, 200.0])
    func shakeAtTheSameRateCounts(rate: Double) {
        let samples = Motion.shake(rate: rate, frequency: 7, amplitude: 25, start: 2)
        #expect(detect(samples, with: ShakeDetector()).count == 1, "\(rate) Hz")
    }

    @Test("a fast shake clipped by a ±2 g sensor still counts: its sweep reads short only because it clipped", arguments: [50.0, 100.0, 200.0])
    func clippedFastShakeCounts(rate: Double) {
        // 9 Hz at 60 m/s² (1.9 cm), clipped at 2 g: it reads 19.6 / (2π · 9)² = 6.1 mm.
        let samples = Motion.shake(rate: rate, frequency: 9, amplitude: 60, start: 2, clip: 2 * standardGravity)
        var strict = ShakeDetectorConfiguration()
        strict.shortestSweep = 0.007
        #expect(detect(samples, with: ShakeDetector(configuration: strict)).count == 1, "\(rate) Hz")
    }

    @Test("shortestSweep out of range is refused, naming the key")
    func validation() {
        var configuration = ShakeDetectorConfiguration()
        configuration.shortestSweep = -0.001
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch { #expect(error.key == "shortestSweep") }
        configuration.shortestSweep = configuration.slowSweep
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.shortestSweep = 0
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
