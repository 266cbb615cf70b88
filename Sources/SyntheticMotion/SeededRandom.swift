#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small seeded random number generator (SplitMix64): the same seed gives the same numbers on every platform.
///
/// Synthetic motion draws everything from generators like this one, so a seed names one
/// reproducible stretch of motion. Not for anything that needs unpredictability.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64
    /// The second normal deviate of the last Box-Muller pair, kept for the next call.
    private var spareGaussian: Double?

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in [0, 1), with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// A uniform number in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A uniform angle in [0, 2π), for the phase of an oscillation.
    public mutating func phase() -> Double {
        2 * Double.pi * unit()
    }

    /// Plus or minus one, with equal odds.
    public mutating func sign() -> Double {
        next() & 1 == 0 ? 1 : -1
    }

    /// A standard normal number (mean 0, standard deviation 1), by the Box-Muller transform.
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        // 1 - unit() lies in (0, 1], so the logarithm is finite.
        let radius = (-2 * log(1 - unit())).squareRoot()
        let angle = phase()
        spareGaussian = radius * sin(angle)
        return radius * cos(angle)
    }
}

/// A sinusoid with its own amplitude, frequency and phase: the building block of the activity models.
struct Wave: Sendable, Hashable {
    /// Peak value, in the unit of whatever the wave models.
    var amplitude: Double
    /// Frequency in Hz.
    var frequency: Double
    /// Phase at time zero, in radians.
    var phase: Double

    /// A wave whose amplitude and frequency are drawn from the given ranges, at a random phase.
    init(amplitude: ClosedRange<Double>, frequency: ClosedRange<Double>, using random: inout SeededRandom) {
        self.amplitude = random.uniform(amplitude)
        self.frequency = random.uniform(frequency)
        self.phase = random.phase()
    }

    /// The wave's value `seconds` after time zero.
    func value(at seconds: Double) -> Double {
        amplitude * sin(2 * Double.pi * frequency * seconds + phase)
    }
}

/// Three waves, one per axis: a small oscillating vector.
struct Wave3: Sendable, Hashable {
    var x: Wave
    var y: Wave
    var z: Wave

    /// Three independent waves drawn from the same ranges.
    init(amplitude: ClosedRange<Double>, frequency: ClosedRange<Double>, using random: inout SeededRandom) {
        x = Wave(amplitude: amplitude, frequency: frequency, using: &random)
        y = Wave(amplitude: amplitude, frequency: frequency, using: &random)
        z = Wave(amplitude: amplitude, frequency: frequency, using: &random)
    }

    /// The vector `seconds` after time zero.
    func value(at seconds: Double) -> SIMD3<Double> {
        [x.value(at: seconds), y.value(at: seconds), z.value(at: seconds)]
    }
}
