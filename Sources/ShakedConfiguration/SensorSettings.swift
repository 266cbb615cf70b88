import TextSafety

extension ShakedSettings {
    /// `[Sensor]`: which accelerometer to read, and how.
    public struct Sensor: Sendable, Equatable {
        /// How the sensor is read.
        public enum Mode: String, Sendable, CaseIterable {
            /// Through the IIO buffer when the device has one (falling back to polling when it stays
            /// silent), else by polling.
            case auto
            /// Through the IIO buffer only; an error if the device has none.
            case buffered
            /// By polling `in_accel_*_raw` only.
            case polled
        }

        /// Who keeps the accelerometer when the kernel lets only one reader have it (`Priority=`).
        public enum Priority: String, Sendable, CaseIterable {
            /// Screen rotation: shaked leaves iio-sensor-proxy's buffer alone and says why it cannot read.
            case rotation
            /// Shake to undo: shaked takes the buffer, and iio-sensor-proxy stops rotating the screen.
            case shake
        }

        /// The accelerometer to use (`Device=`): its IIO name, label, sysfs name (`iio:device0`), sysfs
        /// path or device node; nil (an empty string in the file) for the first accelerometer found.
        public var device: String?
        /// The wanted sampling rate in Hz (`Rate=`); the device runs at the nearest rate it offers at or above it.
        public var rate: Double = 100
        /// How many times a second the sensor is polled when it is read by polling (`PollingRate=`): beside a
        /// rotation service, or on a device with no IIO buffer. 60 Hz keeps every shake of the recorded sets
        /// that 100 Hz finds (docs/sensors.md), at six tenths of the cost.
        public var pollingRate: Double = 60
        /// How to read the sensor (`Mode=`): buffered when possible by default.
        public var mode = Mode.auto
        /// Rows of a 3×3 matrix that replaces the mount matrix from udev and sysfs (`MountMatrix=`); nil
        /// to use the device's own. Always a rotation or reflection (see ``MountMatrixCheck``).
        public var mountMatrix: [[Double]]?
        /// Who keeps the accelerometer when only one reader can have it (`Priority=`).
        public var priority = Priority.rotation

        /// The allowed rates, in Hz.
        public static let rates: ClosedRange<Double> = 10...1000
        /// The allowed polling rates, in Hz: the rates the detector is documented to work at.
        public static let pollingRates: ClosedRange<Double> = 25...200

        /// Creates sensor settings: the first accelerometer at 100 Hz (polled at 60 Hz), buffered when possible, its own
        /// mount matrix.
        public init() {}
    }
}

/// Checks a mount matrix override: three rows of three finite numbers forming a rotation or reflection.
///
/// A mount matrix only turns or mirrors the sensor's axes onto the device's. A matrix that scales
/// would change every acceleration, and the detector's thresholds are in m/s², so rows must have
/// length 1 and stand at right angles to each other (within 0.05, so that 0.7071 passes for √½).
public enum MountMatrixCheck {
    /// How far a row's length or a cosine between rows may stray from the ideal.
    public static let tolerance = 0.05

    /// What is wrong with the matrix, or nil when it is a usable mount matrix.
    public static func problem(_ rows: [[Double]]) -> String? {
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else {
            let shape = rows.map { String($0.count) }.joined(separator: ", ")
            return "must be 3 rows of 3 numbers, such as 0, 1, 0; 1, 0, 0; 0, 0, 1; "
                + "this one has \(rows.count) rows (of \(shape.isEmpty ? "no" : shape) numbers)"
        }
        for (index, row) in rows.enumerated() where !row.allSatisfy(\.isFinite) {
            return "row \(index + 1) holds a number that is not finite; use plain numbers such as 0, 1 or -1"
        }
        let determinant = determinant(rows)
        if abs(determinant) < 1e-6 {
            return "is singular (determinant 0): a row is zero or two rows point the same way, so some "
                + "device axis would get no reading; give each device axis its own sensor axis"
        }
        for (index, row) in rows.enumerated() {
            let length = dot(row, row).squareRoot()
            if abs(length - 1) > tolerance {
                return "row \(index + 1) has length \(format(length)), not 1: a mount matrix may only turn or "
                    + "mirror axes, because scaling would change the accelerations the detector compares "
                    + "with its thresholds in m/s²"
            }
        }
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let cosine = dot(rows[a], rows[b]) / (dot(rows[a], rows[a]) * dot(rows[b], rows[b])).squareRoot()
            if abs(cosine) > tolerance {
                return "rows \(a + 1) and \(b + 1) are not at right angles (cosine \(format(cosine))): "
                    + "the device axes must stay perpendicular, as a rotation or reflection keeps them"
            }
        }
        return nil
    }

    /// The determinant of a 3×3 matrix.
    static func determinant(_ m: [[Double]]) -> Double {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    private static func dot(_ a: [Double], _ b: [Double]) -> Double {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return formatNumber(rounded)
    }
}
