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
    }

    @Test("the micro:bit's 109 clips of other motion give no event")
    func microbitOtherMotion() throws {
        let other = try Self.score("other-hands") { !$0.contains("_shake_") && !$0.contains("waggle") }
        #expect(other.labelled == 0)
        #expect(other.falsePositives == 0, "\(other.falsePositives) events in clips of other motion")
    }

    @Test("eight people's sessions: at least 39 of 40 shakes, none in rest, letters or swings")
    func manyHands() throws {
        let score = try Self.score("many-hands")
        #expect(score.labelled == 40)
        #expect(score.hits >= 39, "\(score.hits) of \(score.labelled)")
        #expect((score.falseAlarmsByGroup[.rest] ?? 0) == 0)
        #expect((score.falseAlarmsByGroup[.midairLetters] ?? 0) == 0)
        #expect((score.falseAlarmsByGroup[.swingsAndThrows] ?? 0) == 0, "\(score.falseAlarmsByClass)")
        #expect((score.clipsByGroup[.swingsAndThrows] ?? 0) == 160)
    }

    @Test("phones on the body in daily life (KU-HAR: running, jumping, stairs): at most 20 false alarms in 5.5 h")
    func everydayOnTheBody() throws {
        let files = try Corpus.traceFiles([TestPaths.traces.appendingPathComponent("everyday-ku-har").path])
        try #require(files.count >= 599, "the shared corpus must be beside the checkout (../shared/traces/everyday-ku-har)")
        var total = Score()
        var unreadable: [TraceError] = []
        for file in files {
            do {
                for entry in try TraceRun.run(path: file, detectors: [.shaked]).scores() { total += entry.score }
            } catch {
                unreadable.append(error)
            }
        }
        // Four files have one time step backwards (as `shakectl evaluate` reports); they are left
        // out there too. Any other problem is new and fails here.
        #expect(unreadable.count <= 4, "\(unreadable)")
        #expect(unreadable.allSatisfy { $0.code == .timeNotIncreasing }, "\(unreadable)")
        #expect(total.labelled == 0)
        #expect(total.falsePositives <= 20, "\(total.falsePositives) events where nothing is a shake (85 before issue 29)")
    }
}
