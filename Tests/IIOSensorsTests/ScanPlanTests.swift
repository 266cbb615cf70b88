import ShakeDetection
import Testing

@testable import IIOSensors

/// ``ScanDecoder`` decodes through its ``ScanPlan`` (every number in place, for a reading thread that wakes
/// from cold caches): the samples must be, to the bit, those of its own `raw`, `timestamp` and
/// ``SampleConverter`` (the arrays), whatever the formats, offsets, calibration and mount matrix.
@Suite struct ScanPlanTests {
    struct Layout {
        var axes: [String]
        var timestamp: String?
        var alsoEnabled: [String] = []
        var calibration: [AxisCalibration]
        var matrix: String
    }

    static let layouts: [Layout] = [
        Layout(
            axes: ["le:s16/16>>0", "le:s16/16>>0", "le:s16/16>>0"], timestamp: "le:s64/64>>0",
            calibration: Array(repeating: AxisCalibration(scale: 0.000598550), count: 3), matrix: ""),
        Layout(
            axes: ["be:s12/16>>4", "be:s12/16>>4", "be:s12/16>>4"], timestamp: nil,
            calibration: [
                AxisCalibration(scale: 0.0098, offset: -3.5), AxisCalibration(scale: 0.0098, offset: 2),
                AxisCalibration(scale: 0.0196),
            ], matrix: "0, -1, 0; 1, 0, 0; 0, 0, -1"),
        // Each axis its own format, a channel enabled between them, an odd matrix.
        Layout(
            axes: ["le:s16/16>>0", "be:s32/32>>0", "le:u12/16>>2"], timestamp: "le:s64/64>>0",
            alsoEnabled: ["le:u8/8>>0"],
            calibration: [
                AxisCalibration(scale: 1.5, offset: 0.25), AxisCalibration(scale: -0.001), AxisCalibration(scale: 3),
            ], matrix: "0.5, 0.25, -1; 1, 2, 3; -0.1, 0, 1"),
    ]

    @Test(arguments: layouts.indices)
    func samplesAreThoseOfTheArrays(_ index: Int) throws {
        let layout = Self.layouts[index]
        let axes = try layout.axes.enumerated().map { i, type in
            ScanChannel(index: i, format: try #require(ChannelFormat(parsing: type)))
        }
        let timestamp = try layout.timestamp.map { ScanChannel(index: 5, format: try #require(ChannelFormat(parsing: $0))) }
        let also = try layout.alsoEnabled.map { ScanChannel(index: 3, format: try #require(ChannelFormat(parsing: $0))) }
        let decoder = ScanDecoder(
            axes: axes, timestamp: timestamp, alsoEnabled: also,
            converter: SampleConverter(
                calibration: layout.calibration, mountMatrix: try #require(MountMatrix(parsing: layout.matrix))))
        // Forty scans of arbitrary bytes: every sign, every bit the shifts and masks keep or drop.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &+ UInt64(index)
        let bytes = (0..<(decoder.scanBytes * 40)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        var clock = TimestampGuard(period: 10_000_000)
        var expectedClock = clock
        var samples: [Sample] = []
        let readTime: Int64 = 5_000_000_000
        let used = bytes.withUnsafeBytes { decoder.decode($0, readTime: readTime, clock: &clock, into: &samples) }
        #expect(used == bytes.count)
        let expected = bytes.withUnsafeBytes { all in
            (0..<40).map { i -> Sample in
                let scan = UnsafeRawBufferPointer(rebasing: all[(i * decoder.scanBytes)...])
                let raw = decoder.raw(scan)
                let time = expectedClock.next(
                    device: decoder.timestamp(scan), fallback: readTime - Int64(39 - i) * 10_000_000)
                return decoder.converter.sample(x: raw.x, y: raw.y, z: raw.z, timestamp: time)
            }
        }
        #expect(samples.count == 40)
        for (got, want) in zip(samples, expected) {
            #expect(got.timestamp == want.timestamp)
            #expect(got.x.bitPattern == want.x.bitPattern && got.y.bitPattern == want.y.bitPattern)
            #expect(got.z.bitPattern == want.z.bitPattern, "\(got) against \(want)")
        }
        #expect(Set(samples.map(\.x)).count > 1, "the bytes vary, so the samples do")
    }
}
