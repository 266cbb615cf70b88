/// One definition of a shake: what the person did, not what the recording app saved. Where a session
/// was recorded as one stream and its shakes saved as clips of it (a trace with an events file), a shake
/// goes on for as long as the hand does: two consecutive labelled shakes that the hand never stopped
/// between are one shake, and a shake whose hand went on after its clip was saved ends when it stopped.
/// Both are judged from the motion alone: the hand goes on through every half second that keeps the
/// spread of the acceleration's magnitude (its standard deviation) at or above ``spreadFloor``. A hand
/// that stops, even for a moment, lets the magnitude settle near 1 g.
///
/// Only traces with an events file are judged so, and a shake never runs into another clip: a spliced
/// trace joins shakes recorded apart into another recording (a walk, a run), so what lies between its
/// labels is someone else's motion, not the hand between two clips.
public struct ContinuousShaking: Sendable {
    /// The windows the motion after a shake is judged in, in seconds.
    public static let window = 0.5
    /// The spread (standard deviation of |a|, m/s²) every window keeps while the hand goes on.
    public static let spreadFloor = 4.0
    /// How far after the last shake the hand is followed, in seconds.
    static let lastReach = 10.0

    /// What follows each label: until the next clip of any kind (or ``lastReach``), and whether that is
    /// the next label.
    private struct After: Sendable {
        var start: Double
        var end: Double
        var reachesNextShake: Bool
        /// Whole windows from `start` that fit before `end`; a stretch that reaches the next shake has one
        /// more, ending with it, when they do not fill it (a stretch shorter than a window is that one).
        var aligned: Int
        var windows: Int
        /// Sums of |a| and |a|², and the sample count, per window.
        var sums: [(n: Int, sum: Double, squares: Double)]
    }

    private var stretches: [After]
    /// The stretch the next sample may fall in (samples come in time order).
    private var next = 0

    /// Prepares to follow the hand after each of `labels` (in time order, on the trace's `t` axis), the
    /// shake clips among `clips` (a trace's events file).
    public init(labels: [LabelledInterval], clips: [GestureClip]) {
        stretches = labels.enumerated().map { index, label in
            let nextShake = index + 1 < labels.count ? labels[index + 1].start : nil
            let otherClip = clips.first { !$0.isShake && $0.start >= label.end }?.start
            let end = min(nextShake ?? .infinity, otherClip ?? .infinity, label.end + Self.lastReach)
            let reaches = nextShake.map { $0 <= end } ?? false
            let length = end - label.end
            let aligned = Int((length / Self.window + 1e-9).rounded(.down))
            let windows = reaches && (aligned == 0 || Double(aligned) * Self.window < length - 1e-9) ? aligned + 1 : aligned
            return After(
                start: label.end, end: end, reachesNextShake: reaches, aligned: aligned, windows: windows,
                sums: Array(repeating: (0, 0, 0), count: windows))
        }
    }

    /// Takes in one sample at `t` seconds on the trace's axis, with acceleration `magnitude` (m/s²).
    public mutating func add(at t: Double, magnitude: Double) {
        while next < stretches.count, t >= stretches[next].end { next += 1 }
        guard next < stretches.count, t >= stretches[next].start else { return }
        let stretch = stretches[next]
        let k = Int((t - stretch.start) / Self.window)
        if k < stretch.aligned { count(magnitude, in: k) }
        // A last window that ends with the next shake may overlap the one before it.
        if stretch.windows > stretch.aligned, t >= stretch.end - Self.window { count(magnitude, in: stretch.windows - 1) }
    }

    private mutating func count(_ magnitude: Double, in window: Int) {
        stretches[next].sums[window].n += 1
        stretches[next].sums[window].sum += magnitude
        stretches[next].sums[window].squares += magnitude * magnitude
    }

    /// Whether the hand went on through window `window` after label `label`: two samples or more, and
    /// the spread at or above ``spreadFloor``.
    private func wentOn(after label: Int, window: Int) -> Bool {
        let sums = stretches[label].sums[window]
        guard sums.n >= 2 else { return false }
        let mean = sums.sum / Double(sums.n)
        return sums.squares / Double(sums.n) - mean * mean >= Self.spreadFloor * Self.spreadFloor
    }

    /// Whether the hand went on from label `index` into the next shake.
    public func joinsNext(_ index: Int) -> Bool {
        let stretch = stretches[index]
        return stretch.reachesNextShake && (0..<stretch.windows).allSatisfy { wentOn(after: index, window: $0) }
    }

    /// Where the shake of label `index` ended: its labelled end, later by each half second that the hand
    /// went on at once after it.
    public func end(of index: Int, labelled: Double) -> Double {
        var windows = 0
        while windows < stretches[index].aligned, wentOn(after: index, window: windows) { windows += 1 }
        return labelled + Double(windows) * Self.window
    }

    /// The shakes of `labels`: each run the hand went on between made one, from the first's start, each
    /// ending where the hand stopped.
    public func merged(_ labels: [LabelledInterval]) -> [LabelledInterval] {
        var result: [LabelledInterval] = []
        for (index, label) in labels.enumerated() {
            let end = end(of: index, labelled: label.end)
            if index > 0, joinsNext(index - 1), var last = result.popLast() {
                last.end = end
                result.append(last)
            } else {
                result.append(LabelledInterval(start: label.start, end: end))
            }
        }
        return result
    }

    /// `clips` with their shake clips made the shakes of ``merged(_:)`` (the events file's shake clips are
    /// the labels, in order).
    public func merged(_ clips: [GestureClip]) -> [GestureClip] {
        var result: [GestureClip] = []
        var shake = 0
        for clip in clips {
            guard clip.isShake else {
                result.append(clip)
                continue
            }
            let end = end(of: shake, labelled: clip.end)
            if shake > 0, joinsNext(shake - 1), let i = result.lastIndex(where: \.isShake) {
                result[i].end = end
            } else {
                result.append(GestureClip(start: clip.start, end: end, gesture: clip.gesture))
            }
            shake += 1
        }
        return result
    }
}
