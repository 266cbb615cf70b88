// Fuzz target: the pure parsers of IIO sysfs attributes and the scan decoder, fed device data.
//
// The first byte picks what the rest is read as, the way a driver would show it: a decimal
// (`in_accel_offset`), a scale, a raw reading, `sampling_frequency_available`, a mount matrix,
// or three channel type strings (`le:s12/16>>4`) followed by the bytes of a buffer read, which
// are decoded into samples. Whatever parses must keep its promises (finite, non-zero scale, a
// storage size the kernel can have, a choice of rate inside the offer); nothing may trap. The
// files are compiled into this target from Sources/IIOSensors (see scripts/fuzz.sh), as
// IIOSensors itself imports libiio and libudev. Built by scripts/fuzz.sh.
import ShakeDetection

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let rest = bytes.dropFirst()
    let text = String(decoding: rest, as: UTF8.self)
    switch bytes[0] % 6 {
    case 0:
        if let value = parseDecimal(text) { require(value.isFinite, "parseDecimal gave \(value)") }
    case 1:
        if let value = parseScale(text) { require(value.isFinite && value != 0, "parseScale gave \(value)") }
    case 2:
        _ = parseRaw(text)
    case 3:
        rates(text)
    case 4:
        if let matrix = MountMatrix(parsing: text) {
            let v = matrix.apply(x: 1, y: -2, z: 9.81)
            require(v.x.isFinite || !matrix.rows.joined().allSatisfy { abs($0) < 1e300 }, "matrix gave \(v)")
            _ = MountMatrix(parsing: matrix.description)
        }
    default:
        scan(rest)
    }
    return 0
}

/// `sampling_frequency_available`, and choosing a rate from it.
func rates(_ text: String) {
    guard let rates = AvailableRates(parsing: text) else { return }
    for wanted in [0, 1, 50, 100, 1e6, 1e300, .infinity, -1] as [Double] {
        let rate = rates.choose(atLeast: wanted)
        require(rate.isFinite && rate > 0, "chose \(rate) Hz from \(rates) for \(wanted)")
        // The readers turn the rate into a period in whole nanoseconds, Int64((1e9 / rate).rounded()).
        let period = (1e9 / rate).rounded()
        require(period >= 1 && period < 9e18, "a rate of \(rate) Hz has no period in nanoseconds")
        switch rates {
        case .list(let list): require(list.contains(rate), "chose \(rate), not offered in \(list)")
        case .range(let lo, _, let hi): require(rate >= lo && rate <= hi, "chose \(rate) outside \(lo)...\(hi)")
        }
        _ = rateText(rate)
    }
}

/// Three type strings on the first three lines (x, y, z), an optional fourth for the timestamp,
/// then the bytes of a buffer read after an empty line.
func scan(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) {
    let separator = Array("\n\n".utf8)
    var split = bytes.endIndex
    var i = bytes.startIndex
    while i + 1 < bytes.endIndex {
        if bytes[i] == separator[0] && bytes[i + 1] == separator[1] {
            split = i
            break
        }
        i += 1
    }
    let header = String(decoding: bytes[bytes.startIndex..<split], as: UTF8.self)
    let payload = Array(bytes[min(split + 2, bytes.endIndex)...])
    let lines = header.split(separator: "\n", omittingEmptySubsequences: false)
    var formats: [ChannelFormat] = []
    for line in lines.prefix(4) {
        guard let format = ChannelFormat(parsing: line) else { return }
        require([8, 16, 32, 64].contains(format.storageBits), "storage of \(format.storageBits) bits")
        require(format.bits >= 1 && format.bits + format.shift <= format.storageBits, "format \(format)")
        require(ChannelFormat(parsing: format.description) == format, "\(format) does not round-trip")
        formats.append(format)
    }
    guard formats.count >= 3 else { return }
    let axes = (0..<3).map { ScanChannel(index: $0, format: formats[$0]) }
    let timestamp = formats.count > 3 ? ScanChannel(index: 3, format: formats[3]) : nil
    let calibration = [AxisCalibration(scale: 0.0098), AxisCalibration(scale: 1e300), AxisCalibration(scale: -1)]
    let decoder = ScanDecoder(
        axes: axes, timestamp: timestamp, converter: SampleConverter(calibration: calibration, mountMatrix: .identity))
    require(decoder.scanBytes > 0, "a scan of no bytes")
    var samples: [Sample] = []
    // The read times and periods are the daemon's own (CLOCK_MONOTONIC, 1e9 / rate); the scans are the device's.
    for (readTime, period): (Int64, Int64) in [(5_000_000_000, 10_000_000), (1, 1_000_000_000), (1 << 62, 1)] {
        var clock = TimestampGuard(period: period)
        let used = payload.withUnsafeBytes { raw in
            decoder.decode(raw, readTime: readTime, clock: &clock, into: &samples)
        }
        require(used <= payload.count && used % decoder.scanBytes == 0, "used \(used) of \(payload.count) bytes")
    }
    // Whatever the device said, times stay non-negative and far from overflow (TimestampGuard keeps
    // them near 0...2^62; a few periods past it at most), so nothing derived from them can trap.
    for sample in samples {
        let time = sample.timestamp
        require(time >= 0 && time <= TimestampGuard.latest + (1 << 40), "time out of range: \(time)")
    }
}

/// A broken promise: unlike `precondition`, keeps its message in an optimized build.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
