/// One labelled shake: an interval on the trace's time axis, in seconds.
public struct LabelledInterval: Sendable, Hashable, Codable {
    /// When the shake starts.
    public var start: Double
    /// When it ends.
    public var end: Double

    /// Creates an interval.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// Reads and writes `.labels` files: one `start end` line per shake, increasing and
/// never overlapping; an empty file means the trace holds no shake.
public enum Labels {
    /// The labels file that belongs to a trace (`NAME.csv` → `NAME.labels`).
    public static func path(forTrace trace: String) -> String {
        (trace.hasSuffix(".csv") ? String(trace.dropLast(4)) : trace) + ".labels"
    }

    /// Reads a labels file, checking every line.
    public static func read(path: String) throws(TraceError) -> [LabelledInterval] {
        let bytes = try TraceFile.contents(of: path, what: "the labels file")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceError(.badLabel, path: path, "the labels file is not valid text (UTF-8)")
        }
        return try parse(text, path: path)
    }

    /// Parses the text of a labels file; `path` is only used in errors.
    public static func parse(_ text: String, path: String) throws(TraceError) -> [LabelledInterval] {
        var intervals: [LabelledInterval] = []
        // "\r\n" is a single Character in Swift, so split on any line break, not on "\n".
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, let start = decimal(fields[0]), let end = decimal(fields[1]) else {
                throw TraceError(
                    .badLabel, path: path, line: number,
                    "expected \"start end\" (two numbers in seconds, one space), found \(quoted(line, 40))")
            }
            guard start.isFinite, end.isFinite, start >= 0, end <= TraceReader.timeLimit else {
                throw TraceError(
                    .badLabel, path: path, line: number, "start and end must be finite, start ≥ 0 and end ≤ 1e9 s")
            }
            guard start < end else {
                throw TraceError(.badLabel, path: path, line: number, "start \(start) is not before end \(end)")
            }
            if let previous = intervals.last, start < previous.end {
                throw TraceError(
                    .badLabel, path: path, line: number,
                    "interval \(start)-\(end) overlaps or precedes the one before (\(previous.start)-\(previous.end))")
            }
            intervals.append(LabelledInterval(start: start, end: end))
        }
        return intervals
    }

    /// Checks that every interval lies within the trace's time span.
    public static func check(
        _ intervals: [LabelledInterval], within span: ClosedRange<Double>, path: String
    ) throws(TraceError) {
        for (index, interval) in intervals.enumerated()
        where interval.start < span.lowerBound || interval.end > span.upperBound + 1e-6 {
            throw TraceError(
                .labelOutsideTrace, path: path, line: index + 1,
                "interval \(interval.start)-\(interval.end) lies outside the trace (\(span.lowerBound)-\(span.upperBound) s)"
            )
        }
    }

    /// The text of a labels file for these intervals.
    public static func format(_ intervals: [LabelledInterval]) -> String {
        intervals.map { "\(fixed($0.start, 3)) \(fixed($0.end, 3))\n" }.joined()
    }
}
