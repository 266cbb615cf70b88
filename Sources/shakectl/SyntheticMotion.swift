import Foundation
import ShakeDetection

/// Synthetic accelerometer motion for benchmarks when no recordings are at hand.
enum SyntheticMotion {
    /// Rest, walking-like motion and shakes in turn, at a fixed rate.
    static func mix(seconds: Double, rate: Double) -> [Sample] {
        var samples: [Sample] = []
        let count = Int(seconds * rate)
        samples.reserveCapacity(count)
        var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in 0..<count {
            let t = Double(i) / rate
            noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = Double(noise >> 40) / Double(1 << 24) - 0.5
            let phase = t.truncatingRemainder(dividingBy: 20)
            var x = jitter * 0.3
            var z = standardGravity + jitter * 0.3
            if phase >= 5 && phase < 15 { z += 4 * sin(2 * Double.pi * 1.8 * t) }
            if phase >= 17 && phase < 18.2 { x += 30 * sin(2 * Double.pi * 4 * t) }
            samples.append(Sample(seconds: t, x: x, y: 0, z: z))
        }
        return samples
    }
}
