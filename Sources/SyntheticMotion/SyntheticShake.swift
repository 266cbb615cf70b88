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
///
/// A shake need not be straight. A hand that turns at the wrist or the elbow moves the device
/// along an arc: besides the strokes, a centripetal push towards the arc's centre, always the
/// same way and strongest where the device passes the middle of its swing, fastest, between
/// one stroke and the next: twice a cycle (``curvature``). A hand that swings in an ellipse adds a second component at
/// right angles, about a quarter cycle out of step (``ellipse``, ``ellipsePhase``). Both act
/// along ``across``. ``HumanShake`` draws shakes like these from the range people use.
public struct SyntheticShake: Sendable, Hashable {
    /// Full back-and-forth cycles per second.
    public var frequency: Double
    /// Strokes (half cycles), including the two tapered ones at either end; at least 3.
    public var halfCycles: Int
    /// Peak acceleration of the full-strength strokes, in m/s².
    public var amplitude: Double
    /// The line of the shake in device axes (unit length), pointing the way of the first stroke.
    public var direction: SIMD3<Double>
    /// A unit vector at right angles to ``direction``: towards the centre of a curved shake's
    /// arc, and along the minor axis of an elliptical one.
    public var across: SIMD3<Double>
    /// How far the arc of a curved shake turns either way from its middle, in radians: the
    /// stroke's reach over the arc's radius. The centripetal push through the middle of the
    /// swing is this fraction of ``amplitude``. 0 for a straight shake.
    public var curvature: Double
    /// The minor axis of an elliptical swing as a fraction of the major (the stroke); 0 for a
    /// straight line.
    public var ellipse: Double
    /// How far the motion along the minor axis runs ahead of the stroke, in radians: π/2 for
    /// an upright ellipse; nearer 0 or π tilts it towards a line.
    public var ellipsePhase: Double

    /// Creates a shake; `direction` is normalized, `across` made unit length and at right
    /// angles to it (any such vector when nil or along `direction`), and `halfCycles` raised
    /// to 3 if smaller. With the defaults of the last four, the shake is straight.
    public init(
        frequency: Double = 4.2, halfCycles: Int = 6, amplitude: Double = 28, direction: SIMD3<Double> = [1, 0, 0],
        across: SIMD3<Double>? = nil, curvature: Double = 0, ellipse: Double = 0, ellipsePhase: Double = .pi / 2
    ) {
        precondition(frequency.isFinite && frequency > 0, "a shake's frequency must be above 0 Hz")
        let length = (direction * direction).sum().squareRoot()
        precondition(length.isFinite && length > 0, "a shake's direction must not be zero")
        precondition(curvature.isFinite && curvature >= 0, "a shake's curvature must be 0 or more")
        precondition(ellipse.isFinite && ellipse >= 0, "a shake's ellipse must be 0 or more")
        precondition(ellipsePhase.isFinite, "a shake's ellipse phase must be finite")
        self.frequency = frequency
        self.halfCycles = max(3, halfCycles)
        self.amplitude = amplitude
        self.direction = direction / length
        self.across = perpendicular(to: direction / length, preferring: across)
        self.curvature = curvature
        self.ellipse = ellipse
        self.ellipsePhase = ellipsePhase
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

    /// How far the hand moves either way of the middle at full strength, in metres: the
    /// amplitude over the angular frequency squared.
    public var displacement: Double {
        let radiansPerSecond = 2 * Double.pi * frequency
        return amplitude / (radiansPerSecond * radiansPerSecond)
    }

    /// The shake's acceleration `seconds` after it began, in device axes (m/s²); zero outside it.
    ///
    /// The stroke is `amplitude · envelope · sin(ωt)` along ``direction``. Along ``across``:
    /// - the centripetal push of an arc, `curvature · amplitude · (envelope · cos ωt)²`: the
    ///   speed along the arc squared over its radius, always towards the centre;
    /// - the minor axis of an ellipse, the rate of change of the velocity
    ///   `-(ellipse · amplitude / ω) · envelope · cos(ωt + ellipsePhase)`. Taken from the
    ///   velocity so that the hand ends the shake at rest whatever the phase: the stroke's own
    ///   form does that only because its sine is odd about the shake's middle.
    public func acceleration(at seconds: Double) -> SIMD3<Double> {
        let strength = amplitude * envelope(at: seconds) * sin(2 * Double.pi * frequency * seconds)
        guard curvature > 0 || ellipse > 0, seconds > 0 && seconds < duration else { return strength * direction }
        let radiansPerSecond = 2 * Double.pi * frequency
        let phase = radiansPerSecond * seconds
        let level = envelope(at: seconds)
        let swing = level * cos(phase)
        var sideways = curvature * amplitude * swing * swing
        if ellipse > 0 {
            let minor = phase + ellipsePhase
            sideways +=
                ellipse * amplitude
                * (level * sin(minor) - envelopeSlope(at: seconds) / radiansPerSecond * cos(minor))
        }
        return strength * direction + sideways * across
    }

    /// How far a curved shake has turned the device along its arc `seconds` after it began, in radians:
    /// the hand's place on the line over the arc's radius, `-curvature · envelope · sin(ωt)` (0 for a
    /// straight shake). The device turns with the arc about the axis at right angles to ``direction`` and
    /// ``across``, and gravity turns the other way in its axes.
    public func turn(at seconds: Double) -> Double {
        guard curvature > 0, seconds > 0 && seconds < duration else { return 0 }
        return -curvature * envelope(at: seconds) * sin(2 * Double.pi * frequency * seconds)
    }

    /// The rate of change of ``envelope(at:)``, per second.
    func envelopeSlope(at seconds: Double) -> Double {
        guard seconds > 0 && seconds < duration else { return 0 }
        let taper = halfPeriod
        let rising = seconds < taper
        let edge = rising ? seconds : duration - seconds
        guard edge < taper else { return 0 }
        // d/dt sin²(π e / 2τ) = (π / 2τ) sin(π e / τ), negative on the falling side.
        let slope = Double.pi / (2 * taper) * sin(Double.pi * edge / taper)
        return rising ? slope : -slope
    }
}

/// A unit vector at right angles to the unit vector `line`: `preferred` with its part along
/// `line` removed, or, when that leaves (almost) nothing, the cross product of `line` with the
/// device axis it lies least along.
func perpendicular(to line: SIMD3<Double>, preferring preferred: SIMD3<Double>?) -> SIMD3<Double> {
    if let preferred {
        let rest = preferred - (preferred * line).sum() * line
        let length = (rest * rest).sum().squareRoot()
        if length.isFinite && length > 1e-9 { return rest / length }
    }
    let magnitudes = SIMD3(abs(line.x), abs(line.y), abs(line.z))
    let axis: SIMD3<Double> =
        magnitudes.x <= magnitudes.y && magnitudes.x <= magnitudes.z
        ? [1, 0, 0] : (magnitudes.y <= magnitudes.z ? [0, 1, 0] : [0, 0, 1])
    let normal = cross(line, axis)
    return normal / (normal * normal).sum().squareRoot()
}

/// The cross product `a × b`.
func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
}
