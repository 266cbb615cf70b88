import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// How detections are scored where a trace has an events file: hits from 1 s before a shake,
/// false positives by the class of the clip they fall in, and detections between clips apart.
@Suite struct ScoringWithEventsTests {
    static let labels = [LabelledInterval(start: 10, end: 11)]
    static let clips = [
        GestureClip(start: 2, end: 3, gesture: "Backhand Tennis"), GestureClip(start: 10, end: 11, gesture: "Shake"),
        GestureClip(start: 15, end: 16, gesture: "At Rest"), GestureClip(start: 20, end: 21, gesture: "Midair _S_"),
        GestureClip(start: 25, end: 26, gesture: "Custom"), GestureClip(start: 30, end: 31, gesture: "Juggling"),
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var detections: [Double]
        var hits = 0
        var between = 0
        var falseAlarms: [String: Int] = [:]
    }

    static let rows: [Row] = [
        Row(testDescription: "0.8 s before the labelled start is a hit", detections: [9.2], hits: 1),
        Row(testDescription: "at the grace edge, 1 s after the end, is a hit", detections: [12.0], hits: 1),
        Row(testDescription: "1.1 s before the start is between clips", detections: [8.9], between: 1),
        Row(
            testDescription: "in a Tennis clip is a false alarm of that class", detections: [2.5],
            falseAlarms: ["Backhand Tennis": 1]),
        Row(
            testDescription: "0.9 s after a Tennis clip still counts against it", detections: [3.9],
            falseAlarms: ["Backhand Tennis": 1]),
        Row(testDescription: "1.1 s after a clip is between clips", detections: [4.1], between: 1),
        Row(
            testDescription: "a second detection in a shake is a shake detected again", detections: [10.2, 10.6],
            hits: 1, falseAlarms: ["Shake": 1]),
        Row(
            testDescription: "a second detection in the second before a shake too", detections: [9.2, 9.5], hits: 1,
            falseAlarms: ["Shake": 1]),
        Row(
            testDescription: "every other class counts by name", detections: [15.5, 20.5, 25.5, 30.5],
            falseAlarms: ["At Rest": 1, "Midair _S_": 1, "Custom": 1, "Juggling": 1]),
        Row(testDescription: "far from every clip is between clips", detections: [50, 60], between: 2),
    ]

    @Test("detections are hits, false alarms by class, or between clips", arguments: rows)
    func matching(_ row: Row) {
        let score = Score.match(detections: row.detections, labels: Self.labels, clips: Self.clips, duration: 100)
        #expect(score.hits == row.hits)
        #expect(score.betweenClips == row.between)
        #expect(score.falseAlarmsByClass == row.falseAlarms)
        #expect(score.falsePositives == row.falseAlarms.values.reduce(0, +), "between clips is not a false positive")
        #expect(score.labelled == 1 && score.tracesWithEvents == 1)
        #expect(score.latencies.count == row.hits)
    }

    @Test("a hit before the start has a negative latency; the same detection without events is a false positive")
    func earlyHit() {
        let withEvents = Score.match(detections: [9.2], labels: Self.labels, clips: Self.clips, duration: 100)
        #expect(abs(withEvents.latencies[0] + 0.8) < 1e-9)
        #expect(abs(withEvents.latenciesFromEnd[0] + 1.8) < 1e-9)
        let without = Score.match(detections: [9.2], labels: Self.labels, duration: 100)
        #expect(without.hits == 0 && without.falsePositives == 1 && without.tracesWithEvents == 0)
        #expect(without.betweenClips == 0 && without.falseAlarmsByClass.isEmpty && without.clipsByClass.isEmpty)
    }

    @Test("clips and false alarms add up by class and by group; FP/h counts only time in clips")
    func totals() {
        var total = Score.match(
            detections: [2.5, 9.2, 10.5, 20.5, 50], labels: Self.labels, clips: Self.clips, duration: 100)
        total += Score.match(detections: [2.2, 70], labels: Self.labels, clips: Self.clips, duration: 100)
        total += Score.match(detections: [40], labels: [], duration: 3600)
        #expect(total.tracesWithEvents == 2)
        #expect(total.hits == 1 && total.labelled == 2)
        #expect(total.falseAlarmsByClass == ["Backhand Tennis": 2, "Shake": 1, "Midair _S_": 1])
        #expect(total.falsePositives == 5, "4 in clips, and 1 in the trace without events")
        #expect(total.betweenClips == 2)
        #expect(total.clipsByClass["Backhand Tennis"] == 2 && total.clipsByClass["Shake"] == 2)
        #expect(total.falseAlarmsByGroup[.swingsAndThrows] == 2 && total.falseAlarmsByGroup[.shakeRepeat] == 1)
        #expect(total.falseAlarmsByGroup[.rest] == 0 && total.falseAlarmsByGroup.count == GestureGroup.allCases.count)
        #expect(total.clipsByGroup[.other] == 2 && total.clipsByGroup[.midairLetters] == 2)
        // Per trace: 99 s unlabelled, 94 s of them between clips, so 5 s of non-shake clips each.
        #expect(abs(total.betweenClipsSeconds - 188) < 1e-9)
        #expect(abs(total.falsePositivesPerHour - 5 / ((10 + 3600) / 3600.0)) < 1e-9)
    }

    @Test("evaluation reads a trace's events file where there is one, and checks it against the trace")
    func traceRun() throws {
        let dir = try TestPaths.temporaryDirectory()
        let csv = dir.appendingPathComponent("still.csv").path
        let rows = (0...500).map { "\(Double($0) / 50),0,0,9.81\n" }.joined()
        try ("t,x,y,z\n" + rows).write(toFile: csv, atomically: true, encoding: .utf8)
        try "2 3\n".write(toFile: Labels.path(forTrace: csv), atomically: true, encoding: .utf8)
        let plain = try TraceRun.run(path: csv, detectors: [.shaked])
        #expect(plain.clips == nil)
        #expect(plain.scores()[0].score.tracesWithEvents == 0)

        let events = Events.path(forTrace: csv)
        try "0.5 1.5 At Rest\n2 3 Shake\n".write(toFile: events, atomically: true, encoding: .utf8)
        let run = try TraceRun.run(path: csv, detectors: [.shaked])
        #expect(run.clips?.count == 2)
        let score = run.scores()[0].score
        #expect(score.tracesWithEvents == 1 && score.clipsByClass == ["At Rest": 1, "Shake": 1])
        #expect(abs(score.betweenClipsSeconds - 8) < 1e-9)

        try "0.5 1.5 At Rest\n2 3 Shake\n9 11 Custom\n".write(toFile: events, atomically: true, encoding: .utf8)
        let outside = try #require(throws: TraceError.self) { try TraceRun.run(path: csv, detectors: [.shaked]) }
        #expect(outside.description == "\(events):3: clip 9.0-11.0 lies outside the trace (0.0-10.0 s)")

        try "2 3 Custom\n".write(toFile: events, atomically: true, encoding: .utf8)
        let disagree = try #require(throws: TraceError.self) { try TraceRun.run(path: csv, detectors: [.shaked]) }
        #expect(disagree.code == .eventsDisagreeWithLabels)
        #expect(
            disagree.description
                == "\(Labels.path(forTrace: csv)):1: the shake 2.0-3.0 has no Shake clip in still.events")
    }
}
