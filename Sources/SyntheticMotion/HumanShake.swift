import ShakeDetection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One person shaking a phone to undo: the device held still, then a shake drawn from the
/// whole range people use, then held still again.
///
/// ``person(using:)`` draws the shake from these ranges, and they hang together the way a
/// hand's motion does:
/// - **Frequency 1.7-7 Hz.** A slow, wide shake from the elbow goes down to about 1.7 Hz; slower is
///   a wave or a swing of the arm. A voluntary back-and-forth of the wrist or forearm tops out around
///   7 Hz, and the 8-12 Hz of physiological tremor is not under the person's control at all.
/// - **Reach 2-12 cm either way of the middle.** A flick of the wrist moves a phone in the palm
///   a couple of centimetres; a shake driven from the elbow, up to about 12 (the phone 35-45 cm
///   from the elbow, the forearm turning up to 15-20° either way). Further than that the whole arm
///   swings.
/// - **Peak acceleration from the two.** A sinusoid of reach d at f Hz peaks at
///   A = (2πf)² · d, kept within 0.5-6 g. So a gentle shake is a slow one (0.8 g needs 3.2 Hz
///   or less) and a vigorous one fast (4 g needs 2.9 Hz or more): at 1.7 Hz the reach must be
///   4.3-12 cm (0.5-1.4 g), at 7 Hz 2-3 cm (3.9-6 g). A vigorous shake clips a phone's ±2 g or
///   ±4 g sensor on its main axis (``samples(rate:range:noise:)`` clips as the sensor does).
///   7 Hz at 0.5 g would be a 2.5 mm tremor, and 2 Hz at 6 g a 37 cm swing; neither is drawn.
///   (``SyntheticShake/random(using:)``, 4.2 Hz at 2.9 g, reaches 4 cm: the middle of this.)
///   Below 0.5 g a person is barely moving the device; above 6 g the sensor clips anyway.
/// - **0.8-6 s long**, log-uniform (most shakes are short, a few go on), in whole cycles, so
///   the hand ends where it turned back, at rest.
/// - **Any line.** A third lie within 30° of gravity (shaking up and down, where the hand
///   works against gravity one way), the rest anywhere.
/// - **Straight, curved or elliptical,** each of the last two in half the shakes, at random:
///   - curved, along an arc about the wrist or the elbow, 10-45 cm from the phone's middle,
///     turning at most 0.8 rad (46°) either way: the centripetal push is at most 0.8 of the
///     stroke, and the device turns with the arc, so gravity swings through its axes
///     (``gravityDirection(at:)``): the axis of the shake wobbles;
///   - elliptical, the minor axis 0.1-0.5 of the major, 60-120° out of step with it.
///
/// The device is held from lying in the palm (10° below flat) to upright (90°), in portrait or
/// in landscape either way (roll ±90°), 2-3 s still before the shake and after it; held
/// still, it trembles and sways as a hand does (the ``Activity/holding`` model: tremor at
/// 8.5-11.5 Hz of about 0.1 m/s², sway of 0.08-0.25 m/s² below 1 Hz). ``samples(rate:range:noise:)``
/// records it.
///
/// Not modelled: the turn of a curved shake's own strokes with the device (their direction is kept);
/// gravity's turn, the larger part, is.
public struct HumanShake: Sendable, Hashable {
    /// The shake itself, in device axes.
    public var shake: SyntheticShake
    /// "Up" in device axes while the device is held (unit length): an accelerometer at rest
    /// reads +1 g along it.
    public var up: SIMD3<Double>
    /// Seconds the device is held still before the shake; the shake starts at this time.
    public var stillBefore: Double
    /// Seconds the device is held still after the shake.
    public var stillAfter: Double
    /// Picks the hand's tremor and sway and the sensor's noise.
    public var seed: UInt64

    /// Creates a recording plan; `up` is normalized.
    public init(shake: SyntheticShake, up: SIMD3<Double>, stillBefore: Double, stillAfter: Double, seed: UInt64) {
        let length = (up * up).sum().squareRoot()
        precondition(length.isFinite && length > 0, "up must not be zero")
        precondition(stillBefore >= 0 && stillAfter >= 0, "the still stretches must be 0 s or longer")
        self.shake = shake
        self.up = up / length
        self.stillBefore = stillBefore
        self.stillAfter = stillAfter
        self.seed = seed
    }

    /// Shake frequencies people use, Hz.
    public static let frequencies: ClosedRange<Double> = 1.7...7
    /// How far the hand moves either way of the middle, m.
    public static let displacements: ClosedRange<Double> = 0.02...0.12
    /// Peak acceleration of the full-strength strokes, m/s² (0.5-6 g).
    public static let peaks: ClosedRange<Double> = (0.5 * standardGravity)...(6 * standardGravity)
    /// How long a shake lasts, s.
    public static let durations: ClosedRange<Double> = 0.8...6
    /// Radius of a curved shake's arc, m: the wrist to the phone's middle, up to the elbow to it.
    public static let arcRadii: ClosedRange<Double> = 0.10...0.45
    /// How far a curved shake's arc turns either way, radians (its ``SyntheticShake/curvature``).
    public static let maximumCurvature = 0.8
    /// Minor axis over major of an elliptical shake.
    public static let ellipses: ClosedRange<Double> = 0.1...0.5
    /// How far the minor axis runs ahead of the major, radians (60-120°).
    public static let ellipsePhases: ClosedRange<Double> = (Double.pi / 3)...(2 * Double.pi / 3)
    /// A shake "along gravity" lies within this many degrees of it.
    public static let alongGravityDegrees = 30.0
    /// Seconds the device is held still before and after the shake.
    public static let stillness: ClosedRange<Double> = 2...3

