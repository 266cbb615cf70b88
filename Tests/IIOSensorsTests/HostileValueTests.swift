import ShakeDetection
import Testing

@testable import IIOSensors

/// Device data is untrusted: every parser and every number derived from sysfs or the buffer,
/// fed absurd values, gives nil (which the caller turns into a named error) or a clamped value,
/// and never traps. No device needed.
@Suite struct HostileValueTests {
    static let rateLists: [(String, AvailableRates?)] = [
        ("12.5 25 50 100 200", .list([12.5, 25, 50, 100, 200])),
        ("200 12.5", .list([12.5, 200])),
        ("[1 0.5 400]", .range(min: 1, step: 0.5, max: 400)),
        ((1...256).map(String.init).joined(separator: " "), .list((1...256).map(Double.init))),
        ((1...257).map(String.init).joined(separator: " "), nil),  // a huge list
        ("12.5 1e300", nil),  // huge
        ("100000.5", nil),  // above 100 kHz
        ("-5 50", nil),  // negative
        ("0 50", nil),
        ("0.0001", nil),  // below 0.001 Hz
        ("12.5 nan 25", nil),
        ("inf", nil),
        ("1e999", nil),  // overflows to infinity
        ("12.5,25", nil),  // garbage
        ("\u{1B}[2J", nil),
        ("", nil),
        ("[1 0 1e300]", nil),
        ("[400 1 1]", nil),  // min above max
        ("[1 -1 400]", nil),
        ("[1 1e300 400]", nil),  // a step beyond the range
        ("[1 2]", nil),
    ]

    @Test(arguments: rateLists)
    func availableRates(text: String, expected: AvailableRates?) {
        #expect(AvailableRates(parsing: text) == expected)
    }

