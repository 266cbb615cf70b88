import Foundation
import TestSupport
import Testing
import Traces

/// `.events` files: one `start end CLASS` line per saved clip, read as strictly as labels.
@Suite struct EventsTests {
    @Test("events parse, classes with spaces, CRLF too; an empty file means no clip; format reads back")
    func goodEvents() throws {
        #expect(try Events.parse("", path: "x").isEmpty)
        let parsed = try Events.parse(
            "10.846 12.276 Backhand Tennis\r\n16.412 18.238 Midair Counter-clockwise _O_\r\n20 21.5 Shake\r\n",
            path: "x")
        #expect(
            parsed == [
                GestureClip(start: 10.846, end: 12.276, gesture: "Backhand Tennis"),
                GestureClip(start: 16.412, end: 18.238, gesture: "Midair Counter-clockwise _O_"),
                GestureClip(start: 20, end: 21.5, gesture: "Shake"),
            ])
        #expect(parsed.map(\.isShake) == [false, false, true])
        #expect(try Events.parse(Events.format(parsed), path: "x") == parsed)
        #expect(Events.path(forTrace: "dir/mk_jon.csv") == "dir/mk_jon.events")
        // Clips may touch: one ends where the next starts.
        #expect(try Events.parse("1 2 Custom\n2 3 Shake", path: "x").count == 2)
    }

    static let longClass = String(repeating: "a", count: 61)

    /// The message for a line that is not `start end CLASS`.
    static func expected(_ line: Int, _ found: String) -> String {
        "x.events:\(line): expected \"start end CLASS\" (two numbers in seconds, then the clip's class, one space "
            + "apart), found \"\(found)\""
    }

    @Test(
        "bad events give file:line: and what is wrong",
        arguments: [
            ("1.0 2.0\n", expected(1, "1.0 2.0")),
            ("1 2 Shake\n3 4\n", expected(2, "3 4")),
            ("1  2 Shake\n", expected(1, "1  2 Shake")),
            ("0x1p3 9 Shake\n", expected(1, "0x1p3 9 Shake")),
            ("\n", expected(1, "")),
            ("2 1 Shake\n", "x.events:1: start 2.0 is not before end 1.0"),
            ("-1 2 Shake\n", "x.events:1: start and end must be finite, start ≥ 0 and end ≤ 1e9 s"),
            ("1 nan Shake\n", "x.events:1: start and end must be finite, start ≥ 0 and end ≤ 1e9 s"),
            ("1 2e9 Shake\n", "x.events:1: start and end must be finite, start ≥ 0 and end ≤ 1e9 s"),
            ("1 2 Shake\n1.5 3 Custom\n", "x.events:2: clip 1.5-3.0 overlaps or precedes the one before (1.0-2.0)"),
            ("5 6 Shake\n1 2 Custom\n", "x.events:2: clip 1.0-2.0 overlaps or precedes the one before (5.0-6.0)"),
            ("1 2 \n", "x.events:1: the class \"\" is empty; give the gesture after the two times"),
            (
                "1 2  Shake\n",
                "x.events:1: the class \" Shake\" has a space at an end or two in a row; separate words with single spaces"
            ),
            (
                "1 2 Backhand  Tennis\n",
                "x.events:1: the class \"Backhand  Tennis\" has a space at an end or two in a row; separate words with single spaces"
            ),
            (
                "1 2 Backhand\tTennis\n",
                "x.events:1: the class \"Backhand\\u{9}Tennis\" holds a control or formatting character (a tab?); separate words with single spaces"
            ),
            ("1 2 shake\n", "x.events:1: the class \"shake\" must be written \"Shake\" to count as a shake"),
            (
                "1 2 \(longClass)\n",
                "x.events:1: the class \"\(String(longClass.prefix(40)))…\" is longer than 60 characters"
            ),
        ])
    func badEvents(text: String, description: String) {
        do {
            _ = try Events.parse(text, path: "x.events")
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.code == .badEvent)
            #expect(error.description == description)
        }
    }

    @Test(
        "hostile events files are refused with a short, printable message",
        arguments: [
            (Array("1 2 ".utf8) + [UInt8](repeating: 0x41, count: 1 << 20) + [10], 1, "1048580 bytes long"),
            (Array("1 2 \u{1B}[2J\u{202E}Shake\n".utf8), 1, "\\u{1b}[2J\\u{202e}Shake"),
            (Array("1 2 Sh".utf8) + [0] + Array("ake\n".utf8), 1, "\\u{0}"),
            (Array("1 2 Custom\n".utf8) + [0x31, 0x20, 0xFF, 0x0A], nil, "not valid text (UTF-8)"),
            ([UInt8](repeating: 0x0A, count: 3), 1, "expected"),
        ] as [([UInt8], Int?, String)])
    func hostileEvents(bytes: [UInt8], line: Int?, says: String) throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("bad.events").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: TraceError.self) { try Events.read(path: path) }
        #expect(error.code == .badEvent, "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(says), "\(error)")
        #expect(error.description.count < 400, "the message quotes too much of the file: \(error.description.count)")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(error)")
    }

    @Test("a missing events file or a folder in its place is a named error")
    func unreadable() throws {
        let dir = try TestPaths.temporaryDirectory()
        let missing = dir.appendingPathComponent("none.events").path
        #expect(!Events.exist(forTrace: dir.appendingPathComponent("none.csv").path))
        let error = try #require(throws: TraceError.self) { try Events.read(path: missing) }
        #expect(error.description == "\(missing): the events file does not exist")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("folder.events"), withIntermediateDirectories: false)
        #expect(Events.exist(forTrace: dir.appendingPathComponent("folder.csv").path))
        let folder = try #require(throws: TraceError.self) {
            try Events.read(path: dir.appendingPathComponent("folder.events").path)
        }
        #expect(folder.message == "the events file is a folder, not a file")
    }

    @Test("clips must lie within the trace")
    func outsideTrace() throws {
        let clips = try Events.parse("1 2 Custom\n3 9.5 At Rest\n", path: "x")
        try Events.check(clips, within: 0...9.5, path: "x.events")
        let error = try #require(throws: TraceError.self) { try Events.check(clips, within: 0...9, path: "x.events") }
        #expect(error.code == .eventOutsideTrace)
        #expect(error.description == "x.events:2: clip 3.0-9.5 lies outside the trace (0.0-9.0 s)")
    }

    static let labels = [LabelledInterval(start: 3, end: 4), LabelledInterval(start: 7, end: 8)]

    @Test(
        "the Shake clips must be the labelled shakes, in order",
        arguments: [
            ("1 2 Custom\n3 4 Shake\n5 6 Baseball Throw\n7 8 Shake\n", nil),
            (
                "3 4 Shake\n7 8.5 Shake\n",
                "a/x.events:2: the Shake clip 7.0-8.5 is not the shake on line 2 of x.labels (7.0-8.0); every Shake clip must be a labelled shake"
            ),
            ("3 4 Shake\n", "a/x.labels:2: the shake 7.0-8.0 has no Shake clip in x.events"),
            ("3 4 Shake\n7 8 Custom\n", "a/x.labels:2: the shake 7.0-8.0 has no Shake clip in x.events"),
            (
                "3 4 Shake\n7 8 Shake\n9 10 Shake\n",
                "a/x.events:3: the Shake clip 9.0-10.0 is not in x.labels; every Shake clip must be a labelled shake"
            ),
        ] as [(String, String?)])
    func agreeWithLabels(text: String, description: String?) throws {
        let clips = try Events.parse(text, path: "a/x.events")
        do {
            try Events.check(clips, agreeWith: Self.labels, path: "a/x.events", labelsPath: "a/x.labels")
            #expect(description == nil, "expected \(description ?? "")")
        } catch {
            #expect(error.code == .eventsDisagreeWithLabels)
            #expect(error.description == description)
        }
    }

    @Test("the corpus's events files read, agree with their labels and group into the reported rows")
    func corpus() throws {
        let folder = TestPaths.traces.appendingPathComponent("many-hands").path
        let traces = try Corpus.traceFiles([folder])
        #expect(traces.count == 8)
        var clipsByGroup: [GestureGroup: Int] = [:]
        for trace in traces {
            let clips = try Events.read(path: Events.path(forTrace: trace))
            let labels = try Labels.read(path: Labels.path(forTrace: trace))
            try Events.check(clips, agreeWith: labels, path: Events.path(forTrace: trace), labelsPath: "labels")
            for clip in clips { clipsByGroup[GestureGroup(gesture: clip.gesture), default: 0] += 1 }
        }
        #expect(
            clipsByGroup == [.swingsAndThrows: 160, .rest: 40, .midairLetters: 160, .custom: 40, .shakeRepeat: 40])
    }

    @Test(
        "classes fall into the groups a reader knows",
        arguments: [
            ("Forehand Tennis", .swingsAndThrows), ("Backhand Tennis", .swingsAndThrows),
            ("Baseball Throw", .swingsAndThrows), ("Underhand Bowling", .swingsAndThrows), ("At Rest", .rest),
            ("Midair Clockwise _O_", .midairLetters), ("Midair Counter-clockwise O", .midairLetters),
            ("Midair _S_", .midairLetters), ("Midair Zorro _Z_", .midairLetters), ("Custom", .custom),
            ("Shake", .shakeRepeat), ("Walking", .other), ("Midair", .other),
        ] as [(String, GestureGroup)])
    func groups(gesture: String, group: GestureGroup) {
        #expect(GestureGroup(gesture: gesture) == group)
    }
}
