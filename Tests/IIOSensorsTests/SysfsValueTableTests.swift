import IIOSensors
import ShakeDetection
import Testing

/// Hostile values of IIO sysfs attributes, row by row, at the pure parsers: each is refused (and
/// Discovery then throws `IIOError.malformedAttribute` naming the file, as
/// DeviceTests.malformedAttributeIsATypedError shows through umockdev) or clamped. Rows marked
/// "fuzz" were found by `scripts/fuzz.sh sysfs-parsers`: they trapped or were accepted before.
@Suite struct SysfsValueTableTests {
    /// Which attribute a text is read as.
    enum Attribute: String, Sendable {
        case scale, offset, raw, rates, matrix, type
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var attribute: Attribute
        var text: String
        var testDescription: String { "\(attribute.rawValue): \(text.debugDescription)" }
    }

    static let refused: [Row] = [
        // Scales: a finite, non-zero decimal.
        .init(attribute: .scale, text: "0"), .init(attribute: .scale, text: "-0.0"),
        .init(attribute: .scale, text: "nan"),
        .init(attribute: .scale, text: "NaN\n"), .init(attribute: .scale, text: "inf"),
        .init(attribute: .scale, text: "1e400"),
        .init(attribute: .scale, text: "0x1p3"), .init(attribute: .scale, text: ""),
        .init(attribute: .scale, text: "\0"),
        .init(attribute: .scale, text: "0,0098"), .init(attribute: .scale, text: "0.009.5"),
        .init(attribute: .scale, text: "0.0098 0.0098"), .init(attribute: .scale, text: "٣"),
        // Offsets: a finite decimal.
        .init(attribute: .offset, text: "-inf"), .init(attribute: .offset, text: "12abc"),
        .init(attribute: .offset, text: "1e99999"),
        // Raw readings: a 64-bit integer.
        .init(attribute: .raw, text: "9223372036854775808"), .init(attribute: .raw, text: "-9223372036854775809"),
        .init(attribute: .raw, text: "1.5"), .init(attribute: .raw, text: ""), .init(attribute: .raw, text: "0x10"),
        // sampling_frequency_available: rates between 0.001 Hz and 1 MHz (fuzz: 1e-300 Hz gave a period
        // of 1e309 ns, and Int64(1e9 / rate) trapped in the readers).
        .init(attribute: .rates, text: "1e-300"),
        .init(attribute: .rates, text: "12.5 1e300"), .init(attribute: .rates, text: "0 12.5"),
        .init(attribute: .rates, text: "-25"), .init(attribute: .rates, text: "nan"),
        .init(attribute: .rates, text: "inf"),
        .init(attribute: .rates, text: "10000000"), .init(attribute: .rates, text: ""),
        .init(attribute: .rates, text: "\n"),
        .init(attribute: .rates, text: "12.5 25 fast"), .init(attribute: .rates, text: "[0 1 10]"),
        .init(attribute: .rates, text: "[10 1 5]"), .init(attribute: .rates, text: "[1 1]"),
        .init(attribute: .rates, text: "[1 -1 10]"), .init(attribute: .rates, text: "[0.5 0.5 1e9]"),
        // Mount matrices: three rows of three finite numbers, none all zero.
        .init(attribute: .matrix, text: "1, 0, 0; 0, 1, 0; 0, 0, nan"),
        .init(attribute: .matrix, text: "1, 0, 0; 0, 1, 0; 0, 0, 1e400"),
        .init(attribute: .matrix, text: "1, 0, 0; 0, 1, 0; 0, 0, 0"),
        .init(attribute: .matrix, text: "1, 0, 0; 0, 1, 0"),
        .init(attribute: .matrix, text: "1, 0, 0, 0; 0, 1, 0; 0, 0, 1"), .init(attribute: .matrix, text: ";;"),
        // Channel types that lie about their size.
        .init(attribute: .type, text: "le:s17/16>>0"), .init(attribute: .type, text: "le:s16/16>>1"),
        .init(attribute: .type, text: "le:s64/128>>0"), .init(attribute: .type, text: "le:s8/8X0>>0"),
        .init(attribute: .type, text: "le:s16/16X99999>>0"), .init(attribute: .type, text: "le:s16/16>>99999"),
        .init(attribute: .type, text: "le:s16/16>>-1"), .init(attribute: .type, text: "le:s16/16>>0\0junk"),
    ]

    @Test("a hostile attribute value is refused, not trusted", arguments: refused)
    func refusedValue(_ row: Row) {
        let text = row.text
        switch row.attribute {
        case .scale: #expect(parseScale(text) == nil)
        case .offset: #expect(parseDecimal(text) == nil)
        case .raw: #expect(parseRaw(text) == nil)
        case .rates: #expect(AvailableRates(parsing: text) == nil)
        case .matrix: #expect(MountMatrix(parsing: text) == nil)
        case .type: #expect(ChannelFormat(parsing: text) == nil)
        }
    }

    @Test("every rate offered has a period in whole nanoseconds", arguments: ["0.001", "100000", "[0.001 0 100000]"])
    func ratesAtTheLimits(text: String) throws {
        let rates = try #require(AvailableRates(parsing: text))
        for wanted in [0, 0.0005, 100, 2e6] as [Double] {
            let period = (1e9 / rates.choose(atLeast: wanted)).rounded()
            #expect(period >= 1 && period <= 1e12, "\(wanted) Hz")
        }
    }

    @Test("fuzz: a scan stamped Int64.max, then an older one, saturates instead of overflowing")
    func timestampSaturates() throws {
        let format = try #require(ChannelFormat(parsing: "le:s16/16>>0"))
        let stamp = try #require(ChannelFormat(parsing: "le:s64/64>>0"))
        let decoder = ScanDecoder(
            axes: (0..<3).map { ScanChannel(index: $0, format: format) },
            timestamp: ScanChannel(index: 3, format: stamp),
            converter: SampleConverter(
                calibration: Array(repeating: AxisCalibration(scale: 1), count: 3), mountMatrix: .identity))
        var bytes = [UInt8](repeating: 0, count: decoder.scanBytes * 3)
        for (scan, time) in [Int64.max, 5, .max].enumerated() {
            bytes.withUnsafeMutableBytes { raw in
                decoder.encode(
                    x: 1, y: 2, z: 3, timestamp: time,
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[(scan * decoder.scanBytes)...]))
            }
        }
        var clock = TimestampGuard(period: 10)
        var samples: [Sample] = []
        let used = bytes.withUnsafeBytes {
            decoder.decode($0, readTime: 1_000, clock: &clock, into: &samples)
        }
        #expect(used == bytes.count)
        // Each jump is bridged by one period from the read time: forward only, nothing traps.
        #expect(samples.map(\.timestamp) == [980, 990, 1_000])
        #expect(samples.map(\.x) == [1, 1, 1])
    }
}
