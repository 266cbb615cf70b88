import Foundation
import TestSupport
import Testing

/// `detect --learn` and `evaluate --learn`: replaying a trace while learning from the answers.
@Suite struct LearnCommandTests {
    let shakectl = TestPaths.binary("shakectl")

    @Test("detect --learn answers each prompt from the labels, says what it learned, and writes the profile back")
    func detectLearns() throws {
        let profile = try TestPaths.temporaryDirectory().appendingPathComponent("profile.json").path
        let trace = TestPaths.trace("qt_shake_left")
        let first = try runProcess(shakectl, ["detect", trace, "--learn", profile])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("answered undo"), "\(first.stdout)")
        #expect(first.stdout.contains("learned: your shakes: about"), "\(first.stdout)")
        let written = try String(contentsOfFile: profile, encoding: .utf8)
        #expect(written.contains("\"undone\""))
        // A second replay starts from what the first learned.
        let second = try runProcess(shakectl, ["detect", trace, "--learn", profile, "--format", "json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("\"answer\":\"undo\""), "\(second.stdout)")
        let undone = { (text: String) in
            text.split(separator: "\n").first { $0.contains("\"undone\"") }.map(String.init) ?? ""
        }
        #expect(undone(try String(contentsOfFile: profile, encoding: .utf8)) != undone(written))
    }

    @Test("detect --learn --answers cancel answers Cancel to every prompt")
    func detectCancels() throws {
        let profile = try TestPaths.temporaryDirectory().appendingPathComponent("profile.json").path
        let result = try runProcess(
            shakectl, ["detect", TestPaths.trace("qt_shake_left"), "--learn", profile, "--answers", "cancel"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("answered cancel") && !result.stdout.contains("answered undo"))
    }

    @Test("a file that is not a profile is kept aside and learning starts over")
    func corruptProfileKeptAside() throws {
        let folder = try TestPaths.temporaryDirectory()
        let profile = folder.appendingPathComponent("profile.json").path
        try "{not json".write(toFile: profile, atomically: true, encoding: .utf8)
        let result = try runProcess(shakectl, ["detect", TestPaths.trace("qt_shake_left"), "--learn", profile])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("kept as \(profile).corrupt-1"), "\(result.stderr)")
        #expect(try String(contentsOfFile: profile + ".corrupt-1", encoding: .utf8) == "{not json")
    }

    @Test("evaluate --learn prints rows with learning beside those without")
    func evaluateLearns() throws {
        let traces = ["qt_shake_left", "spliced_dev_04_pebble_run_200"].map(TestPaths.trace)
        let result = try runProcess(shakectl, ["evaluate"] + traces + ["--learn", "--summary"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("TOTAL") }
        #expect(rows.count == 2 && rows[0].contains("shaked") && rows[1].contains("learned"), "\(result.stdout)")
        let misuse = try runProcess(shakectl, ["evaluate"] + traces + ["--answers", "undo"])
        #expect(misuse.status != 0 && misuse.stderr.contains("--answers goes with --learn"))
    }
}
