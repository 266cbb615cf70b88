import ShakeDetection

/// Streams the samples of a trace file (`t,x,y,z` CSV) without loading it whole.
///
/// Every line is checked: the header must be exactly `t,x,y,z`; each row has four finite
/// decimal numbers; `t` is in seconds and strictly increasing; accelerations are in m/s².
/// Windows line ends (CRLF) are accepted. The first problem stops reading with a
/// ``TraceError`` naming the file and line; nothing is skipped silently.
public struct TraceReader: Sequence {
    /// The largest acceleration accepted, in m/s² (about 1,000 g): beyond it a value is garbage.
    public static let accelerationLimit = 10_000.0
    /// The largest time accepted, in seconds (about 31 years).
    public static let timeLimit = 1e9

    /// The file being read.
    public let path: String

    /// Prepares to read a trace; the file is opened when iteration starts.
    public init(path: String) {
        self.path = path
    }

    /// Reads every sample into an array (for short traces and tests).
    public func readAll() throws(TraceError) -> [Sample] {
        var samples: [Sample] = []
        var iterator = makeIterator()
        while let sample = try iterator.nextSample() { samples.append(sample) }
        return samples
    }

    public func makeIterator() -> Iterator { Iterator(path: path) }

    /// Yields samples; a ``TraceError`` ends iteration (see ``nextSample()``).
    public struct Iterator: IteratorProtocol {
        private var lines: LineReader?
        private let path: String
        private var opened = false
        private var lastTime: (seconds: Double, timestamp: Int64)?
        /// The error that ended iteration, if any, when iterating with `for in`.
        public private(set) var error: TraceError?

        init(path: String) {
            self.path = path
        }

        /// The next sample, nil at the end, or throws the first problem found.
        public mutating func nextSample() throws(TraceError) -> Sample? {
            if !opened {
                opened = true
                lines = try LineReader(path: path)
                guard let header = try lines!.next() else {
                    throw TraceError(.empty, path: path, line: 1, "the file is empty; expected the header t,x,y,z")
                }
                guard header.text == "t,x,y,z" else {
                    throw TraceError(
                        .badHeader, path: path, line: 1,
                        "expected the header line exactly \"t,x,y,z\", found \(quoted(header.text, 40))")
                }
            }
            guard var reader = lines, let line = try reader.next() else { return nil }
            lines = reader
            let fields = line.text.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                throw TraceError(
                    .badFieldCount, path: path, line: line.number,
                    "expected 4 comma-separated numbers t,x,y,z, found \(fields.count) field\(fields.count == 1 ? "" : "s")"
                )
            }
            var values = (0.0, 0.0, 0.0, 0.0)
            for (i, name) in ["t", "x", "y", "z"].enumerated() {
                let field = fields[i]
                guard let v = decimal(field) else {
                    throw TraceError(
                        .badNumber, path: path, line: line.number, "\(name) is not a number: \(quoted(field))")
                }
                guard v.isFinite else {
                    throw TraceError(
                        .notFinite, path: path, line: line.number,
                        "\(name) is \(quoted(field, quotes: false)), not a finite number")
                }
                let limit = i == 0 ? TraceReader.timeLimit : TraceReader.accelerationLimit
                guard abs(v) <= limit else {
                    throw TraceError(
                        .outOfRange, path: path, line: line.number,
                        "\(name) = \(quoted(field, quotes: false)) is out of range "
                            + "(|\(name)| ≤ \(i == 0 ? "1e9 s" : "10000 m/s²"))")
                }
                switch i {
                case 0: values.0 = v
                case 1: values.1 = v
                case 2: values.2 = v
                default: values.3 = v
                }
            }
            // Compared as the detector sees time, in whole nanoseconds: 1e-12 s later is not later.
            let sample = Sample(seconds: values.0, x: values.1, y: values.2, z: values.3)
            if let last = lastTime, sample.timestamp <= last.timestamp {
                throw TraceError(
                    .timeNotIncreasing, path: path, line: line.number,
                    "t = \(quoted(fields[0], quotes: false)) does not increase (previous row had t = \(last.seconds)); "
                        + "t must be strictly increasing, by at least 1 ns")
            }
            lastTime = (values.0, sample.timestamp)
            return sample
        }

        /// The next sample; on a problem, stores it in ``error`` and ends iteration.
        public mutating func next() -> Sample? {
            guard error == nil else { return nil }
            do { return try nextSample() } catch {
                self.error = error
                return nil
            }
        }
    }
}

/// Reads a file line by line in 64 KiB chunks.
struct LineReader {
    struct Line {
        var number: Int
        var text: Substring
    }

    private let file: TraceFile
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var number = 0

    init(path: String) throws(TraceError) {
        file = try TraceFile(reading: path)
        self.path = path
    }

    mutating func next() throws(TraceError) -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = try makeLine(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = try makeLine(buffer[start...])
                start = buffer.count
                return line
            }
            buffer.removeFirst(start)
            start = 0
            do { atEnd = try !file.readMore(into: &buffer, upTo: 65536) } catch {
                throw TraceError(error.code, path: path, line: number + 1, error.message)
            }
        }
    }

    private mutating func makeLine(_ bytes: ArraySlice<UInt8>) throws(TraceError) -> Line {
        number += 1
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceError(.badNumber, path: path, line: number, "the line is not valid text (UTF-8)")
        }
        if text.isEmpty {
            throw TraceError(.badFieldCount, path: path, line: number, "blank line; every line must hold t,x,y,z")
        }
        return Line(number: number, text: Substring(text))
    }
}

/// A decimal number such as `-9.81` or `1.5e-3`, or `nan` and `inf` (for the callers to refuse as
/// not finite); nil for anything else, such as hexadecimal (`0x1p3`), which `Double` alone takes.
func decimal(_ text: Substring) -> Double? {
    guard let value = Double(text) else { return nil }
    if value.isFinite, !text.utf8.allSatisfy({ (48...57).contains($0) || "+-.eE".utf8.contains($0) }) { return nil }
    return value
}
