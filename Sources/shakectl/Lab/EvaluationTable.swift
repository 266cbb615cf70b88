import ShakeDetection
import Traces

/// Prints evaluation rows as aligned text or JSON lines. With `events` (some trace has an events
/// file), text rows gain a "between" column (and FP/h a wider one), the header shows even with
/// `--summary`, the totals are followed by the false positives by gesture group, and JSON rows of
/// traces with events carry the counts by group and by class.
struct EvaluationTable {
    let format: OutputFormat
    let events: Bool

    private struct Row: Codable {
        var trace: String
        var detector: String
        var total: Bool
        /// On a set's totals (when several sets were scored): the set's name.
        var set: String?
        var labelled: Int
        var hits: Int
        var falsePositives: Int
        var recall: Double
        var precision: Double
        var f1: Double
        var falsePositivesPerHour: Double
        var unlabelledHours: Double
        var latencyMedian: Double?
        var latencyP95: Double?
        var latencyFromEndMedian: Double?
        var latencyFromEndP95: Double?
        // Only where an events file was read (nil keys are left out of the JSON).
        var tracesWithEvents: Int?
        var betweenClips: Int?
        var betweenClipsHours: Double?
        var falseAlarmsByGroup: [String: Int]?
        var falseAlarmsByClass: [String: Int]?
        var clipsByGroup: [String: Int]?
        var clipsByClass: [String: Int]?
        /// Labelled clips joined to the one before as one shake (nil when none was).
        var mergedClips: Int?
    }

    private var width: Int { events ? 136 : 126 }

    func printHeader() {
        guard format == .text else { return }
        print(
            pad("trace", 44, left: true) + pad("detector", 10, left: true) + " hits/lab   FP"
                + (events ? " between  recall  prec.    F1    FP/h" : "  recall  prec.    F1  FP/h") + "  lat50  lat95  end50  end95")
    }

    func printTrace(_ name: String, scores: [(name: String, score: Score)]) {
        for (detector, score) in scores { emit(trace: name, detector: detector, score: score, total: false) }
    }

    /// The totals of every detector on rows named `label`: those of the set `set` when given (JSON:
    /// `"total": false, "set": NAME`), else of the whole run (`"total": true`). With `groups`, the false
    /// positives by gesture group follow, where the traces had events files.
    func printTotals(
        _ totals: [(name: String, score: Score)], label: String, set: String? = nil, groups: Bool = true
    ) {
        if format == .text { print(String(repeating: "-", count: width)) }
        for (detector, score) in totals { emit(trace: label, detector: detector, score: score, total: set == nil, set: set) }
        if format == .text, let merged = totals.first?.score.mergedClips, merged > 0 {
            let clips = merged == 1 ? "1 labelled clip" : "\(merged) labelled clips"
            print(
                "\(clips) joined to the shake before: the hand never stopped between (every half second kept the "
                    + "spread of |a| at or above \(decimal(ContinuousShaking.spreadFloor, 0)) m/s²), so "
                    + "\(totals[0].score.labelled) shakes")
        }
        if format == .text && events && groups { printGroups(totals, title: set) }
    }

    /// The traces that could not be read and were left out, after the totals (text), or on standard
    /// error (JSON, whose output stays one row per line).
    func printLeftOut(_ problems: [String]) {
        guard !problems.isEmpty else { return }
        let lines =
            ["Left out \(problems.count) trace\(problems.count == 1 ? "" : "s") that could not be read (fix them, or leave them out):"]
            + problems.map { "  " + $0 }
        if format == .text {
            print()
            for line in lines { print(line) }
        } else {
            for line in lines { printError(line) }
        }
    }

    /// The false positives of each detector by gesture group, one row per group that has clips
    /// or false positives, then the detections between clips.
    private func printGroups(_ totals: [(name: String, score: Score)], title: String?) {
        guard let first = totals.first?.score, first.tracesWithEvents > 0 else { return }
        let clips = first.clipsByGroup
        let alarms = totals.map(\.score.falseAlarmsByGroup)
        let columns = totals.map { max(10, $0.name.count + 2) }
        let cells = { (values: [String]) in zip(values, columns).map { pad($0, $1) }.joined() }
        print()
        print(
            "False positives by gesture\(title.map { " (\($0))" } ?? ""), in the \(first.tracesWithEvents) "
                + (first.tracesWithEvents == 1 ? "trace" : "traces") + " with an events file "
                + "(in a clip, or \(decimal(Score.grace, 1)) s after it):")
        print(pad("gesture", 28, left: true) + pad("clips", 7) + cells(totals.map(\.name)))
        for group in GestureGroup.allCases
        where clips[group, default: 0] > 0 || alarms.contains(where: { $0[group, default: 0] > 0 }) {
            print(
                pad(group.title, 28, left: true) + pad("\(clips[group, default: 0])", 7)
                    + cells(alarms.map { "\($0[group, default: 0])" }))
        }
        print(
            pad("between clips (not FP)", 28, left: true) + pad("-", 7)
                + cells(totals.map { "\($0.score.betweenClips)" }))
    }

    private func emit(trace: String, detector: String, score: Score, total: Bool, set: String? = nil) {
        switch format {
        case .json:
            var row = Row(
                trace: total ? "TOTAL" : trace, detector: detector, total: total, set: set,
                labelled: score.labelled,
                hits: score.hits, falsePositives: score.falsePositives, recall: rounded(score.recall),
                precision: rounded(score.precision), f1: rounded(score.f1),
                falsePositivesPerHour: rounded(score.falsePositivesPerHour, 2),
                unlabelledHours: rounded(score.unlabelledSeconds / 3600, 4),
                latencyMedian: score.medianLatency.map { rounded($0) }, latencyP95: score.p95Latency.map { rounded($0) },
                latencyFromEndMedian: score.medianLatencyFromEnd.map { rounded($0) },
                latencyFromEndP95: score.p95LatencyFromEnd.map { rounded($0) },
                mergedClips: score.mergedClips > 0 ? score.mergedClips : nil
            )
            if score.tracesWithEvents > 0 {
                row.tracesWithEvents = score.tracesWithEvents
                row.betweenClips = score.betweenClips
                row.betweenClipsHours = rounded(score.betweenClipsSeconds / 3600, 4)
                row.falseAlarmsByGroup = byName(score.falseAlarmsByGroup)
                row.falseAlarmsByClass = score.falseAlarmsByClass
                row.clipsByGroup = byName(score.clipsByGroup)
                row.clipsByClass = score.clipsByClass
            }
            print(encodeJSONLine(row))
        case .text:
            let latency = { (v: Double?) in v.map { decimal($0, 3) } ?? "-" }
            let between = events ? pad(score.tracesWithEvents > 0 ? "\(score.betweenClips)" : "-", 8) : ""
            print(
                pad(String(trace.prefix(43)), 44, left: true) + pad(detector, 10, left: true)
                    + pad("\(score.hits)/\(score.labelled)", 9) + pad("\(score.falsePositives)", 5) + between
                    + pad(decimal(score.recall, 3), 8) + pad(decimal(score.precision, 3), 7)
                    + pad(decimal(score.f1, 3), 6) + pad(decimal(score.falsePositivesPerHour, 1), events ? 8 : 6)
                    + pad(latency(score.medianLatency), 7) + pad(latency(score.p95Latency), 7)
                    + pad(latency(score.medianLatencyFromEnd), 7) + pad(latency(score.p95LatencyFromEnd), 7))
        }
    }

    private func byName(_ groups: [GestureGroup: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: groups.map { ($0.key.rawValue, $0.value) })
    }
}
