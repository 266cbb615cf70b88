#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A side-to-side shake of the device: acceleration along one line, reversing at a steady rate
/// under a smooth envelope.
///
/// A person shaking a phone to undo moves it 3.5-5 times a second to and fro along the screen's
/// width, for well under a second, at 2.5-3.5 g. Here each half cycle is one stroke; the first
/// and last rise and fall through a sine-squared taper one half cycle long, so the motion
/// starts and stops without a jolt, and the strokes between are at full strength. Six half
/// cycles give five reversals, four of them between full-strength strokes: enough for a
/// detector that needs three, with one to spare when walking raises the bar.
public struct SyntheticShake: Sendable, Hashable {
    /// Full back-and-forth cycles per second.
    public var frequency: Double
    /// Strokes (half cycles), including the two tapered ones at either end; at least 3.
    public var halfCycles: Int
    /// Peak acceleration of the full-strength strokes, in m/s².
    public var amplitude: Double
    /// The line of the shake in device axes (unit length), pointing the way of the first stroke.
    public var direction: SIMD3<Double>

    /// Creates a shake; `direction` is normalized, and `halfCycles` raised to 3 if smaller.
    public init(
        frequency: Double = 4.2, halfCycles: Int = 6, amplitude: Double = 28, direction: SIMD3<Double> = [1, 0, 0]
    ) {
        precondition(frequency.isFinite && frequency > 0, "a shake's frequency must be above 0 Hz")
        let length = (direction * direction).sum().squareRoot()
        precondition(length.isFinite && length > 0, "a shake's direction must not be zero")
        self.frequency = frequency
        self.halfCycles = max(3, halfCycles)
        self.amplitude = amplitude
        self.direction = direction / length
    }

    /// A shake drawn at random: 3.8-4.8 Hz, six strokes (0.63-0.79 s), 24-34 m/s² (2.4-3.5 g),
    /// along the screen's width within 20° in its plane and 10° out of it, either way first.
    public static func random(using random: inout SeededRandom) -> SyntheticShake {
        let degree = Double.pi / 180
        let inPlane = random.uniform((-20 * degree)...(20 * degree))
        let outOfPlane = random.uniform((-10 * degree)...(10 * degree))
        let line: SIMD3<Double> = [
            cos(outOfPlane) * cos(inPlane), cos(outOfPlane) * sin(inPlane), sin(outOfPlane),
        ]
        return SyntheticShake(
            frequency: random.uniform(3.8...4.8), halfCycles: 6, amplitude: random.uniform(24...34),
            direction: random.sign() * line)
    }

    /// The length of one stroke, in seconds.
    public var halfPeriod: Double { 1 / (2 * frequency) }

    /// How long the shake lasts, in seconds.
    public var duration: Double { Double(halfCycles) * halfPeriod }

    /// The envelope at `seconds` into the shake: rising from 0 to 1 over the first stroke,
    /// 1 through the middle, falling back to 0 over the last; 0 outside the shake.
    public func envelope(at seconds: Double) -> Double {
        guard seconds > 0 && seconds < duration else { return 0 }
        let taper = halfPeriod
        let edge = min(seconds, duration - seconds)
        guard edge < taper else { return 1 }
        let rise = sin(0.5 * Double.pi * edge / taper)
        return rise * rise
    }

    /// The shake's acceleration `seconds` after it began, in device axes (m/s²); zero outside it.
    public func acceleration(at seconds: Double) -> SIMD3<Double> {
        let strength = amplitude * envelope(at: seconds) * sin(2 * Double.pi * frequency * seconds)
        return strength * direction
    }
}