    /// A person shaking from stillness, drawn from the ranges in the type's description.
    public static func person(using random: inout SeededRandom) -> HumanShake {
        let degree = Double.pi / 180
        let hold = Attitude(pitchDegrees: random.uniform(-10...90), rollDegrees: random.uniform(-90...90))
        let up = hold.up

        // Frequency, then a reach that keeps the peak within range at that frequency.
        let frequency = random.uniform(frequencies)
        let radiansPerSecond = 2 * Double.pi * frequency
        let stiffness = radiansPerSecond * radiansPerSecond
        let shortest = max(displacements.lowerBound, peaks.lowerBound / stiffness)
        let longest = min(displacements.upperBound, peaks.upperBound / stiffness)
        let reach = random.uniform(shortest...longest)
        let wanted = durations.lowerBound * exp(random.unit() * log(durations.upperBound / durations.lowerBound))
        let fewest = max(2, Int((durations.lowerBound * frequency).rounded(.up)))
        let most = Int((durations.upperBound * frequency).rounded(.down))
        let cycles = min(most, max(fewest, Int((wanted * frequency).rounded())))

        // The line: a third within 30° of gravity, the rest anywhere; either way first.
        var line: SIMD3<Double>
        if random.unit() < 1.0 / 3 {
            let tilt = acos(random.uniform(cos(alongGravityDegrees * degree)...1))
            line = cos(tilt) * up + sin(tilt) * around(up, angle: random.phase())
        } else {
            let height = random.uniform(-1...1)
            let azimuth = random.phase()
            let flat = (1 - height * height).squareRoot()
            line = [flat * cos(azimuth), flat * sin(azimuth), height]
        }
        line *= random.sign()
        let across = around(line, angle: random.phase())

        var curvature = 0.0
        if random.unit() < 0.5 {
            let radius = random.uniform(max(arcRadii.lowerBound, reach / maximumCurvature)...arcRadii.upperBound)
            curvature = reach / radius
        }
        var ellipse = 0.0
        var ellipsePhase = Double.pi / 2
        if random.unit() < 0.5 {
            ellipse = random.uniform(ellipses)
            ellipsePhase = random.uniform(ellipsePhases)
        }
        let shake = SyntheticShake(
            frequency: frequency, halfCycles: 2 * cycles, amplitude: stiffness * reach, direction: line,
            across: across, curvature: curvature, ellipse: ellipse, ellipsePhase: ellipsePhase)
        return HumanShake(
            shake: shake, up: up, stillBefore: random.uniform(stillness), stillAfter: random.uniform(stillness),
            seed: random.next())
    }

    /// When the shake starts, in seconds from the first sample.
    public var shakeStart: Double { stillBefore }
    /// When the shake ends, in seconds from the first sample.
    public var shakeEnd: Double { stillBefore + shake.duration }
    /// The whole recording's length, in seconds.
    public var seconds: Double { shakeEnd + stillAfter }

    /// The angle between the shake's line and gravity's, in degrees (0-90).
    public var degreesFromGravity: Double {
        let cosine = min(1, abs((shake.direction * up).sum()))
        return acos(cosine) * 180 / Double.pi
    }

    /// Whether the shake is up and down: within ``alongGravityDegrees`` of gravity.
    public var isAlongGravity: Bool { degreesFromGravity <= Self.alongGravityDegrees }

    /// The specific force the device feels `seconds` after the start, in device axes (m/s²),
    /// before the sensor samples and clips it: gravity, the holding hand, and the shake.
    func specificForce(at seconds: Double, hand: ActivityModels, frame: WorldFrame) -> SIMD3<Double> {
        standardGravity * gravityDirection(at: seconds) + hand.dynamic(ActivityWeights(holding: 1), at: seconds, frame: frame)
            + shake.acceleration(at: seconds - stillBefore)
    }

    /// "Up" in device axes `seconds` after the start: ``up``, turned by a curved shake's arc
    /// (``SyntheticShake/turn(at:)``) the other way from the device.
    public func gravityDirection(at seconds: Double) -> SIMD3<Double> {
        let angle = -shake.turn(at: seconds - stillBefore)
        guard angle != 0 else { return up }
        let axis = cross(shake.direction, shake.across)
        // Rodrigues' rotation of `up` about `axis` by `angle`.
        return cos(angle) * up + sin(angle) * cross(axis, up) + (1 - cos(angle)) * (axis * up).sum() * axis
    }

    /// The whole recording as a sensor takes it: each sample the mean over its period, plus
    /// Gaussian noise (`noise` m/s² on each axis), clipped at ±`range` per axis. Timestamps
    /// start at 0; the shake starts at ``shakeStart``.
    public func samples(rate: Double, range: Double, noise: Double = 0.04) -> [Sample] {
        precondition(rate.isFinite && (1...10_000).contains(rate), "the rate must lie in 1...10000 Hz")
        precondition(range > 0 && noise >= 0, "the range must be above 0 and the noise 0 m/s² or more")
        var random = SeededRandom(seed: seed)
        let hand = ActivityModels(using: &random)
        let frame = WorldFrame(up: up)
        return SensorModel(rate: rate, range: range, noise: noise).samples(seconds: seconds, seed: seed) {
            specificForce(at: $0, hand: hand, frame: frame)
        }
    }
}

/// A unit vector at right angles to the unit vector `axis`, turned by `angle` about it from a
/// fixed starting direction: a random `angle` gives a random direction across `axis`.
private func around(_ axis: SIMD3<Double>, angle: Double) -> SIMD3<Double> {
    let first = perpendicular(to: axis, preferring: nil)
    let second = cross(axis, first)
    return cos(angle) * first + sin(angle) * second
}
