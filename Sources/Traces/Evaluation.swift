import ShakeDetection

/// How one detector did on one or more traces.
public struct Score: Sendable, Hashable {
    /// Labelled intervals with a hit.
    public var hits = 0
    /// Labelled intervals in all.
    public var labelled = 0
    /// Detections that hit no interval, or hit one that already had its hit. In a trace with an
    /// events file, only those in a clip: the ones between clips are ``betweenClips``.
    public var falsePositives = 0
    /// Seconds of trace outside every labelled interval.
    public var unlabelledSeconds = 0.0
    /// Seconds from each hit interval's start to the recognition (negative for a hit before the
    /// start, which only a trace with an events file allows).
    public var latencies: [Double] = []
    /// Seconds from each hit interval's end to the recognition, in the order of ``latencies``: how
    /// long after the shake stopped its answer came (negative for one that came before the labelled end).
    public var latenciesFromEnd: [Double] = []
    /// Traces scored with an events file: the fields below count only in them.
    public var tracesWithEvents = 0
    /// Detections that hit nothing and fell in no clip: not false positives, since what the
    /// person was doing between clips is not known.
    public var betweenClips = 0
    /// Seconds outside every clip.
    public var betweenClipsSeconds = 0.0
    /// The false positives, by the class of the clip they fell in (`Shake` for a shake detected
    /// again); they sum to ``falsePositives`` when every trace had an events file.
    public var falseAlarmsByClass: [String: Int] = [:]
    /// The clips, by class.
    public var clipsByClass: [String: Int] = [:]
    /// Labelled clips joined to the one before them as one shake, the hand never having stopped between
    /// (``ContinuousShaking``): ``labelled`` counts the shakes after joining.
    public var mergedClips = 0

    /// Creates an empty score.
    public init() {}

    /// Hits over labelled intervals; 1 when nothing was labelled.
    public var recall: Double { labelled == 0 ? 1 : Double(hits) / Double(labelled) }
    /// Hits over detections; 1 when nothing was detected.
    public var precision: Double {
        hits + falsePositives == 0 ? 1 : Double(hits) / Double(hits + falsePositives)
    }
    /// The harmonic mean of precision and recall.
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    /// False positives per hour of unlabelled time, less the time between clips (where
    /// detections are not counted as false positives).
    public var falsePositivesPerHour: Double {
        let seconds = unlabelledSeconds - betweenClipsSeconds
        return seconds > 0 ? Double(falsePositives) / (seconds / 3600) : 0
    }
    /// ``falseAlarmsByClass`` summed into groups; every group is present.
    public var falseAlarmsByGroup: [GestureGroup: Int] { falseAlarmsByClass.byGestureGroup() }
    /// ``clipsByClass`` summed into groups; every group is present.
    public var clipsByGroup: [GestureGroup: Int] { clipsByClass.byGestureGroup() }
    /// The median latency in seconds, nil without hits.
    public var medianLatency: Double? { percentile(latencies, 50) }
    /// The 95th-percentile latency in seconds, nil without hits.
    public var p95Latency: Double? { percentile(latencies, 95) }
    /// The median latency from the labelled end in seconds, nil without hits.
    public var medianLatencyFromEnd: Double? { percentile(latenciesFromEnd, 50) }
    /// The 95th-percentile latency from the labelled end in seconds, nil without hits.
    public var p95LatencyFromEnd: Double? { percentile(latenciesFromEnd, 95) }

    /// Adds another score (a later trace) to this one.
    public static func += (lhs: inout Score, rhs: Score) {
        lhs.hits += rhs.hits
        lhs.labelled += rhs.labelled
        lhs.falsePositives += rhs.falsePositives
        lhs.unlabelledSeconds += rhs.unlabelledSeconds
        lhs.latencies += rhs.latencies
        lhs.latenciesFromEnd += rhs.latenciesFromEnd
        lhs.tracesWithEvents += rhs.tracesWithEvents
        lhs.betweenClips += rhs.betweenClips
        lhs.betweenClipsSeconds += rhs.betweenClipsSeconds
        lhs.falseAlarmsByClass.merge(rhs.falseAlarmsByClass, uniquingKeysWith: +)
        lhs.clipsByClass.merge(rhs.clipsByClass, uniquingKeysWith: +)
        lhs.mergedClips += rhs.mergedClips
    }

    /// How long after a labelled end a detection still hits it, in seconds: the answer to a shake
    /// comes when the hand stops (labels end about 0.1 s after the motion).
    public static let grace = 1.0

    /// Scores detections (recognition times, in seconds) against labels. A detection is a hit
    /// when it falls in [start, end + `grace`] of an interval that has no hit yet; every other
    /// detection is a false positive.
    public static func match(
        detections: [Double], labels: [LabelledInterval], duration: Double, grace: Double = Score.grace
    ) -> Score {
        var score = Score()
        score.labelled = labels.count
        score.unlabelledSeconds = max(0, duration - labels.reduce(0) { $0 + ($1.end - $1.start) })
        var used = [Bool](repeating: false, count: labels.count)
        for time in detections {
            if let i = labels.indices.first(where: {
                !used[$0] && labels[$0].start <= time && time <= labels[$0].end + grace
            }) {
                used[i] = true
                score.hits += 1
                score.latencies.append(time - labels[i].start)
                score.latenciesFromEnd.append(time - labels[i].end)
            } else {
                score.falsePositives += 1
            }
        }
        return score
    }
}

