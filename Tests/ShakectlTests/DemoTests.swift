import Foundation
import TestSupport
import Testing

/// `shakectl demo` driven through tmux against the real daemon running `--demo`: keys in,
/// the captured screen out, as a person would see it.
@Suite(.timeLimit(.minutes(2))) struct DemoTests {
    let shakectl = TestPaths.binary("shakectl")

    /// The notes rows of the screen (between the two rules), numbered "  1  text".
    func noteRows(_ screen: String) -> [String] {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let top = rows.firstIndex(where: { $0.hasPrefix("───") }),
            let bottom = rows[(top + 1)...].firstIndex(where: { $0.hasPrefix("───") })
        else { return [] }
        return rows[(top + 1)..<bottom].filter { $0.range(of: #"^.\s*\d+  "#, options: .regularExpression) != nil }
    }

    func startDemo(_ arguments: [String] = ["--demo"]) async throws -> (RunningDaemon, TmuxSession) {
        let daemon = try RunningDaemon(arguments: arguments)
        let demo = try TmuxSession("\(shakectl) demo --socket \(daemon.socket)", columns: 100, rows: 30)
        let connected = try await demo.waitFor("● connected")
        #expect(connected != nil, "\(demo.text)\n\(daemon.log)")
        #expect(connected?.contains("Ctrl-S or F5 shake the device") == true, "the keys are documented on screen")
        return (daemon, demo)
    }

    /// Presses the shake key until the prompt opens (a shake right after another may fall in
    /// the detector's settling time, as it would on a device); the screen with the prompt.
    func shake(_ demo: TmuxSession, key: String = "C-s", timeout: Duration = .seconds(30)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            try demo.send(key)
            if let screen = try await demo.waitFor("╭─", timeout: .seconds(8)) { return screen }
        }
        return nil
    }

    @Test("type a line, shake: \"Undo Typing\" with Cancel left of Undo; Undo removes the line and says so")
    func shakeToUndoTyping() async throws {
        let (daemon, demo) = try await startDemo()
        try demo.send("hello shaked", literal: true)
        try demo.send("Enter")
        let typed = try await demo.waitForScreen { noteRows($0).contains { $0.contains("hello shaked") } }
        #expect(typed != nil, "\(demo.text)")

        let prompt = try await shake(demo)
        #expect(prompt != nil, "no prompt after the shake key:\n\(demo.text)\n\(daemon.log)")
        let buttons = try #require(prompt?.split(separator: "\n").first { $0.contains("[ Cancel ]") })
        let cancel = try #require(buttons.range(of: "[ Cancel ]"))
        let undo = try #require(buttons.range(of: "[ Undo ]"), "the action is on the same row as Cancel")
        #expect(cancel.upperBound <= undo.lowerBound, "Cancel is left of Undo: \(buttons)")

        try demo.send("Enter")  // the default button: Undo
        let after = try await demo.waitFor("Removed line 1 “hello shaked”")
        #expect(after != nil, "\(demo.text)")
        #expect(after.map(noteRows) == [], "the line is gone: \(after ?? "")")
        #expect(after?.contains("Undo Typing: Removed line 1") == true, "the status line shows the summary")
        #expect(after?.contains("Can: nothing to undo · Redo Typing") == true)
        #expect(after?.contains("[ Cancel ]") == false, "the alert is closed")
    }

    @Test("Esc cancels the prompt and nothing changes; Tab moves to Cancel and Enter cancels too")
    func cancelKeepsTheLine() async throws {
        let (daemon, demo) = try await startDemo(["--demo", "--cooldown", "0"])
        try demo.send("keep me", literal: true)
        try demo.send("Enter")
        #expect(try await demo.waitFor("Can: Undo Typing") != nil)
        for keys in [["Escape"], ["Tab", "Enter"]] {
            #expect(try await shake(demo, key: "F5") != nil, "\(demo.text)")
            for key in keys { try demo.send(key) }
            let screen = try await demo.waitForScreen {
                $0.contains("Cancelled: nothing changed.") && !$0.contains("[ Cancel ]")
            }
            #expect(screen != nil, "\(demo.text)")
            #expect(screen.map(noteRows)?.count == 1, "the line is still there")
        }
        #expect(daemon.isRunning, "\(daemon.log)")
    }

    @Test("delete and bold are undone by shakes, newest first, and the restored line is shown")
    func manyLevels() async throws {
        let (daemon, demo) = try await startDemo(["--demo", "--cooldown", "0.2"])
        for text in ["first", "second"] {
            try demo.send(text, literal: true)
            try demo.send("Enter")
        }
        try demo.send("C-b")
        #expect(try await demo.waitFor("Can: Undo Bold") != nil, "\(demo.text)")
        try demo.send("Up")
        try demo.send("C-d")
        let deleted = try await demo.waitFor("Can: Undo Delete")
        #expect(deleted.map(noteRows)?.count == 1, "\(deleted ?? "")")

        #expect(try await shake(demo)?.contains("Undo Delete") == true, "\(demo.text)")
        try demo.send("Enter")
        let restored = try await demo.waitFor("Restored line 1 “first”")
        #expect(restored.map(noteRows)?.count == 2, "\(restored ?? "")")
        #expect(restored?.contains("Can: Undo Bold · Redo Delete") == true, "\(restored ?? "")")

        #expect(try await shake(demo)?.contains("Undo Bold") == true, "the next shake goes one step further back")
        try demo.send("Enter")
        let plain = try await demo.waitFor("Made line 2 plain")
        #expect(plain?.contains("Can: Undo Typing · Redo Bold") == true, "\(plain ?? demo.text)")
        #expect(daemon.isRunning, "\(daemon.log)")
    }

    @Test("with a Korean locale the prompt is Korean: \"실행 취소 입력\", 취소 on the left")
    func korean() async throws {
        let daemon = try RunningDaemon(arguments: ["--demo"])
        let demo = try TmuxSession(
            "\(shakectl) demo --socket \(daemon.socket)", environment: ["LANG": "ko_KR.UTF-8", "LC_ALL": ""])
        #expect(try await demo.waitFor("● connected") != nil, "\(demo.text)\n\(daemon.log)")
        try demo.send("우유", literal: true)
        try demo.send("Enter")
        #expect(try await demo.waitFor("Can: Undo 입력") != nil, "\(demo.text)")
        let prompt = try await shake(demo)
        #expect(prompt?.contains("실행 취소 입력") == true, "\(prompt ?? demo.text)")
        let buttons = try #require(prompt?.split(separator: "\n").first { $0.contains("[ 취소 ]") })
        let cancel = try #require(buttons.range(of: "[ 취소 ]"))
        let undo = try #require(buttons.range(of: "[ 실행 취소 ]"))
        #expect(cancel.upperBound <= undo.lowerBound, "취소 is left of 실행 취소: \(buttons)")
        try demo.send("Escape")
        #expect(try await demo.waitFor("Cancelled: nothing changed.") != nil)
        #expect(daemon.isRunning)
    }

    @Test("the demo shows when the daemon is away and reconnects when it is back")
    func reconnects() async throws {
        let (daemon, demo) = try await startDemo()
        daemon.kill()
        #expect(try await demo.waitFor("reconnecting") != nil, "\(demo.text)")
        let again = try RunningDaemon(arguments: ["--demo"], socket: daemon.socket)
        #expect(try await demo.waitFor("● connected", timeout: .seconds(15)) != nil, "\(demo.text)\n\(again.log)")
    }
}
