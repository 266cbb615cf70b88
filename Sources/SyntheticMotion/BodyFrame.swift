import ShakeDetection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rotation of 3-D vectors, as the three rows of its matrix.
///
/// The whole-body models place the device with these: the world has z up, x forward and y to
/// the left; a body part's rotation maps its own axes into the world.
struct Rotation: Sendable, Hashable {
    var row0: SIMD3<Double>
    var row1: SIMD3<Double>
    var row2: SIMD3<Double>

    static let identity = Rotation(row0: [1, 0, 0], row1: [0, 1, 0], row2: [0, 0, 1])

    /// The rotation by `angle` radians about `axis` (a unit vector), right-handed (Rodrigues' formula).
    static func about(_ axis: SIMD3<Double>, angle: Double) -> Rotation {
        let (x, y, z) = (axis.x, axis.y, axis.z)
        let c = cos(angle)
        let s = sin(angle)
        let t = 1 - c
        return Rotation(
            row0: [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            row1: [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            row2: [t * x * z - s * y, t * y * z + s * x, t * z * z + c])
    }

    /// The rotated vector.
    func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        [(row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum()]
    }

    /// The inverse rotation.
    var transposed: Rotation {
        Rotation(
            row0: [row0.x, row1.x, row2.x], row1: [row0.y, row1.y, row2.y], row2: [row0.z, row1.z, row2.z])
    }

    /// `lhs` after `rhs`: `(lhs * rhs).apply(v) == lhs.apply(rhs.apply(v))`.
    static func * (lhs: Rotation, rhs: Rotation) -> Rotation {
        let t = rhs.transposed
        return Rotation(
            row0: [(lhs.row0 * t.row0).sum(), (lhs.row0 * t.row1).sum(), (lhs.row0 * t.row2).sum()],
            row1: [(lhs.row1 * t.row0).sum(), (lhs.row1 * t.row1).sum(), (lhs.row1 * t.row2).sum()],
            row2: [(lhs.row2 * t.row0).sum(), (lhs.row2 * t.row1).sum(), (lhs.row2 * t.row2).sum()])
    }
}

/// World directions: up (against gravity), forward, and to the body's left.
enum World {
    static let up: SIMD3<Double> = [0, 0, 1]
    static let forward: SIMD3<Double> = [1, 0, 0]
    static let left: SIMD3<Double> = [0, 1, 0]
}

/// How a phone sits in a front trouser pocket: its axes in the thigh's.
///
/// The thigh's axes are x to the body's left, y along the thigh towards the hip and z forward,
/// out of the leg. The phone stands along the thigh, screen out or in, either end up, turned
/// in the pocket's plane by up to 25°.
struct PocketMount: Sendable, Hashable {
    /// Maps device axes to thigh axes.
    let deviceToThigh: Rotation
    /// Distance from the hip joint down the thigh to the phone, in metres.
    let depth: Double

    init(using random: inout SeededRandom) {
        let degree = Double.pi / 180
        var turn = random.uniform((-25 * degree)...(25 * degree))
        if random.unit() < 0.5 { turn += .pi }  // upside down
        var rotation = Rotation.about([0, 0, 1], angle: turn)
        if random.unit() < 0.5 { rotation = Rotation.about([0, 1, 0], angle: .pi) * rotation }  // screen to the leg
        deviceToThigh = rotation
        depth = random.uniform(0.12...0.25)
    }

    /// The thigh's axes in the world for a thigh raised forward by `flexion` and out sideways by
    /// `abduction` (radians), on a body turned by `yaw` about the vertical and rolled by `roll`
    /// about the forward axis (a fall onto the side).
    static func thighToWorld(flexion: Double, abduction: Double = 0, yaw: Double = 0, roll: Double = 0) -> Rotation {
        // Thigh x, y, z are world left, up, forward when standing.
        let standing = Rotation(row0: [0, 0, 1], row1: [1, 0, 0], row2: [0, 1, 0])
        return Rotation.about(World.forward, angle: roll) * Rotation.about(World.up, angle: yaw)
            * Rotation.about(World.forward, angle: abduction) * Rotation.about(World.left, angle: -flexion) * standing
    }
}

/// A sensor sampling a continuous specific force: each sample averages the signal over its own
/// sample period in steps of 2 ms (clipping each step at the range, as the converter does), then
/// adds noise and clips again. Short impacts are smeared over a sample, not lost between samples.
struct SensorModel: Sendable {
    var rate: Double
    var range: Double
    var noise: Double

    /// Samples `seconds` of `force` (device axes, m/s², as a function of seconds).
    func samples(seconds: Double, seed: UInt64, _ force: (Double) -> SIMD3<Double>) -> [Sample] {
        var random = SeededRandom(seed: seed ^ 0x5EED_0F_5E45_0125)
        let count = max(0, Int(seconds * rate))
        let steps = max(1, Int((500 / rate).rounded(.up)))
        let limit = SIMD3<Double>(repeating: range)
        var out: [Sample] = []
        out.reserveCapacity(count)
        for index in 0..<count {
            let t = Double(index) / rate
            var sum = SIMD3<Double>.zero
            for step in 0..<steps {
                let value = force(t - Double(step) / (Double(steps) * rate))
                sum += value.clamped(lowerBound: -limit, upperBound: limit)
            }
            var value = sum / Double(steps)
            if noise > 0 { value += noise * SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) }
            value = value.clamped(lowerBound: -limit, upperBound: limit)
            out.append(Sample(timestamp: Int64((t * 1e9).rounded()), x: value.x, y: value.y, z: value.z))
        }
        return out
    }
}
