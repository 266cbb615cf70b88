/// The line along which the motion has mostly gone lately: the principal eigenvector of the
/// dynamic acceleration's covariance, averaged with a time-aware exponential window.
///
/// A device shaken while it tumbles or swings in an arc sees each stroke in a different direction
/// of its own frame (the device turns, and gravity's share moves between its axes), so strokes
/// do not line up end to end, yet the motion still goes back and forth along one line on the
/// whole. Projected onto this line, it does. O(1) per sample, no allocation, no libm: the
/// eigenvector is followed by one step of power iteration a sample from the last one (the window moves
/// little in a sample, and a second step changed no event on any set).
struct PrincipalAxis: Sendable {
    /// The covariance's six distinct entries, in (m/s²)².
    private var xx = 0.0, yy = 0.0, zz = 0.0, xy = 0.0, xz = 0.0, yz = 0.0
    /// The principal direction, of unit length.
    private(set) var axis = Vector3(x: 1, y: 0, z: 0)

    /// Takes in one sample of dynamic acceleration `v`, weighted `weight` (0...1) against the past.
    mutating func update(_ v: Vector3, weight: Double) {
        xx += weight * (v.x * v.x - xx)
        yy += weight * (v.y * v.y - yy)
        zz += weight * (v.z * v.z - zz)
        xy += weight * (v.x * v.y - xy)
        xz += weight * (v.x * v.z - xz)
        yz += weight * (v.y * v.z - yz)
        var e = axis
        for _ in 0..<1 {
            let n = Vector3(
                x: xx * e.x + xy * e.y + xz * e.z, y: xy * e.x + yy * e.y + yz * e.z, z: xz * e.x + yz * e.y + zz * e.z)
            let length = n.length
            guard length > 1e-12 else { break }
            e = (1 / length) * n
        }
        axis = e
    }

    /// `v`'s part along the principal axis.
    func project(_ v: Vector3) -> Vector3 { v.dot(axis) * axis }
}