    /// Whatever is wanted (NaN, infinite, negative, huge), the rate chosen is a plausible one.
    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, 0, 1e-300, 1e300, 100])
    func chosenRatesArePlausible(wanted: Double) {
        let lists: [AvailableRates?] = [nil, .list([12.5, 100]), .range(min: 1, step: 0.5, max: 400), .list([])]
        for available in lists {
            var info = Self.sampleInfo
            info.availableRates = available
            let rate = info.rate(for: wanted)
            #expect(plausibleRates.contains(rate), "\(String(describing: available)) \(wanted) -> \(rate)")
            #expect(periodNanoseconds(rate) > 0)
            #expect((1...1024).contains(scansPerWakeup(rate: rate, wakeupsPerSecond: wanted)))
        }
    }

    static let scales: [(String, Double?)] = [
        ("0.000598550", 0.000598550), ("1", 1), ("1000", 1000), ("0", nil), ("-0.5", nil), ("-0", nil),
        ("nan", nil), ("inf", nil), ("1e400", nil), ("1e300", nil), ("1000.001", nil), ("0x10", nil), ("", nil),
    ]

    @Test(arguments: scales)
    func scale(text: String, expected: Double?) {
        #expect(parseScale(text) == expected)
    }

    @Test(
        arguments: [("-12", -12.0), ("0", 0), ("4294967296", 4_294_967_296), ("1e300", nil), ("-1e10", nil)]
            as [(String, Double?)])
    func offset(text: String, expected: Double?) {
        #expect(parseOffset(text) == expected)
    }

    /// Type strings that lie about their sizes.
    @Test(arguments: [
        "le:s17/16>>0",  // more bits than storage
        "le:s16/0>>0",  // no storage
        "le:s16/128>>0",  // storage beyond 64 bits
        "le:s8/16>>16",  // shift as large as the storage
        "le:s8/16>>9",  // bits and shift beyond the storage
        "le:s16/16X0>>0",  // zero repeats
        "le:s16/16X17>>0",  // too many repeats
        "le:s16/16X99999>>0",
        "le:s16/16>>99999",
        "le:s0/8>>0",
    ])
    func lyingChannelTypesAreRejected(text: String) {
        #expect(ChannelFormat(parsing: text) == nil)
    }

    /// Formats built by hand with impossible sizes decode without trapping.
    @Test(arguments: [
        ChannelFormat(bigEndian: false, signed: true, bits: 0, storageBits: 16),
        ChannelFormat(bigEndian: true, signed: true, bits: 200, storageBits: 128, shift: 300),
        ChannelFormat(bigEndian: false, signed: false, bits: 16, storageBits: 16, shift: -3),
        ChannelFormat(bigEndian: false, signed: true, bits: -5, storageBits: 0),
    ])
    func impossibleFormatsDoNotTrap(format: ChannelFormat) {
        let bytes: [UInt8] = [0xFF, 0x7F, 1, 2, 3, 4, 5, 6]
        _ = bytes.withUnsafeBytes { format.decode($0) }
        var out = [UInt8](repeating: 0, count: 8)
        out.withUnsafeMutableBytes { format.encode(-1, into: $0) }
        _ = format.rawRange
    }

    @Test(arguments: [
        "nan, 0, 0; 0, 1, 0; 0, 0, 1", "inf, 0, 0; 0, 1, 0; 0, 0, 1", "1e300, 0, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, 0; 0, -11, 0; 0, 0, 1", "1, 0, 0; 0, 1e999, 0; 0, 0, 1",
        String(repeating: "1, 0, 0; ", count: 100) + "0, 0, 1",
    ])
    func absurdMountMatricesAreRejected(text: String) {
        #expect(MountMatrix(parsing: text) == nil)
    }

    /// Device timestamps in, sample times out (period 10 ms, largest step 60 s, read time 5 s).
    static let timestamps: [(String, [Int64?], [Int64])] = [
        ("steady", [1_000, 2_000, 3_000], [1_000, 2_000, 3_000]),
        ("jitter back", [1_000, 900, 3_000], [1_000, 1_001, 3_000]),
        (
            // A clock that then stands still is jitter from there: 1 ns on, as for any step back.
            "jump to Int64.max and stay", [1_000_000_000, .max, .max, .max],
            [1_000_000_000, 1_010_000_000, 1_010_000_001, 1_010_000_002]
        ),
        (
            "jump to Int64.max, then counting on from there",
            [1_000_000_000, .max - 20_000_000, .max - 10_000_000, .max],
            [1_000_000_000, 1_010_000_000, 1_020_000_000, 1_030_000_000]
        ),
        (
            "wraps to Int64.min", [1_000_000_000, .min, .min + 10_000_000],
            [1_000_000_000, 1_010_000_000, 1_020_000_000]
        ),
        (
            "far backwards", [100_000_000_000, 5, 10_000_005],
            [100_000_000_000, 100_010_000_000, 100_020_000_000]
        ),
        ("first is Int64.max", [.max, .max], [5_000_000_000, 5_000_000_001]),
        ("first is negative", [-1, 9_999_999], [5_000_000_000, 5_010_000_000]),
        ("no timestamp channel", [nil, nil], [5_000_000_000, 5_000_000_001]),
    ]

    @Test(arguments: timestamps)
    func deviceTimestampsAreGuarded(name: String, device: [Int64?], expected: [Int64]) {
        var clock = TimestampGuard(period: 10_000_000)
        let times = device.map { clock.next(device: $0, fallback: 5_000_000_000) }
        #expect(times == expected, "\(name)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Read times near the ends of Int64 are clamped too.
    @Test(arguments: [Int64.min, -1, 0, .max])
    func absurdReadTimesAreClamped(readTime: Int64) {
        var clock = TimestampGuard(period: .max)
        let first = clock.next(device: nil, fallback: readTime)
        let second = clock.next(device: nil, fallback: readTime)
        #expect((0...TimestampGuard.latest).contains(first) && second > first)
    }

    /// Delays after each failure (ms); `worked` marks a failure after the sensor worked for that long first.
    static let backoffs: [(String, [Int64], [Int64])] = [
        (
            "doubling to the maximum", [0, 0, 0, 0, 0, 0, 0, 0, 0],
            [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
        ),
        ("short spells of working don't reset it", [0, 1000, 1000, 29_999], [500, 1000, 2000, 4000]),
        ("working for the maximum resets it", [0, 0, 0, 30_000, 0], [500, 1000, 2000, 500, 1000]),
    ]

    @Test(arguments: backoffs)
    func retryDelays(name: String, worked: [Int64], delays: [Int64]) {
        var backoff = RetryBackoff()
        var now: Int64 = 1_000_000_000
        var seen: [Int64] = []
        for spell in worked {
            if spell > 0 {
                backoff.succeeded(now: now)
                now += spell * 1_000_000
            }
            seen.append(backoff.next(now: now) / 1_000_000)
        }
        #expect(seen == delays, "\(name)")
    }

    @Test func retryDelayText() {
        #expect(
            [500_000_000, 1_000_000_000, 4_000_000_000, 30_000_000_000].map(secondsText) == [
                "0.5 s", "1 s", "4 s", "30 s",
            ])
    }

    /// Durations from a configuration, however large, become nanoseconds without overflowing.
    @Test func durationsSaturate() {
        #expect(Duration.seconds(Int64.max).nanoseconds == .max / 2)
        #expect(Duration.seconds(Int64.min).nanoseconds == .min / 2)
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
    }

    /// Names and labels reach logs: control and bidi characters are replaced, length is capped.
    @Test(arguments: [
        ("bmi160", "bmi160"), ("accel\u{1B}[2J", "accel?[2J"), ("a\u{202E}b", "a?b"), ("x\ny\0", "x?y?"),
        (String(repeating: "a", count: 1000), String(repeating: "a", count: 64)),
    ])
    func deviceNamesArePrintable(name: String, shown: String) {
        #expect(printable(name) == shown)
    }
}

extension HostileValueTests {
    /// An accelerometer description for pure tests.
    static let sampleInfo = AccelerometerInfo(
        name: "fake", label: nil, syspath: "/sys/devices/fake/iio:device0", sysname: "iio:device0", devnode: nil,
        scanChannels: nil, timestampChannel: nil, hasRawAttributes: true,
        calibration: Array(repeating: AxisCalibration(scale: 1), count: 3), mountMatrix: .identity,
        mountMatrixSource: "identity", samplingFrequency: nil, availableRates: nil, samplingFrequencyAttribute: nil,
        hasTrigger: false)
}
