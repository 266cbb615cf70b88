/// What `.labels` and `.events` files share: UTF-8 text read whole, one interval a line, and
/// each interval's two times checked the same way. `noun` ("interval", "clip") and `code` keep
/// each file's own wording and error code.
enum IntervalLines {
    /// The file beside a trace with another extension (`NAME.csv` → `NAME.labels`).
    static func path(forTrace trace: String, extension ext: String) -> String {
        (trace.hasSuffix(".csv") ? String(trace.dropLast(4)) : trace) + "." + ext
    }

    /// The lines of the file at `path` (`what` names it in errors), split on any line break,
    /// without the empty one after a final newline.
    static func lines(of path: String, what: String, code: TraceError.Code) throws(TraceError) -> [Substring] {
        let bytes = try TraceFile.contents(of: path, what: what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceError(code, path: path, "\(what) is not valid text (UTF-8)")
        }
        return lines(text)
    }

    /// A text's lines. "\r\n" is a single Character in Swift, so this splits on any line break.
    static func lines(_ text: String) -> [Substring] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Checks one interval's times: finite, start ≥ 0, end within ``TraceReader/timeLimit``,
    /// start before end.
    static func checkTimes(
        start: Double, end: Double, path: String, line: Int, code: TraceError.Code
    ) throws(TraceError) {
        guard start.isFinite, end.isFinite, start >= 0, end <= TraceReader.timeLimit else {
            throw TraceError(code, path: path, line: line, "start and end must be finite, start ≥ 0 and end ≤ 1e9 s")
        }
        guard start < end else {
            throw TraceError(code, path: path, line: line, "start \(start) is not before end \(end)")
        }
    }

    /// Checks that an interval starts no earlier than the one before it ended.
    static func checkOrder(
        start: Double, end: Double, after previous: (start: Double, end: Double)?, noun: String, path: String,
        line: Int, code: TraceError.Code
    ) throws(TraceError) {
        guard let previous, start < previous.end else { return }
        throw TraceError(
            code, path: path, line: line,
            "\(noun) \(start)-\(end) overlaps or precedes the one before (\(previous.start)-\(previous.end))")
    }

    /// Checks that every interval lies within the trace's time span.
    static func checkWithin(
        _ intervals: [(start: Double, end: Double)], span: ClosedRange<Double>, noun: String, path: String,
        code: TraceError.Code
    ) throws(TraceError) {
        for (index, interval) in intervals.enumerated()
        where interval.start < span.lowerBound || interval.end > span.upperBound + 1e-6 {
            throw TraceError(
                code, path: path, line: index + 1,
                "\(noun) \(interval.start)-\(interval.end) lies outside the trace (\(span.lowerBound)-\(span.upperBound) s)"
            )
        }
    }
}
