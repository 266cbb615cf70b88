import ShakeDetection

/// Writes samples to a trace file (`t,x,y,z` CSV), streaming, with `t` in seconds from the
/// first sample.
public final class TraceWriter {
    private let file: TraceFile
    /// The file being written.
    public let path: String
    private var origin: Int64?
    private var lastTimestamp: Int64?
    private var pending = ""
    /// How many samples were written.
    public private(set) var count = 0

    /// Creates (or truncates) the file and writes the header.
    public init(path: String) throws(TraceError) {
        file = try TraceFile(creating: path)
        self.path = path
        pending = "t,x,y,z\n"
    }

    /// Appends a sample; samples whose time does not increase are refused, as readers would refuse them.
    public func write(_ sample: Sample) throws(TraceError) {
        if let last = lastTimestamp, sample.timestamp <= last {
            throw TraceError(
                .timeNotIncreasing, path: path, line: count + 2,
                "sample time \(sample.timestamp) ns does not increase (previous \(last) ns)")
        }
        let origin = self.origin ?? sample.timestamp
        let (elapsed, overflow) = sample.timestamp.subtractingReportingOverflow(origin)
        guard !overflow else {
            throw TraceError(
                .outOfRange, path: path, line: count + 2,
                "sample time \(sample.timestamp) ns is too far from the first sample's \(origin) ns")
        }
        self.origin = origin
        lastTimestamp = sample.timestamp
        let t = seconds(elapsed)
        pending += "\(t),\(fixed(sample.x, 5)),\(fixed(sample.y, 5)),\(fixed(sample.z, 5))\n"
        count += 1
        if pending.utf8.count >= 65536 { try flush() }
    }

    /// Writes out buffered lines.
    public func flush() throws(TraceError) {
        guard !pending.isEmpty else { return }
        let bytes = Array(pending.utf8)
        pending = ""
        try file.writeAll(bytes)
    }

    /// Flushes and closes the file.
    public func close() throws(TraceError) {
        try flush()
        file.closeFile()
    }
}

/// A decimal with a fixed number of digits after the point, without Foundation's formatters.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    // Beyond Int64 (or not finite), there is no fixed form: Swift's own, which readers refuse as out of range.
    guard scaled < 9e18 else { return String(value) }
    let whole = Int64(scaled / scale)
    let frac = Int64(scaled - Double(whole) * scale)
    let fracText = String(frac)
    let sign = value < 0 && scaled > 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: max(0, digits - fracText.count)))\(fracText)"
}

/// Non-negative nanoseconds as exact seconds: six decimals (`0.010000`), or nine when the
/// time is not a whole microsecond, so that samples under 1 µs apart stay apart.
func seconds(_ nanoseconds: Int64) -> String {
    let fraction = String(nanoseconds % 1_000_000_000)
    let padded = String(repeating: "0", count: 9 - fraction.count) + fraction
    let digits = padded.hasSuffix("000") ? padded.dropLast(3) : Substring(padded)
    return "\(nanoseconds / 1_000_000_000).\(digits)"
}
