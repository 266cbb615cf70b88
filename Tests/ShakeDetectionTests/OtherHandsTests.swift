import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// Other people's shakes on other devices (`../shared/traces/other-hands`, `many-hands`), and
/// phones on the body in daily life (`everyday-ku-har`): the evaluations of issues 22 and 29, kept
/// in the suite so a change that loses them fails. The floors are the figures measured when the
/// detector was changed (docs/detector.md), not tuned per clip: a change may better them, never
/// worsen them silently.
@Suite struct OtherHandsTests {
    static func score(_ folder: String, matching: (String) -> Bool = { _ in true }) throws -> Score {
        let files = try Corpus.traceFiles([TestPaths.traces.appendingPathComponent(folder).path])
            .filter { matching(String($0.split(separator: "/").last ?? "")) }
        try #require(!files.isEmpty, "the shared corpus must be beside the checkout (../shared/traces/\(folder))")
        var total = Score()
        for file in files {
            let run = try TraceRun.run(path: file, detectors: [.shaked])
            for entry in run.scores() { total += entry.score }
        }
        return total
    }

    @Test("micro:bit shakes by other hands: all 17, and all 13 waggles")
    func microbitShakes() throws {
        let shakes = try Self.score("other-hands") { $0.contains("_shake_") }
        #expect(shakes.labelled == 17)
        #expect(shakes.hits == 17, "\(shakes.hits) of \(shakes.labelled)")
        #expect(shakes.falsePositives == 0)
        let waggles = try Self.score("other-hands") { $0.contains("waggle") }
        #expect(waggles.hits == 13, "\(waggles.hits) of \(waggles.labelled)")
        // Answered when the hand stops: a median of at most 0.4 s after the labelled end, p95 0.8 s.
        var both = shakes
        both += waggles
        #expect((both.medianLatencyFromEnd ?? 9) <= 0.4, "\(both.latenciesFromEnd)")
        #expect((both.p95LatencyFromEnd ?? 9) <= 0.8, "\(both.latenciesFromEnd)")
    }

    @Test("the corpus: all 31 shakes, no false alarm, answered within 0.4 s of the end (median), 0.8 s (p95)")
    func corpus() throws {
        var total = Score()
        for file in TestPaths.allTraces() {
            for entry in try TraceRun.run(path: file, detectors: [.shaked]).scores() { total += entry.score }
        }
        try #require(total.labelled == 31, "the shared corpus must be beside the checkout (../shared/traces)")
        #expect(total.hits == 31)
        #expect(total.falsePositives == 0)
        #expect((total.medianLatencyFromEnd ?? 9) <= 0.4, "\(total.latenciesFromEnd)")
        #expect((total.p95LatencyFromEnd ?? 9) <= 0.8, "\(total.latenciesFromEnd)")
    }

    @Test("the micro:bit's 109 clips of other motion give no event")
    func microbitOtherMotion() throws {
        let other = try Self.score("other-hands") { !$0.contains("_shake_") && !$0.contains("waggle") }
        #expect(other.labelled == 0)
        #expect(other.falsePositives == 0, "\(other.falsePositives) events in clips of other motion")
    }

    @Test("eight people's sessions: 37 shakes (40 clips), all but one found, none in rest, letters or swings")
    func manyHands() throws {
        let score = try Self.score("many-hands")
        // Four of samuelr's five shake clips lie inside 22 s of shaking without a pause: one shake
        // (Traces.ContinuousShaking), answered once when it stops.
        #expect(score.labelled == 37, "\(score.mergedClips) clips merged")
        #expect(score.mergedClips == 3)
        // One of stacy's slow circling shakes is missed (docs/detector.md).
        #expect(score.hits >= 36, "\(score.hits) of \(score.labelled)")
        #expect((score.falseAlarmsByGroup[.rest] ?? 0) == 0)
        #expect((score.falseAlarmsByGroup[.midairLetters] ?? 0) == 0)
        #expect((score.falseAlarmsByGroup[.swingsAndThrows] ?? 0) == 0, "\(score.falseAlarmsByClass)")
        #expect((score.clipsByGroup[.swingsAndThrows] ?? 0) == 160)
        // The answer comes when the hand stops: a median under 0.4 s after the shake's end, p95 0.8 s.
        #expect((score.medianLatencyFromEnd ?? 9) <= 0.4, "\(score.latenciesFromEnd)")
        #expect((score.p95LatencyFromEnd ?? 9) <= 0.8, "\(score.latenciesFromEnd)")
    }

    /// Every trace of `folder` that reads; the files that do not are returned apart (a set may hold a
    /// few that `shakectl evaluate` also leaves out, named there).
    static func everyday(_ folder: String) throws -> (score: Score, unreadable: [TraceError], files: Int) {
        let files = try Corpus.traceFiles([TestPaths.traces.appendingPathComponent(folder).path])
        var total = Score()
        var unreadable: [TraceError] = []
        for file in files {
            do {
                for entry in try TraceRun.run(path: file, detectors: [.shaked]).scores() { total += entry.score }
            } catch {
                unreadable.append(error)
            }
        }
        return (total, unreadable, files.count)
    }

    @Test("phones on the body in daily life (KU-HAR: running, jumping, stairs): at most 1 false alarm in 5.5 h")
    func everydayOnTheBody() throws {
        let (total, unreadable, files) = try Self.everyday("everyday-ku-har")
        try #require(files >= 599, "the shared corpus must be beside the checkout (../shared/traces/everyday-ku-har)")
        #expect(unreadable.isEmpty, "\(unreadable)")
        #expect(total.labelled == 0)
        #expect(total.falsePositives <= 1, "\(total.falsePositives) events where nothing is a shake (85 before issue 29, 20 before issue 36)")
    }

    /// The sets of everyday life added with issue 36 (../shared/traces/README.md), each held to what the
    /// detector measured on it (UMAFall 5 before issue 42's posture and rhythm rules, 2 after); every one is in the shared corpus, so a missing set fails.
    static let newerEveryday: [(folder: String, files: Int, falseAlarms: Int)] = [
        ("everyday-himu", 12, 1), ("everyday-umafall", 457, 2), ("everyday-ipin2023", 50, 0),
    ]

    @Test("phones in pockets, in the hand and through falls (issue 36's sets): no more false alarms than measured",
        arguments: newerEveryday)
    func newerEverydaySets(set: (folder: String, files: Int, falseAlarms: Int)) throws {
        let (total, unreadable, files) = try Self.everyday(set.folder)
        try #require(files == set.files, "\(set.folder): \(files) traces; the shared corpus must be beside the checkout")
        #expect(unreadable.isEmpty, "\(unreadable)")
        #expect(total.labelled == 0)
        #expect(total.falsePositives <= set.falseAlarms, "\(set.folder): \(total.falsePositives) false alarms")
    }
}
