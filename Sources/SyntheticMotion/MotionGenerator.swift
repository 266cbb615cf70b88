import ShakeDetection

/// A seeded source of synthetic accelerometer samples: rest, hand tremor and walking from a
/// ``MotionScript``, with shakes played on request. A pure value type with no clock and no I/O.
///
/// Each sample is gravity along the device's current "up" (the attitude blended across the
/// script's activities), plus each activity's own motion, plus any shake in progress, plus
/// Gaussian sensor noise, clipped per axis to the sensor's range. The same seed, rate, script
/// and sequence of calls always give the same samples. Shakes draw from a random stream of
/// their own, so queueing one changes the samples during the shake and nothing else.
///
/// Timestamps are `startTimestamp` plus the sample's index over `rate`, in nanoseconds.
public struct MotionGenerator: Sendable {
    /// Samples per second.
    public let rate: Double
    /// The activities played, in order and repeated.
    public let script: MotionScript
    /// The timestamp of sample 0, in nanoseconds; the script starts there.
    public let startTimestamp: Int64
    /// Standard deviation of the sensor noise on each axis, in m/s².
    public let noise: Double
    /// The sensor's range: each axis is clipped to ± this, in m/s².
    public let range: Double

    private let models: ActivityModels
    private var noiseRandom: SeededRandom
    private var shakeRandom: SeededRandom
    /// The index of the next sample.
    private var index: Int64 = 0
    private var pendingShake: (shake: SyntheticShake?, notBefore: Int64)?
    private var playingShake: (shake: SyntheticShake, start: Int64)?

    /// The timestamp of the first sample of the shake playing now, or of the last one played.
    public private(set) var shakeStart: Int64?

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: Picks the person and device (how they hold it, their tremor, their gait) and
    ///     every random draw after that.
    ///   - rate: Samples per second, from 1 to 10,000.
    ///   - script: The activities to play.
    ///   - startTimestamp: The timestamp of the first sample, in nanoseconds.
    ///   - noise: Sensor noise on each axis, in m/s² (standard deviation).
    ///   - range: Where each axis clips, in m/s²; 4 g by default, as most phone sensors are set.
    public init(
        seed: UInt64, rate: Double = 100, script: MotionScript = .demo, startTimestamp: Int64 = 0,
        noise: Double = 0.04, range: Double = 4 * standardGravity
    ) {
        precondition(rate.isFinite && (1...10_000).contains(rate), "the rate must lie in 1...10000 Hz")
        precondition(noise.isFinite && noise >= 0, "noise must be 0 m/s² or more")
        precondition(range > 0, "the range must be above 0 m/s²")
        self.rate = rate
        self.script = script
        self.startTimestamp = startTimestamp
        self.noise = noise
        self.range = range
        var traits = SeededRandom(seed: seed)
        models = ActivityModels(using: &traits)
        noiseRandom = SeededRandom(seed: traits.next())
        shakeRandom = SeededRandom(seed: traits.next())
    }

    /// The timestamp of the next sample ``next()`` returns.
    public var nextTimestamp: Int64 { timestamp(ofIndex: index) }

    /// The timestamp of the sample `count` samples after the next one (0 is the next one).
    public func timestamp(samplesAhead count: Int) -> Int64 { timestamp(ofIndex: index + Int64(count)) }

    /// Seconds of motion from the start of the script to the next sample.
    public var elapsed: Double { Double(index) / rate }

    /// The activity that dominates at the next sample.
    public var activity: Activity { script.activity(at: elapsed) }

    /// Whether a shake is queued or playing.
    public var isShaking: Bool { pendingShake != nil || playingShake != nil }

    /// Queues a shake to start at the first sample stamped at or after `notBefore` (the next
    /// sample when nil), on top of whatever motion is playing then.
    ///
    /// - Parameter shake: The shake to play; nil draws one with ``SyntheticShake/random(using:)``
    ///   when it starts.
    /// - Returns: false, and nothing is queued, while another shake is queued or playing:
    ///   two shakes back to back would be one long shake.
    @discardableResult
    public mutating func queueShake(_ shake: SyntheticShake? = nil, notBefore: Int64? = nil) -> Bool {
        guard !isShaking else { return false }
        pendingShake = (shake, notBefore ?? nextTimestamp)
        return true
    }

