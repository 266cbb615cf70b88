import Foundation
import Testing

@testable import ShakeDetection

/// The principal axis the detector's second view follows (docs/detector.md, "How it decides", item 7).
@Suite struct PrincipalAxisTests {
    /// A unit vector along (x, y, z).
    static func unit(_ x: Double, _ y: Double, _ z: Double) -> Vector3 {
        let v = Vector3(x: x, y: y, z: z)
        return (1 / v.length) * v
    }

    @Test(
        "strokes along a line, with motion across it that turns, leave the axis on the line within a second",
        arguments: [(1.0, 2.0, -1.0), (0.0, 0.0, 1.0), (-3.0, 1.0, 0.5)], [50.0, 100.0, 200.0])
    func findsTheLine(direction: (Double, Double, Double), rate: Double) {
        let line = Self.unit(direction.0, direction.1, direction.2)
        // Two directions across the line, for a cross motion that turns at another frequency.
        let helper = abs(line.x) < 0.9 ? Vector3(x: 1, y: 0, z: 0) : Vector3(x: 0, y: 1, z: 0)
        let across1 = Self.unit(helper.x - helper.dot(line) * line.x, helper.y - helper.dot(line) * line.y,
            helper.z - helper.dot(line) * line.z)
        let across2 = Vector3(
            x: line.y * across1.z - line.z * across1.y, y: line.z * across1.x - line.x * across1.z,
            z: line.x * across1.y - line.y * across1.x)
        var axis = PrincipalAxis()
        let dt = 1 / rate
        for i in 0..<Int(rate) {
            let t = Double(i) * dt
            let along = 15 * sin(2 * Double.pi * 4 * t)
            let turn = 2 * Double.pi * 6.5 * t
            let v = along * line + (7 * cos(turn)) * across1 + (7 * sin(turn)) * across2
            axis.update(v, weight: dt / (1 + dt))
        }
        #expect(abs(axis.axis.dot(line)) > 0.97, "axis \(axis.axis) against the line \(line)")
        // Projected, the cross motion all but goes: what is left is the part along the line.
        let projected = axis.project(3 * line + 5 * across1)
        #expect((projected - (projected.dot(line) >= 0 ? 3 : -3) * line).length < 0.5, "\(projected)")
    }

    @Test("no motion leaves the axis where it was, and finite")
    func stillness() {
        var axis = PrincipalAxis()
        for _ in 0..<100 { axis.update(.zero, weight: 0.01) }
        #expect(axis.axis == Vector3(x: 1, y: 0, z: 0))
    }
}
