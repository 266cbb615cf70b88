import IIOSensors
import Testing

@Suite struct ChannelFormatTests {
    static let valid: [(String, ChannelFormat)] = [
        ("le:s16/16>>0", ChannelFormat(bigEndian: false, signed: true, bits: 16, storageBits: 16)),
        ("be:s16/16>>0", ChannelFormat(bigEndian: true, signed: true, bits: 16, storageBits: 16)),
        ("le:s32/32>>0", ChannelFormat(bigEndian: false, signed: true, bits: 32, storageBits: 32)),
        ("be:u12/16>>4", ChannelFormat(bigEndian: true, signed: false, bits: 12, storageBits: 16, shift: 4)),
        ("le:s12/16>>4\n", ChannelFormat(bigEndian: false, signed: true, bits: 12, storageBits: 16, shift: 4)),
        ("le:s64/64>>0", ChannelFormat(bigEndian: false, signed: true, bits: 64, storageBits: 64)),
        ("le:s8/8>>0", ChannelFormat(bigEndian: false, signed: true, bits: 8, storageBits: 8)),
        ("le:s16/16X3>>0", ChannelFormat(bigEndian: false, signed: true, bits: 16, storageBits: 16, repeats: 3)),
    ]

    @Test(arguments: valid)
    func parses(text: String, expected: ChannelFormat) {
        #expect(ChannelFormat(parsing: text) == expected)
    }

    @Test(arguments: [
        "", "garbage", "le:s16", "xx:s16/16>>0", "le:f16/16>>0", "le:s16/12>>0", "le:s16/16>>1", "le:s16/24>>0",
        "le:s0/16>>0", "le:s16/16>>", "le:s16/16>>0 trailing", "le:s-16/16>>0", "le:s16/16X>>0", "LE:s16/16>>0",
        "le:s99999/16>>0",
    ])
    func rejects(text: String) {
        #expect(ChannelFormat(parsing: text) == nil)
    }

    /// Bytes as stored, and the value they hold.
    static let decoded: [(String, [UInt8], Int64)] = [
        ("le:s16/16>>0", [0x34, 0x12], 0x1234),
        ("le:s16/16>>0", [0xff, 0xff], -1),
        ("be:s16/16>>0", [0x12, 0x34], 0x1234),
        ("be:s16/16>>0", [0x80, 0x00], -32768),
        ("le:s32/32>>0", [0x00, 0x00, 0x01, 0x00], 65536),
        ("be:s32/32>>0", [0xff, 0xff, 0xff, 0xfe], -2),
        ("le:s12/16>>4", [0xf0, 0xff], -1),
        ("le:s12/16>>4", [0x00, 0x80], -2048),
        ("le:u12/16>>4", [0xf0, 0xff], 4095),
        ("be:s12/16>>4", [0x7f, 0xf0], 2047),
        ("le:s14/16>>2", [0x07, 0x00], 1),
        ("le:s64/64>>0", [0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0], 1_000_000_000),
        ("le:s10/32>>0", [0xff, 0x03, 0xff, 0xff], -1),
    ]

    @Test(arguments: decoded)
    func decodes(type: String, bytes: [UInt8], value: Int64) throws {
        let format = try #require(ChannelFormat(parsing: type))
        #expect(bytes.withUnsafeBytes { format.decode($0) } == value)
    }

    @Test(arguments: ["le:s16/16>>0", "be:s16/16>>0", "le:s32/32>>0", "be:s32/32>>0", "le:s12/16>>4", "be:u10/16>>6"])
    func encodeThenDecodeIsIdentity(type: String) throws {
        let format = try #require(ChannelFormat(parsing: type))
        let range = format.rawRange
        for value in [range.lowerBound, range.upperBound, 0, 1, range.upperBound / 3] {
            var bytes = [UInt8](repeating: 0, count: format.storageBytes)
            bytes.withUnsafeMutableBytes { format.encode(value, into: $0) }
            #expect(bytes.withUnsafeBytes { format.decode($0) } == value)
        }
        #expect(format.description == type)
    }
}

@Suite struct ScanLayoutTests {
    static let s16 = ChannelFormat(parsing: "le:s16/16>>0")!
    static let s32 = ChannelFormat(parsing: "le:s32/32>>0")!
    static let s64 = ChannelFormat(parsing: "le:s64/64>>0")!

    /// Elements (index, format), expected offsets (in the order given) and scan size.
    static let layouts: [([(Int, ChannelFormat)], [Int], Int)] = [
        ([(0, s16), (1, s16), (2, s16), (3, s64)], [0, 2, 4, 8], 16),
        ([(0, s16), (1, s16), (2, s16)], [0, 2, 4], 6),
        ([(0, s32), (1, s32), (2, s32), (3, s64)], [0, 4, 8, 16], 24),
        ([(0, s32), (1, s32), (2, s32)], [0, 4, 8], 12),
        ([(2, s16), (0, s16), (1, s16), (5, s64)], [4, 0, 2, 8], 16),
        ([(0, s16), (1, s32)], [0, 4], 8),
    ]

    @Test(arguments: layouts)
    func laysOutLikeTheKernel(elements: [(Int, ChannelFormat)], offsets: [Int], size: Int) {
        let layout = ScanLayout(elements.map { ScanLayout.Element(index: $0.0, format: $0.1) })
        #expect(layout.offsets == offsets)
        #expect(layout.scanBytes == size)
    }
}