    /// Skips ahead so the next sample is the first stamped at or after `timestamp`, generating
    /// nothing in between: the gap a sensor shows after the system was suspended. The script
    /// carries on at the new time; a shake in progress runs out in the gap.
    public mutating func skip(to time: Int64) {
        guard time > nextTimestamp else { return }
        var target = Int64((Double(time - startTimestamp) * rate / 1e9).rounded(.down))
        while timestamp(ofIndex: target) < time { target += 1 }
        index = max(index, target)
    }

    /// The next sample.
    public mutating func next() -> Sample {
        let timestamp = timestamp(ofIndex: index)
        let t = Double(index) / rate
        index += 1

        let weights = script.weights(at: t)
        let up = models.attitude(weights, at: t).up
        var acceleration = standardGravity * up + models.dynamic(weights, at: t, frame: WorldFrame(up: up))
        acceleration += shakeAcceleration(at: timestamp)
        if noise > 0 {
            acceleration += noise * SIMD3(noiseRandom.gaussian(), noiseRandom.gaussian(), noiseRandom.gaussian())
        }
        let clipped = acceleration.clamped(lowerBound: SIMD3(repeating: -range), upperBound: SIMD3(repeating: range))
        return Sample(timestamp: timestamp, x: clipped.x, y: clipped.y, z: clipped.z)
    }

    /// The next `count` samples.
    public mutating func next(_ count: Int) -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(max(0, count))
        for _ in 0..<max(0, count) { samples.append(next()) }
        return samples
    }

    /// Starts a queued shake when its time has come, and returns the acceleration of the one playing.
    private mutating func shakeAcceleration(at timestamp: Int64) -> SIMD3<Double> {
        if playingShake == nil, let pending = pendingShake, timestamp >= pending.notBefore {
            playingShake = (pending.shake ?? .random(using: &shakeRandom), timestamp)
            pendingShake = nil
            shakeStart = timestamp
        }
        guard let playing = playingShake else { return .zero }
        let seconds = Double(timestamp - playing.start) / 1e9
        if seconds >= playing.shake.duration {
            playingShake = nil
            return .zero
        }
        return playing.shake.acceleration(at: seconds)
    }

    private func timestamp(ofIndex index: Int64) -> Int64 {
        startTimestamp + Int64((Double(index) * 1e9 / rate).rounded())
    }
}

extension MotionGenerator {
    /// A fixed stretch of the demo script with a shake every `shakeInterval` seconds: the
    /// stand-in for recordings when none are at hand (`shakectl bench` uses it).
    ///
    /// Shakes start at 0.5, 1.5, 2.5, ... times `shakeInterval` (the first sample at or after
    /// each), so they land in every activity and in the fades between. Timestamps start at 0.
    ///
    /// - Parameters:
    ///   - seconds: How much motion, in seconds.
    ///   - rate: Samples per second.
    ///   - seed: Picks the person, the device and the shakes.
    ///   - shakeInterval: Seconds from one shake to the next; nil for no shakes. At least 3 s,
    ///     so a detector settles between shakes.
    public static func mixedMotion(
        seconds: Double, rate: Double, seed: UInt64 = 1, shakeInterval: Double? = 20
    ) -> [Sample] {
        precondition(shakeInterval.map { $0 >= 3 } ?? true, "shakes must be at least 3 s apart")
        var generator = MotionGenerator(seed: seed, rate: rate)
        let count = max(0, Int(seconds * rate))
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        var nextShake = shakeInterval.map { $0 / 2 }
        for _ in 0..<count {
            if let due = nextShake, let interval = shakeInterval, generator.elapsed >= due {
                generator.queueShake()
                nextShake = due + interval
            }
            samples.append(generator.next())
        }
        return samples
    }
}
