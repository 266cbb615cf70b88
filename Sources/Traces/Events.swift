import TextSafety

/// One saved clip of a recording session: an interval on the trace's time axis, in seconds,
/// and the gesture the person made in it (`Shake`, `Backhand Tennis`, `At Rest`...).
public struct GestureClip: Sendable, Hashable, Codable {
    /// The class that marks a shake; every other class is a gesture that must not fire.
    public static let shake = "Shake"

    /// When the clip starts.
    public var start: Double
    /// When it ends.
    public var end: Double
    /// The clip's class, as written in the events file.
    public var gesture: String

    /// Creates a clip.
    public init(start: Double, end: Double, gesture: String) {
        self.start = start
        self.end = end
        self.gesture = gesture
    }

    /// Whether the clip is a shake.
    public var isShake: Bool { gesture == Self.shake }
}

/// Reads and writes `.events` files: one `start end CLASS` line per saved clip, shakes included,
/// increasing and never overlapping. CLASS is the rest of the line and may hold single spaces
/// (`10.846 12.276 Backhand Tennis`). A trace needs no events file; where it has one, its
/// `Shake` clips must be exactly the intervals of its labels file.
public enum Events {
    /// The longest line accepted, in bytes: a clip line is two numbers and a short name.
    public static let lineLimit = 200
    /// The longest class accepted, in characters, so that reports stay legible.
    public static let classLimit = 60

    /// The events file that belongs to a trace (`NAME.csv` → `NAME.events`).
    public static func path(forTrace trace: String) -> String {
        IntervalLines.path(forTrace: trace, extension: "events")
    }

    /// Whether the trace has an events file (anything at that path, so that reading a folder or
    /// an unreadable file there fails with a named error instead of being passed over).
    public static func exist(forTrace trace: String) -> Bool {
        TraceFile.kind(of: path(forTrace: trace)).exists
    }

    /// Reads an events file, checking every line.
    public static func read(path: String) throws(TraceError) -> [GestureClip] {
        try parse(IntervalLines.lines(of: path, what: "the events file", code: .badEvent), path: path)
    }

    /// Parses the text of an events file; `path` is only used in errors.
    public static func parse(_ text: String, path: String) throws(TraceError) -> [GestureClip] {
        try parse(IntervalLines.lines(text), path: path)
    }

    private static func parse(_ lines: [Substring], path: String) throws(TraceError) -> [GestureClip] {
        var clips: [GestureClip] = []
        for (index, line) in lines.enumerated() {
            let clip = try parseLine(line, path: path, line: index + 1)
            try IntervalLines.checkOrder(
                start: clip.start, end: clip.end, after: clips.last.map { ($0.start, $0.end) }, noun: "clip",
                path: path, line: index + 1, code: .badEvent)
            clips.append(clip)
        }
        return clips
    }

    private static func parseLine(_ line: Substring, path: String, line number: Int) throws(TraceError) -> GestureClip {
        guard line.utf8.count <= lineLimit else {
            throw TraceError(
                .badEvent, path: path, line: number,
                "the line is \(line.utf8.count) bytes long; a clip line is at most \(lineLimit): \(quoted(line, 40))")
        }
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let start = decimal(fields[0]), let end = decimal(fields[1]) else {
            throw TraceError(
                .badEvent, path: path, line: number,
                "expected \"start end CLASS\" (two numbers in seconds, then the clip's class, one space apart), found \(quoted(line, 40))"
            )
        }
        try IntervalLines.checkTimes(start: start, end: end, path: path, line: number, code: .badEvent)
        let gesture = fields[2]
        if let problem = classProblem(gesture) {
            throw TraceError(.badEvent, path: path, line: number, "the class \(quoted(gesture, 40)) \(problem)")
        }
        return GestureClip(start: start, end: end, gesture: String(gesture))
    }

    /// What is wrong with a class, or nil when nothing is.
    private static func classProblem(_ gesture: Substring) -> String? {
        if gesture.isEmpty { return "is empty; give the gesture after the two times" }
        if gesture.unicodeScalars.contains(where: \.isHiddenInText) {
            return "holds a control or formatting character (a tab?); separate words with single spaces"
        }
        if gesture.first == " " || gesture.last == " " || gesture.contains("  ") {
            return "has a space at an end or two in a row; separate words with single spaces"
        }
        if gesture.count > classLimit { return "is longer than \(classLimit) characters" }
        if gesture != GestureClip.shake && gesture.lowercased() == GestureClip.shake.lowercased() {
            return "must be written \"\(GestureClip.shake)\" to count as a shake"
        }
        return nil
    }

    /// Checks that every clip lies within the trace's time span.
    public static func check(
        _ clips: [GestureClip], within span: ClosedRange<Double>, path: String
    ) throws(TraceError) {
        try IntervalLines.checkWithin(
            clips.map { ($0.start, $0.end) }, span: span, noun: "clip", path: path, code: .eventOutsideTrace)
    }

    /// Checks that the `Shake` clips are exactly the labelled intervals, in order (to 1 µs), so
    /// that a shake cannot be scored as one gesture in one file and another in the other.
    public static func check(
        _ clips: [GestureClip], agreeWith labels: [LabelledInterval], path: String, labelsPath: String
    ) throws(TraceError) {
        let shakes = clips.indices.filter { clips[$0].isShake }
        for (k, label) in labels.enumerated() {
            guard k < shakes.count else {
                throw TraceError(
                    .eventsDisagreeWithLabels, path: labelsPath, line: k + 1,
                    "the shake \(label.start)-\(label.end) has no Shake clip in \(fileName(path))")
            }
            let clip = clips[shakes[k]]
            guard abs(clip.start - label.start) <= 1e-6, abs(clip.end - label.end) <= 1e-6 else {
                throw TraceError(
                    .eventsDisagreeWithLabels, path: path, line: shakes[k] + 1,
                    "the Shake clip \(clip.start)-\(clip.end) is not the shake on line \(k + 1) of "
                        + "\(fileName(labelsPath)) (\(label.start)-\(label.end)); every Shake clip must be a labelled shake"
                )
            }
        }
        if shakes.count > labels.count {
            let clip = clips[shakes[labels.count]]
            throw TraceError(
                .eventsDisagreeWithLabels, path: path, line: shakes[labels.count] + 1,
                "the Shake clip \(clip.start)-\(clip.end) is not in \(fileName(labelsPath)); every Shake clip must be a labelled shake"
            )
        }
    }

    /// The text of an events file for these clips.
    public static func format(_ clips: [GestureClip]) -> String {
        clips.map { "\(fixed($0.start, 3)) \(fixed($0.end, 3)) \($0.gesture)\n" }.joined()
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