/// The linearly interpolated percentile `p` (0-100) of some values, nil when empty.
public func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = p / 100 * Double(sorted.count - 1)
    let low = Int(rank)
    let high = min(low + 1, sorted.count - 1)
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
}

/// One trace run through several detectors in a single streaming pass.
public struct TraceRun: Sendable {
    /// The trace's file name without folder and `.csv`.
    public var name: String
    /// Seconds from the first to the last sample.
    public var duration: Double
    /// The trace's shakes: its labels, with the clips the hand never stopped between made one and each
    /// ending where the hand stopped (``ContinuousShaking``).
    public var labels: [LabelledInterval]
    /// The clips of the trace's events file, nil when it has none (its shake clips merged as `labels`).
    public var clips: [GestureClip]?
    /// How many labelled clips were joined to the one before, as one shake (``ContinuousShaking``).
    public var mergedClips = 0
    /// Events per detector, in the order the detectors were given.
    public var events: [(kind: DetectorKind, events: [ShakeEvent])]
    /// The trace's first timestamp, in nanoseconds (events are on the same clock).
    public var origin: Int64

    /// Streams the trace at `path` through fresh detectors of each kind, and reads its labels
    /// (a missing `.labels` file is an error: evaluation needs them) and, with them, its events
    /// file where it has one. Where it has one, a shake goes on for as long as the hand does: consecutive
    /// shakes the hand never stopped between are one (``ContinuousShaking``).
    ///
    /// With `restingRate` (Hz), a detector whose device lies still (``ShakeDetecting/isAtRest``) is
    /// fed only one sample in each `1 / restingRate` s until it moves again: what a sensor polled at
    /// the trace's rate, and slowed to `restingRate` at rest, would give it.
    ///
    /// With `stream`, every detector gets only the samples that stream delivers (``SampleStream``). With
    /// `rules`, shaked's detector runs with those rules turned off.
    public static func run(
        path: String, detectors: [DetectorKind], sensitivity: Sensitivity = .medium, without rules: [ShakeRule] = [],
        needLabels: Bool = true, restingRate: Double? = nil, stream: SampleStream? = nil
    ) throws(TraceError) -> TraceRun {
        let labelsPath = Labels.path(forTrace: path)
        let labels = needLabels ? try Labels.read(path: labelsPath) : []
        let eventsPath = Events.path(forTrace: path)
        let clips = needLabels && Events.exist(forTrace: path) ? try Events.read(path: eventsPath) : nil
        var machines = detectors.map { $0.make(sensitivity: sensitivity, without: rules) }
        var found = [[ShakeEvent]](repeating: [], count: detectors.count)
        let restingPeriod = restingRate.map { Int64(1e9 / $0) }
        var lastFed = [Int64](repeating: .min, count: detectors.count)
        var first: Int64?
        var last: Int64 = 0
        var iterator = TraceReader(path: path).makeIterator()
        var delivered = stream?.filter()
        var continuous = clips.map { ContinuousShaking(labels: labels, clips: $0) }
        while let sample = try iterator.nextSample() {
            if first == nil { first = sample.timestamp }
            last = sample.timestamp
            if continuous != nil, let first {
                let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
                continuous?.add(at: Double(sample.timestamp - first) / 1e9, magnitude: magnitude)
            }
            if delivered?.admits(sample.timestamp) == false { continue }
            for i in machines.indices {
                if let restingPeriod, machines[i].isAtRest, sample.timestamp &- lastFed[i] < restingPeriod { continue }
                lastFed[i] = sample.timestamp
                if let event = machines[i].process(sample) { found[i].append(event) }
            }
        }
        guard let origin = first else {
            throw TraceError(.empty, path: path, line: 2, "the trace has a header but no samples")
        }
        let duration = Double(last - origin) / 1e9
        try Labels.check(labels, within: 0...duration, path: labelsPath)
        if let clips {
            try Events.check(clips, within: 0...duration, path: eventsPath)
            try Events.check(clips, agreeWith: labels, path: eventsPath, labelsPath: labelsPath)
        }
        let name = String((path.split(separator: "/").last ?? Substring(path)).dropLast(path.hasSuffix(".csv") ? 4 : 0))
        let shakes = continuous?.merged(labels) ?? labels
        var run = TraceRun(
            name: name, duration: duration, labels: shakes, clips: clips.map { continuous?.merged($0) ?? $0 },
            events: Array(zip(detectors, found)).map { (kind: $0.0, events: $0.1) }, origin: origin)
        run.mergedClips = labels.count - shakes.count
        return run
    }

    /// Seconds on the trace's own `t` axis for a timestamp.
    public func seconds(_ timestamp: Int64) -> Double { Double(timestamp - origin) / 1e9 }

    /// The score of each detector on this trace, with the events file's rules where it has one.
    public func scores() -> [(kind: DetectorKind, score: Score)] {
        events.map { entry in
            let detections = entry.events.compactMap { $0.ended.map(seconds) }
            var score =
                if let clips {
                    Score.match(detections: detections, labels: labels, clips: clips, duration: duration)
                } else {
                    Score.match(detections: detections, labels: labels, duration: duration)
                }
            score.mergedClips = mergedClips
            return (kind: entry.kind, score: score)
        }
    }
}
