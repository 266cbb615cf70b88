import ShakeDetection

/// Turns raw readings into ``Sample``s: per-axis calibration, then the mount matrix.
///
/// Pure and allocation-free, so it is tested with tables and no device.
public struct SampleConverter: Sendable, Hashable {
    /// x, y, z calibration.
    public var calibration: [AxisCalibration]
    /// Applied after calibration, turning the sensor's frame into the device's.
    public var mountMatrix: MountMatrix

    /// Creates a converter.
    public init(calibration: [AxisCalibration], mountMatrix: MountMatrix) {
        precondition(calibration.count == 3, "one calibration per axis")
        self.calibration = calibration
        self.mountMatrix = mountMatrix
    }

    /// The sample for raw x, y, z readings taken at `timestamp` (ns).
    @inline(__always)
    public func sample(x: Int64, y: Int64, z: Int64, timestamp: Int64) -> Sample {
        let v = mountMatrix.apply(
            x: calibration[0].convert(x), y: calibration[1].convert(y), z: calibration[2].convert(z))
        return Sample(timestamp: timestamp, x: v.x, y: v.y, z: v.z)
    }
}

/// Decodes IIO scans (x, y, z and an optional timestamp) from the bytes of a buffer.
public struct ScanDecoder: Sendable, Hashable {
    /// The x, y, z channel formats.
    public let axes: [ChannelFormat]
    /// The timestamp channel's format, when the scan has one.
    public let timestamp: ChannelFormat?
    /// Offsets of x, y, z and (last) the timestamp within a scan.
    public let offsets: [Int]
    /// The size of one scan in bytes.
    public let scanBytes: Int
    /// Raw to m/s², and the mount matrix.
    public let converter: SampleConverter
    /// All of the above that decoding a scan needs, in place (see ``ScanPlan``).
    private let plan: ScanPlan

    /// Lays out the scan of x, y, z, optionally a timestamp channel, and any other channels enabled
    /// with them (another process's buffer may have every scan element enabled), which take room in
    /// the scan but are not decoded.
    public init(
        axes: [ScanChannel], timestamp: ScanChannel?, alsoEnabled: [ScanChannel] = [], converter: SampleConverter
    ) {
        precondition(axes.count == 3, "x, y and z")
        let decoded = axes + (timestamp.map { [$0] } ?? [])
        let layout = ScanLayout(decoded + alsoEnabled)
        self.axes = axes.map(\.format)
        self.timestamp = timestamp?.format
        self.offsets = Array(layout.offsets.prefix(decoded.count))
        self.scanBytes = layout.scanBytes
        self.converter = converter
        plan = ScanPlan(axes: self.axes, timestamp: self.timestamp, offsets: self.offsets, converter: converter)
    }

    /// The raw x, y, z values of the scan at the start of `scan`.
    @inline(__always)
    public func raw(_ scan: UnsafeRawBufferPointer) -> (x: Int64, y: Int64, z: Int64) {
        (
            axes[0].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[0]...])),
            axes[1].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[1]...])),
            axes[2].decode(UnsafeRawBufferPointer(rebasing: scan[offsets[2]...]))
        )
    }

    /// The scan's own timestamp in ns, when it has one.
    @inline(__always)
    public func timestamp(_ scan: UnsafeRawBufferPointer) -> Int64? {
        guard let timestamp else { return nil }
        return timestamp.decode(UnsafeRawBufferPointer(rebasing: scan[offsets[3]...]))
    }

    /// Decodes whole scans from `bytes`, appending samples; returns how many bytes were used.
    ///
    /// Scans without a timestamp channel are stamped `readTime` for the last and spaced by the
    /// clock's period before it. Every time goes through `clock`, so times only go forward, by
    /// plausible steps, whatever the device's timestamp channel says.
    public func decode(
        _ bytes: UnsafeRawBufferPointer, readTime: Int64, clock: inout TimestampGuard, into samples: inout [Sample]
    ) -> Int {
        let count = bytes.count / scanBytes
        for i in 0..<count {
            let scan = UnsafeRawBufferPointer(rebasing: bytes[(i * scanBytes)..<((i + 1) * scanBytes)])
            let (behind, overflow) = Int64(count - 1 - i).multipliedReportingOverflow(by: clock.period)
            let fallback = overflow ? Int64.min : readTime &- behind
            let time = clock.next(device: plan.timestamp(scan), fallback: fallback)
            samples.append(plan.sample(scan, time: time))
        }
        return count * scanBytes
    }

    /// Encodes one scan as a driver would (for fixtures, tests and benchmarks).
    public func encode(x: Int64, y: Int64, z: Int64, timestamp: Int64?, into scan: UnsafeMutableRawBufferPointer) {
        for i in 0..<scan.count { scan[i] = 0 }
        axes[0].encode(x, into: UnsafeMutableRawBufferPointer(rebasing: scan[offsets[0]...]))
        axes[1].encode(y, into: UnsafeMutableRawBufferPointer(rebasing: scan[offsets[1]...]))
        axes[2].encode(z, into: UnsafeMutableRawBufferPointer(rebasing: scan[offsets[2]...]))
        if let format = self.timestamp, let timestamp {
            format.encode(timestamp, into: UnsafeMutableRawBufferPointer(rebasing: scan[offsets[3]...]))
        }
    }
}
