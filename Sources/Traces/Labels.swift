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
        IntervalLines.path(forTrace: trace, extension: "labels")
    }

    /// Reads a labels file, checking every line.
    public static func read(path: String) throws(TraceError) -> [LabelledInterval] {
        try parse(IntervalLines.lines(of: path, what: "the labels file", code: .badLabel), path: path)
    }

    /// Parses the text of a labels file; `path` is only used in errors.
    public static func parse(_ text: String, path: String) throws(TraceError) -> [LabelledInterval] {
        try parse(IntervalLines.lines(text), path: path)
    }

    private static func parse(_ lines: [Substring], path: String) throws(TraceError) -> [LabelledInterval] {
        var intervals: [LabelledInterval] = []
        for (index, line) in lines.enumerated() {
            let number = index + 1
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, let start = decimal(fields[0]), let end = decimal(fields[1]) else {
                throw TraceError(
                    .badLabel, path: path, line: number,
                    "expected \"start end\" (two numbers in seconds, one space), found \(quoted(line, 40))")
            }
            try IntervalLines.checkTimes(start: start, end: end, path: path, line: number, code: .badLabel)
            try IntervalLines.checkOrder(
                start: start, end: end, after: intervals.last.map { ($0.start, $0.end) }, noun: "interval",
                path: path, line: number, code: .badLabel)
            intervals.append(LabelledInterval(start: start, end: end))
        }
        return intervals
    }

    /// Checks that every interval lies within the trace's time span.
    public static func check(
        _ intervals: [LabelledInterval], within span: ClosedRange<Double>, path: String
    ) throws(TraceError) {
        try IntervalLines.checkWithin(
            intervals.map { ($0.start, $0.end) }, span: span, noun: "interval", path: path, code: .labelOutsideTrace)
    }

    /// The text of a labels file for these intervals.
    public static func format(_ intervals: [LabelledInterval]) -> String {
        intervals.map { "\(fixed($0.start, 3)) \(fixed($0.end, 3))\n" }.joined()
    }
}
