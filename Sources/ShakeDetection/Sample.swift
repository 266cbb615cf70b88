/// One accelerometer reading.
///
/// Acceleration includes gravity and is given in m/s² in the device's own frame (after any
/// mount-matrix correction). A device lying still reads about 9.81 m/s² in total.
public struct Sample: Sendable, Hashable {
    /// Monotonic timestamp in nanoseconds. Only differences between samples matter.
    public var timestamp: Int64
    /// Acceleration along the device's x axis, in m/s².
    public var x: Double
    /// Acceleration along the device's y axis, in m/s².
    public var y: Double
    /// Acceleration along the device's z axis, in m/s².
    public var z: Double

    /// Creates a sample from a timestamp in nanoseconds and three axes in m/s².
    public init(timestamp: Int64, x: Double, y: Double, z: Double) {
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.z = z
    }

    /// Creates a sample from a timestamp in seconds, as trace files store it.
    public init(seconds: Double, x: Double, y: Double, z: Double) {
        self.init(timestamp: Int64((seconds * 1e9).rounded()), x: x, y: y, z: z)
    }

    /// The timestamp in seconds.
    public var seconds: Double { Double(timestamp) / 1e9 }

    /// The length of the acceleration vector, in m/s².
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// Standard gravity, in m/s².
public let standardGravity = 9.80665
