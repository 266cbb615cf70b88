#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the device is held: the two angles that place gravity in the device's axes.
///
/// Device axes as Linux IIO reports them: x to the right of the screen, y up along it, z out
/// of the screen. Lying face up on a table is pitch 0 and roll 0.
struct Attitude: Sendable, Hashable {
    /// Radians the top edge is raised from flat: 0 lies flat, π/2 stands upright.
    var pitch: Double
    /// Radians the device is turned about its long (y) axis.
    var roll: Double

    /// An attitude from angles in degrees.
    init(pitchDegrees: Double, rollDegrees: Double) {
        pitch = pitchDegrees * .pi / 180
        roll = rollDegrees * .pi / 180
    }

    init(pitch: Double, roll: Double) {
        self.pitch = pitch
        self.roll = roll
    }

    /// The unit vector, in device axes, that an accelerometer at rest reads as +1 g: "up".
    var up: SIMD3<Double> {
        [sin(roll) * cos(pitch), sin(pitch), cos(roll) * cos(pitch)]
    }

    static func + (lhs: Attitude, rhs: Attitude) -> Attitude {
        Attitude(pitch: lhs.pitch + rhs.pitch, roll: lhs.roll + rhs.roll)
    }

    static func * (weight: Double, attitude: Attitude) -> Attitude {
        Attitude(pitch: weight * attitude.pitch, roll: weight * attitude.roll)
    }

    static let flat = Attitude(pitch: 0, roll: 0)
}

/// The walker's world seen in device axes: up (against gravity), lateral and forward.
///
/// Lateral is the device's x axis laid horizontal; forward completes a right-handed frame.
/// Gait is described in these directions and turned into device axes here.
struct WorldFrame: Sendable {
    /// Against gravity, unit length.
    let up: SIMD3<Double>
    /// Horizontal, towards the device's right edge.
    let lateral: SIMD3<Double>
    /// Horizontal, at right angles to both.
    let forward: SIMD3<Double>

    /// The frame for a device whose "up" is `up` (a unit vector).
    init(up: SIMD3<Double>) {
        self.up = up
        // The device's x axis made horizontal; when x points straight up, use y instead.
        var side = Self.horizontal([1, 0, 0], up: up)
        if Self.length(side) < 1e-6 { side = Self.horizontal([0, 1, 0], up: up) }
        lateral = side / Self.length(side)
        forward = Self.cross(up, lateral)
    }

    /// A vector given in world directions, in device axes.
    func device(vertical: Double, lateral lateralPart: Double, forward forwardPart: Double) -> SIMD3<Double> {
        vertical * up + lateralPart * lateral + forwardPart * forward
    }

    private static func horizontal(_ v: SIMD3<Double>, up: SIMD3<Double>) -> SIMD3<Double> {
        v - (v * up).sum() * up
    }

    private static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
    }
}
