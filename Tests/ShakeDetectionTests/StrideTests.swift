import Foundation
import ShakeDetection
import TestSupport
import Testing

/// The stride gate (docs/detector.md, "How it decides" and "What each rule earns"): in ongoing motion, a chain slower
/// than a hand's shake whose motion sways far off its line is a body striding (a foot strike pushes
/// up and brakes, then drives, forwards in one stance), not a hand driving the device along a line.
@Suite struct StrideTests {
    /// A body's strides as a phone at the waist feels them, in its own frame with gravity on x: up
    /// and down along x at `frequency` Hz (a step each cycle) and `amplitude` m/s²; fore and aft
    /// along y at twice that rate, `drive` times as strong (each stance brakes, then drives); and
    /// the hips' sway from side to side along z at half that rate, `sway` times as strong (one
    /// sway a stride of two steps). For `duration` s from `lead` s, after a device held still too
    /// briefly to count as stillness, so the motion is ongoing, not fresh. Off its line (x) the
    /// motion has √(drive² + sway²) of the RMS on it.
    static func strides(
        rate: Double, frequency: Double = 2.8, amplitude: Double = 30, drive: Double, sway: Double,
        lead: Double = 0.5, duration: Double = 1.5
    ) -> [Sample] {
        (0..<Int((lead + duration + 1) * rate)).map { i in
            let t = Double(i) / rate
            guard t >= lead && t < lead + duration else { return Sample(seconds: t, x: standardGravity, y: 0, z: 0) }
            let phase = 2 * Double.pi * frequency * (t - lead)
            return Sample(
                seconds: t, x: standardGravity + amplitude * sin(phase), y: drive * amplitude * sin(2 * phase),
                z: sway * amplitude * sin(phase / 2))
        }
    }

    @Test("strides at a step's rate, swaying off their line, are not a shake; the gate is what stops them", arguments: [50.0, 100.0, 200.0])
    func stridesAreNotAShake(rate: Double) {
        let samples = Self.strides(rate: rate, drive: 0.5, sway: 0.4)  // 0.64 off the line
        expectTheRuleStops(samples, turnOff: { $0.strideSway = .infinity }, "\(rate) Hz")
    }

    @Test("a shake at the same rate and strength that keeps near its line is still one", arguments: [50.0, 100.0, 200.0])
    func shakeOnALineCounts(rate: Double) {
        let samples = Self.strides(rate: rate, drive: 0.25, sway: 0.15)  // 0.29 off the line
        #expect(detect(samples, with: ShakeDetector()).count == 1, "\(rate) Hz")
    }

    @Test("faster than a body steps, the same sway is no stride: a shake that wobbles still counts", arguments: [50.0, 100.0, 200.0])
    func fastShakeCounts(rate: Double) {
        let samples = Self.strides(rate: rate, frequency: 4.5, drive: 0.5, sway: 0.4)
        #expect(detect(samples, with: ShakeDetector()).count == 1, "\(rate) Hz")
    }

    @Test("strideRate and strideSway out of range are refused, naming the key")
    func validation() {
        var configuration = ShakeDetectorConfiguration()
        configuration.strideSway = -0.1
        do { try configuration.validate() } catch { #expect(error.key == "strideSway") }
        configuration.strideSway = .infinity
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.strideRate = 20
        do { try configuration.validate() } catch { #expect(error.key == "strideRate") }
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }
}
