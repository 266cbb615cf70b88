import TextSafety

/// How a sensor is mounted relative to the device: a 3×3 matrix applied to every reading.
///
/// Read as iio-sensor-proxy does: the udev property `ACCEL_MOUNT_MATRIX` (from systemd's
/// `60-sensor.hwdb`) first, then the sysfs attributes `mount_matrix`, `in_accel_mount_matrix`
/// and `in_mount_matrix`, else the identity. The text form is
/// `"x1, y1, z1; x2, y2, z2; x3, y3, z3"`; the device-frame reading is
/// `out.x = x*m[0][0] + y*m[0][1] + z*m[0][2]`, and so on for y and z.
public struct MountMatrix: Sendable, Hashable, CustomStringConvertible {
    /// The rows of the matrix.
    public var rows: [[Double]]

    /// The matrix that changes nothing.
    public static let identity = MountMatrix(uncheckedRows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    private init(uncheckedRows rows: [[Double]]) {
        self.rows = rows
    }

    /// The largest magnitude an entry may have: a mount matrix is a rotation (entries within ±1),
    /// perhaps with a small correction; anything beyond this is a mistake, not a mounting.
    public static let largestEntry = 10.0

    /// Creates a matrix from three rows of three numbers within ±``largestEntry``, no row all zero.
    public init?(rows: [[Double]]) {
        guard rows.count == 3,
            rows.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isFinite && abs($0) <= Self.largestEntry } }),
            !rows.contains(where: { $0.allSatisfy { $0 == 0 } })
        else { return nil }
        self.rows = rows
    }

    /// Parses the `"x1, y1, z1; x2, y2, z2; x3, y3, z3"` form; an empty text is the identity.
    ///
    /// Returns nil for anything else: a wrong count of rows or numbers, a word, NaN or infinity,
    /// an entry beyond ±``largestEntry``, an all-zero row.
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            self = .identity
            return
        }
        guard let rows = matrixRows(trimmed) else { return nil }
        self.init(rows: rows)
    }

    /// Applies the matrix to a reading in the sensor's frame, giving the device's frame.
    @inline(__always)
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double) {
        (
            x * rows[0][0] + y * rows[0][1] + z * rows[0][2],
            x * rows[1][0] + y * rows[1][1] + z * rows[1][2],
            x * rows[2][0] + y * rows[2][1] + z * rows[2][2]
        )
    }

    /// Whether this is the identity.
    public var isIdentity: Bool { self == .identity }

    /// The text form, `"1, 0, 0; 0, 1, 0; 0, 0, 1"`.
    public var description: String {
        matrixText(rows)
    }
}
