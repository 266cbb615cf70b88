import ShakeDetection

/// How ``ScanDecoder`` turns one scan into a ``Sample``, with every number it needs held in place.
///
/// The decoder's own description keeps its formats, offsets, calibration and mount matrix in arrays:
/// seven heap objects (the matrix alone is four). A buffered reader decodes a watermark of scans at
/// each wake-up, after 100 ms asleep, when each object is a cache miss of its own; this plan is one
/// value stored inline with the decoder. It computes exactly what ``ScanDecoder/raw(_:)``,
/// ``ScanDecoder/timestamp(_:)`` and ``SampleConverter/sample(x:y:z:timestamp:)`` compute, in the
/// same order, so the samples are the same to the bit.
struct ScanPlan: Sendable, Hashable {
    private let x: ChannelFormat
    private let y: ChannelFormat
    private let z: ChannelFormat
    private let timestamp: ChannelFormat?
    private let xAt: Int
    private let yAt: Int
    private let zAt: Int
    private let timestampAt: Int
    /// `(raw + offset) × scale` per axis.
    private let xOffset: Double, xScale: Double
    private let yOffset: Double, yScale: Double
    private let zOffset: Double, zScale: Double
    /// The mount matrix, row by row.
    private let m00: Double, m01: Double, m02: Double
    private let m10: Double, m11: Double, m12: Double
    private let m20: Double, m21: Double, m22: Double

    /// The plan for x, y, z `axes` at `offsets` (then the timestamp's, when there is one), converted by `converter`.
    init(axes: [ChannelFormat], timestamp: ChannelFormat?, offsets: [Int], converter: SampleConverter) {
        x = axes[0]
        y = axes[1]
        z = axes[2]
        self.timestamp = timestamp
        xAt = offsets[0]
        yAt = offsets[1]
        zAt = offsets[2]
        timestampAt = offsets.count > 3 ? offsets[3] : 0
        let calibration = converter.calibration
        (xOffset, xScale) = (calibration[0].offset, calibration[0].scale)
        (yOffset, yScale) = (calibration[1].offset, calibration[1].scale)
        (zOffset, zScale) = (calibration[2].offset, calibration[2].scale)
        let m = converter.mountMatrix.rows
        (m00, m01, m02) = (m[0][0], m[0][1], m[0][2])
        (m10, m11, m12) = (m[1][0], m[1][1], m[1][2])
        (m20, m21, m22) = (m[2][0], m[2][1], m[2][2])
    }

    /// The scan's own timestamp in ns, when it has one.
    @inline(__always)
    func timestamp(_ scan: UnsafeRawBufferPointer) -> Int64? {
        guard let timestamp else { return nil }
        return timestamp.decode(UnsafeRawBufferPointer(rebasing: scan[timestampAt...]))
    }

    /// The sample of the scan at the start of `scan`, stamped `time`.
    @inline(__always)
    func sample(_ scan: UnsafeRawBufferPointer, time: Int64) -> Sample {
        let cx = (Double(x.decode(UnsafeRawBufferPointer(rebasing: scan[xAt...]))) + xOffset) * xScale
        let cy = (Double(y.decode(UnsafeRawBufferPointer(rebasing: scan[yAt...]))) + yOffset) * yScale
        let cz = (Double(z.decode(UnsafeRawBufferPointer(rebasing: scan[zAt...]))) + zOffset) * zScale
        return Sample(
            timestamp: time, x: cx * m00 + cy * m01 + cz * m02, y: cx * m10 + cy * m11 + cz * m12,
            z: cx * m20 + cy * m21 + cz * m22)
    }
}
