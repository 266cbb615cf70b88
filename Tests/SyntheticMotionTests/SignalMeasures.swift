import Foundation
import ShakeDetection
import SyntheticMotion

/// Measurements on sample streams that the tests compare with physics, not with recordings.
enum SignalMeasures {
    /// One axis (0, 1, 2 for x, y, z) of every sample.
    static func axis(_ samples: [Sample], _ axis: Int) -> [Double] {
        samples.map { axis == 0 ? $0.x : (axis == 1 ? $0.y : $0.z) }
    }

    /// The frequency in `band` (Hz) with the most energy in `signal` sampled at `rate`, on a
    /// grid of `step` Hz, after removing the mean.
    static func dominantFrequency(
        _ signal: [Double], rate: Double, band: ClosedRange<Double>, step: Double = 0.02
    ) -> Double {
        let mean = signal.reduce(0, +) / Double(signal.count)
        var best = (frequency: band.lowerBound, power: -1.0)
        var frequency = band.lowerBound
        while frequency <= band.upperBound {
            var re = 0.0
            var im = 0.0
            let w = 2 * Double.pi * frequency / rate
            for (i, value) in signal.enumerated() {
                re += (value - mean) * cos(w * Double(i))
                im += (value - mean) * sin(w * Double(i))
            }
            let power = re * re + im * im
            if power > best.power { best = (frequency, power) }
            frequency += step
        }
        return best.frequency
    }

    /// Mean and standard deviation.
    static func meanAndDeviation(_ values: [Double]) -> (mean: Double, deviation: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    /// The largest dynamic acceleration seen by a slow gravity estimate (the detector's own
    /// 0.5 s low-pass), after a second to settle.
    static func peakDynamic(_ samples: [Sample], timeConstant: Double = 0.5) -> Double {
        guard let first = samples.first else { return 0 }
        var gravity = SIMD3(first.x, first.y, first.z)
        var previous = first.timestamp
        var peak = 0.0
        for sample in samples.dropFirst() {
            let raw = SIMD3(sample.x, sample.y, sample.z)
            let dt = Double(sample.timestamp - previous) / 1e9
            previous = sample.timestamp
            gravity += dt / (timeConstant + dt) * (raw - gravity)
            let dynamic = raw - gravity
            if sample.timestamp - first.timestamp > 1_000_000_000 {
                peak = max(peak, (dynamic * dynamic).sum().squareRoot())
            }
        }
        return peak
    }
}

/// Runs a detector over samples and returns its events.
func events(_ samples: [Sample], sensitivity: Sensitivity = .medium) -> [ShakeEvent] {
    var detector = ShakeDetector(sensitivity: sensitivity)
    return samples.compactMap { detector.process($0) }
}

/// A generator's motion with shakes queued at the given times (seconds after the start);
/// returns the samples and the timestamp at which each shake began.
func motion(
    seed: UInt64, rate: Double = 100, script: MotionScript = .demo, seconds: Double, shakesAt times: [Double]
) -> (samples: [Sample], shakeStarts: [Int64]) {
    var generator = MotionGenerator(seed: seed, rate: rate, script: script)
    var pending = times.sorted()[...]
    var starts: [Int64] = []
    var samples: [Sample] = []
    for _ in 0..<Int(seconds * rate) {
        if let due = pending.first, generator.elapsed >= due, generator.queueShake() {
            pending.removeFirst()
        }
        samples.append(generator.next())
        if let start = generator.shakeStart, start != starts.last { starts.append(start) }
    }
    return (samples, starts)
}
