/// How one channel's values are laid out in an IIO scan, parsed from its sysfs type string.
///
/// The kernel writes `scan_elements/in_<channel>_type` as `[be|le]:[s|u]BITS/STORAGE[XREPEAT]>>SHIFT`,
/// for example `le:s12/16>>4`: little-endian, signed, 12 significant bits stored in 16, shifted
/// left by 4. ``decode(_:)`` undoes that: byte order, shift, mask and sign extension.
public struct ChannelFormat: Sendable, Hashable, CustomStringConvertible {
    /// Whether the stored value is big-endian.
    public var bigEndian: Bool
    /// Whether the value is two's-complement signed.
    public var signed: Bool
    /// The number of significant bits.
    public var bits: Int
    /// The number of bits the value occupies in the scan: 8, 16, 32 or 64.
    public var storageBits: Int
    /// How far the significant bits are shifted left within the storage.
    public var shift: Int
    /// How many values of this format are stored back to back (1 unless the type says `X`).
    public var repeats: Int

    /// Creates a format from its parts, which must describe a valid format (as ``init(parsing:)`` checks):
    /// storage 8, 16, 32 or 64 bits, `1 <= bits` and `bits + shift <= storageBits`.
    public init(bigEndian: Bool, signed: Bool, bits: Int, storageBits: Int, shift: Int = 0, repeats: Int = 1) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeats = repeats
    }

    /// The most values one channel may repeat (`X` in the type; the kernel uses up to 4, for quaternions).
    public static let maximumRepeats = 16

    /// Parses a type string such as `le:s16/16>>0`; nil if it is not exactly that shape, or its
    /// sizes do not fit: storage other than 8, 16, 32 or 64 bits, no significant bits, bits and
    /// shift beyond the storage, or more than ``maximumRepeats`` repeats.
    public init?(parsing text: some StringProtocol) {
        var rest = Substring(text.trimmingWhitespace())
        guard rest.hasPrefix("le:") || rest.hasPrefix("be:") else { return nil }
        bigEndian = rest.hasPrefix("be:")
        rest = rest.dropFirst(3)
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        signed = sign == "s"
        rest = rest.dropFirst()
        guard let bits = rest.takeNumber(), rest.first == "/" else { return nil }
        rest = rest.dropFirst()
        guard let storage = rest.takeNumber() else { return nil }
        var repeats = 1
        if rest.first == "X" {
            rest = rest.dropFirst()
            guard let count = rest.takeNumber() else { return nil }
            repeats = count
        }
        guard rest.hasPrefix(">>") else { return nil }
        rest = rest.dropFirst(2)
        guard let shift = rest.takeNumber(), rest.isEmpty else { return nil }
        guard [8, 16, 32, 64].contains(storage), bits >= 1, shift + bits <= storage,
            (1...Self.maximumRepeats).contains(repeats)
        else { return nil }
        self.bits = bits
        self.storageBits = storage
        self.shift = shift
        self.repeats = repeats
    }

    /// The number of bytes one value occupies in a scan (all repeats included).
    public var storageBytes: Int { storageBits / 8 * repeats }

    /// The type string, as the kernel writes it.
    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)"
            + (repeats > 1 ? "X\(repeats)" : "") + ">>\(shift)"
    }

    /// Decodes the first value stored at the start of `bytes` (which must hold ``storageBits``/8 bytes).
    @inline(__always)
    public func decode(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        let count = min(storageBits / 8, 8, bytes.count)
        var word: UInt64 = 0
        if bigEndian {
            for i in 0..<count { word = word << 8 | UInt64(bytes[i]) }
        } else {
            for i in stride(from: count - 1, through: 0, by: -1) { word = word << 8 | UInt64(bytes[i]) }
        }
        word >>= UInt64(clamping: shift)
        guard bits > 0 else { return 0 }
        if bits < 64 { word &= (1 << UInt64(bits)) - 1 }
        if signed && bits < 64 && word & (1 << UInt64(bits - 1)) != 0 {
            word |= ~((1 << UInt64(bits)) - 1)
        }
        return Int64(bitPattern: word)
    }

    /// Encodes a value into `bytes` as a driver would store it (for fixtures, tests and benchmarks).
    public func encode(_ value: Int64, into bytes: UnsafeMutableRawBufferPointer) {
        let count = min(storageBits / 8, 8, bytes.count)
        var word = UInt64(bitPattern: value)
        if bits < 64 { word &= (1 << UInt64(max(bits, 0))) - 1 }
        word <<= UInt64(clamping: shift)
        for i in 0..<count {
            let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * i))
            bytes[bigEndian ? count - 1 - i : i] = byte
        }
    }

    /// The range of raw values this format can hold.
    public var rawRange: ClosedRange<Int64> {
        guard bits > 0 else { return 0...0 }
        if bits >= 64 { return signed ? Int64.min...Int64.max : 0...Int64.max }
        return signed ? -(1 << Int64(bits - 1))...((1 << Int64(bits - 1)) - 1) : 0...((1 << Int64(bits)) - 1)
    }
}

extension Substring {
    /// Removes and returns a leading run of decimal digits, nil if there is none (or it is absurdly long).
    fileprivate mutating func takeNumber() -> Int? {
        let digits = prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 4, let value = Int(digits) else { return nil }
        removeFirst(digits.count)
        return value
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, line ends and NULs (sysfs values end in `\n`).
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\0" }
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return text[first...last]
    }
}
