/// The second moments of the dynamic acceleration, integrated over time: (m/s²)² s. Kept as
/// running sums, so the moments of any stretch are the difference of two snapshots, with no
/// history and no allocation.
struct MotionMoments: Sendable {
    var xx = 0.0
    var yy = 0.0
    var zz = 0.0
    var xy = 0.0
    var xz = 0.0
    var yz = 0.0

    static let zero = MotionMoments()

    /// Adds `dt` seconds of the acceleration `a`.
    @inline(__always)
    mutating func add(_ a: Vector3, over dt: Double) {
        let ax = a.x * dt
        let ay = a.y * dt
        let az = a.z * dt
        xx += ax * a.x
        yy += ay * a.y
        zz += az * a.z
        xy += ax * a.y
        xz += ax * a.z
        yz += ay * a.z
    }

    /// The integral of the squared strength: the trace.
    var energy: Double { xx + yy + zz }

    /// The integral of the squared component along `u`, a unit vector.
    func energy(along u: Vector3) -> Double {
        u.x * u.x * xx + u.y * u.y * yy + u.z * u.z * zz + 2 * (u.x * u.y * xy + u.x * u.z * xz + u.y * u.z * yz)
    }

    static func - (lhs: MotionMoments, rhs: MotionMoments) -> MotionMoments {
        MotionMoments(
            xx: lhs.xx - rhs.xx, yy: lhs.yy - rhs.yy, zz: lhs.zz - rhs.zz,
            xy: lhs.xy - rhs.xy, xz: lhs.xz - rhs.xz, yz: lhs.yz - rhs.yz)
    }
}
