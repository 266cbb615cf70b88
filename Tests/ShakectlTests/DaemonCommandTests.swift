import Foundation
import TestSupport
import Testing

/// `shakectl status`, `request` and `watch` against the real daemon.
@Suite(.timeLimit(.minutes(2))) struct DaemonCommandTests {
    let shakectl = TestPaths.binary("shakectl")

    func json(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    @Test("status shows the daemon's state, as text and as one JSON object")
    func status() async throws {
        let daemon = try RunningDaemon()
        let text = try runProcess(shakectl, ["status", "--socket", daemon.socket])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("shaked at \(daemon.socket)"))
        #expect(text.stdout.contains("subscribers: 0"))
        #expect(text.stdout.contains("current app: none"))
        #expect(text.stdout.contains("open prompt: none"))
        #expect(text.stdout.contains("(off: no app can use a shake)"), "why the sensor is off")

        let result = try runProcess(shakectl, ["status", "--socket", daemon.socket, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try json(try #require(lines.first))
        #expect(object["subscribers"] as? Int == 0)
        #expect(object["agent"] as? Bool == false)
        #expect(object["sensorActive"] as? Bool == false, "no app can use a shake, so the sensor is idle")
        #expect(object["sensorOff"] as? String == "no app can use a shake")
        #expect((object["sensor"] as? String)?.isEmpty == false)
    }

    @Test(
        "status and request say clearly when there is no daemon, and exit 1",
        arguments: [["status"], ["request", "undo"]])
    func noDaemon(command: [String]) throws {
        let socket = try TestPaths.temporaryDirectory().appendingPathComponent("absent").path
        let result = try runProcess(shakectl, command + ["--socket", socket])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no shaked socket at \(socket)"), "\(result.stderr)")
        #expect(result.stderr.contains("start the daemon"))
    }

    @Test("the socket comes from SHAKED_SOCKET when --socket is not given")
    func socketFromEnvironment() async throws {
        let daemon = try RunningDaemon()
        var environment = TestPaths.childEnvironment()
        environment["SHAKED_SOCKET"] = daemon.socket
        let result = try runProcess(shakectl, ["status"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("shaked at \(daemon.socket)"))
    }

    @Test("request with no app in context fails with NoContext, explained, and exit 1", arguments: ["undo", "redo"])
    func requestWithoutContext(operation: String) async throws {
        let daemon = try RunningDaemon()
        let result = try runProcess(shakectl, ["request", operation, "--socket", daemon.socket])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no app is in the current context"), "\(result.stderr)")
        #expect(result.stderr.contains("io.shaked.Undo.NoContext"))
    }

    @Test("request refuses an operation other than undo or redo")
    func requestValidates() async throws {
        let result = try runProcess(shakectl, ["request", "delete", "--socket", "/nonexistent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("delete"), "\(result.stderr)")
    }

    @Test("request reaches the demo app in context; its prompt opens; watch prints the outcome as JSON lines")
    func requestAndWatch() async throws {
        let daemon = try RunningDaemon()
        let watch = try TmuxSession("\(shakectl) watch --format json --socket \(daemon.socket)", columns: 200)
        #expect(try await watch.waitFor("watching shaked at") != nil, "\(watch.text)")
        let demo = try TmuxSession("\(shakectl) demo --socket \(daemon.socket)")
        #expect(try await demo.waitFor("● connected") != nil, "\(demo.text)\n\(daemon.log)")
        try demo.send("milk", literal: true)
        try demo.send("Enter")
        #expect(try await demo.waitFor("Can: Undo Typing") != nil)

        let result = try runProcess(shakectl, ["request", "undo", "--socket", daemon.socket, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try json(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reply["app"] as? String == "io.shaked.demo.Notes")
        #expect((reply["intent"] as? String)?.isEmpty == false)
        // Wait for the prompt's own hint: "Undo Typing" alone is already on the status line
        // ("Can: Undo Typing"), and an Escape sent before the prompt opens cancels nothing.
        #expect(try await demo.waitFor("Esc cancel") != nil, "\(demo.text)")
        let boxed = try demo.screen().split(separator: "\n").filter { $0.contains("│") }
        #expect(boxed.contains { $0.contains("Undo Typing") }, "the prompt's title: \(demo.text)")
        let busy = try runProcess(shakectl, ["request", "--socket", daemon.socket])
        #expect(busy.status == 1, "a second intent while a prompt is open is refused")

        try demo.send("Escape")
        #expect(try await demo.waitFor("Cancelled: nothing changed.") != nil, "\(demo.text)")
        #expect(try demo.screen().contains("milk"), "nothing was undone")
        let screen = try await watch.waitFor(#""outcome":"cancelled""#)
        #expect(screen != nil, "\(watch.text)")
        let line = try #require(screen?.split(separator: "\n").first { $0.contains(#""outcome":"cancelled""#) })
        let event = try json(line)
        #expect(event["kind"] as? String == "outcome")
        #expect(event["time"] is Double)
    }

    /// The demo app in context over a daemon replaying `trace`, and `watch` in text beside it.
    func replay(_ trace: String) async throws -> (daemon: RunningDaemon, watch: TmuxSession, demo: TmuxSession) {
        let daemon = try RunningDaemon(arguments: ["--replay", TestPaths.traces.appendingPathComponent(trace).path])
        let watch = try TmuxSession("\(shakectl) watch --socket \(daemon.socket)", columns: 200)
        #expect(try await watch.waitFor("watching shaked at") != nil, "\(watch.text)")
        let demo = try TmuxSession("\(shakectl) demo --socket \(daemon.socket)")
        #expect(try await demo.waitFor("● connected") != nil, "\(demo.text)\n\(daemon.log)")
        // Something to undo: the app takes the context, and the sensor (the replay) starts.
        try demo.send("milk", literal: true)
        try demo.send("Enter")
        return (daemon, watch, demo)
    }

    @Test("watch shows a shake begin and, when the hand stops, be recognized; the prompt opens after")
    func watchShowsAShakeBeginAndEnd() async throws {
        let (daemon, watch, demo) = try await replay("qt_shake_left.csv")
        let screen = try #require(try await watch.waitFor("the hand stopped", timeout: .seconds(30)), "\(watch.text)\n\(daemon.log)")
        let lines = screen.split(separator: "\n")
        let began = try #require(lines.firstIndex { $0.contains("shake began (") && $0.contains("waiting for the hand to stop") })
        let ended = try #require(lines.firstIndex { $0.contains("shake recognized (") && $0.contains("the hand stopped") })
        #expect(began < ended, "\(screen)")
        #expect(try await demo.waitFor("Esc cancel") != nil, "the prompt opens: \(demo.text)")
        #expect(!screen.contains("dropped"))
    }

    @Test("watch shows a runner's strides begin as a shake and dropped because they kept going; no prompt")
    func watchShowsABodyDropped() async throws {
        // Running 20 m from standing (KU-HAR, a phone in a waist bag): its strides look like a shake at
        // 0.9 s, and go on.
        let (daemon, watch, demo) = try await replay("everyday-ku-har/kuhar_run_1038_O_1.csv")
        let screen = try #require(try await watch.waitFor("shake dropped", timeout: .seconds(30)), "\(watch.text)\n\(daemon.log)")
        let lines = screen.split(separator: "\n")
        let began = try #require(lines.firstIndex { $0.contains("shake began (") })
        let dropped = try #require(lines.firstIndex { $0.contains("shake dropped (") })
        #expect(began < dropped)
        #expect(lines[dropped].contains("kept going, as a body's motion does"), "\(lines[dropped])")
        // The replay is 236 samples (4.7 s); once it has run out, no shake was recognized and no prompt opened.
        var status: [String: Any] = [:]
        let ranOut = waitUntil(.seconds(30)) {
            let result = try? runProcess(shakectl, ["status", "--socket", daemon.socket, "--format", "json"])
            let text = result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            status = (try? json(text)) ?? [:]
            return (status["samplesRead"] as? Int ?? 0) >= 236
        }
        #expect(ranOut, "the replay ran to its end: \(status)")
        #expect(status["lastShakeAgo"] == nil, "no shake was recognized: \(status)")
        #expect(!watch.text.contains("shake recognized"))
        #expect(!demo.text.contains("Esc cancel"), "no prompt: \(demo.text)")
    }
}
