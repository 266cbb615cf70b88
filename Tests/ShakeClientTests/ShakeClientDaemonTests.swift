import ShakeClient
import Synchronization
import TestSupport
import Testing
import UndoProtocol

/// ShakeClient against the real `shaked` binary on a socket in a temporary folder.
@Suite(.timeLimit(.minutes(2))) struct ShakeClientDaemonTests {
    func makeClient(
        _ daemon: RunningDaemon, language: PromptLanguage = .english, undo: String? = "Typing", redo: String? = nil
    ) -> ClientUnderTest {
        let client = ShakeClient(
            app: "org.example.Notes", name: "Notes", socketPath: daemon.socket, language: language,
            backoff: ReconnectBackoff(initial: .milliseconds(50), maximum: .milliseconds(400)))
        client.setActions(undo: undo, redo: redo)
        let running = ClientUnderTest(client)
        running.start()
        return running
    }

    @Test("a shake becomes a composed prompt; choosing Undo performs it, and the report ends the intent")
    func shakeToUndo() async throws {
        let daemon = try RunningDaemon(arguments: ["--demo", "--cooldown", "0.2"])
        let app = makeClient(daemon)
        #expect(await app.connected(), "\(daemon.log)")
        _ = try await call(daemon.socket, .demoShake, NoParameters())

        let request = try #require(await app.prompt(), "no prompt after Demo.Shake: \(app.all)\n\(daemon.log)")
        #expect(request.operation == .undo)
        #expect(request.prompt.title == "Undo Typing")
        #expect(request.prompt.actions.map(\.role) == [.cancel, .undo])
        #expect(request.prompt.actions.first?.label == "Cancel")
        #expect(request.defaultAction?.role == .undo)
        let status = try await call(daemon.socket, .getStatus, NoParameters(), returning: GetStatusReply.self).status
        #expect(status.openIntent == request.intent)
        #expect(status.currentApp == "org.example.Notes")

        app.client.choose(.undo)
        let perform = try #require(await app.perform(), "no perform after choosing undo: \(app.all)")
        #expect(perform == PerformRequest(intent: request.intent, operation: .undo, actionName: "Typing"))
        app.client.setActions(undo: nil, redo: "Typing")
        app.client.reportResult("Removed line 1")
        let ended = await waitUntilAsync {
            let status = try? await call(daemon.socket, .getStatus, NoParameters(), returning: GetStatusReply.self)
            return status?.status.openIntent == nil
        }
        #expect(ended, "the intent is still open after ReportResult")
        #expect(!app.all.contains { if case .failed = $0 { true } else { false } }, "\(app.all)")
        await app.stop()
    }

    @Test("with undo and redo both possible the prompt offers both; in Korean when the locale is Korean")
    func offersBothInKorean() async throws {
        let daemon = try RunningDaemon(arguments: ["--demo"])
        let app = makeClient(daemon, language: .korean, undo: "Typing", redo: "Bold")
        #expect(await app.connected(), "\(daemon.log)")
        let reply = try await call(
            daemon.socket, .requestIntent, RequestIntentParameters(operation: .undo), returning: RequestIntentReply.self
        )
        #expect(reply.app == "org.example.Notes")
        let request = try #require(await app.prompt(), "\(app.all)\n\(daemon.log)")
        #expect(request.intent == reply.intent)
        #expect(request.prompt.title == "실행 취소 Typing")
        #expect(request.prompt.actions.map(\.label) == ["취소", "실행 취소", "다시 실행"])
        app.client.choose(.cancel)
        #expect(await app.cancelled() == .declined)
        await app.stop()
    }

    @Test("after the daemon is killed and a new one starts on the same socket, the client is back and gets intents")
    func reconnects() async throws {
        let first = try RunningDaemon(arguments: ["--demo"])
        let app = makeClient(first)
        #expect(await app.connected(), "\(first.log)")
        _ = try await call(first.socket, .requestIntent, RequestIntentParameters(), returning: RequestIntentReply.self)
        #expect(await app.prompt() != nil)

        let before = app.count
        first.kill()
        #expect(await app.cancelled(after: before) == .disconnected, "the open prompt closes: \(app.all)")
        let reason = await app.next(after: before) { event -> String? in
            if case .disconnected(let reason, _) = event { return reason }
            return nil
        }
        #expect(reason != nil)

        let waiting = app.count
        let second = try RunningDaemon(arguments: ["--demo"], socket: first.socket)
        #expect(await app.connected(after: waiting), "not reconnected: \(app.all)\n\(second.log)")
        #expect(app.client.connectionState == .connected)
        let status = try await call(second.socket, .getStatus, NoParameters(), returning: GetStatusReply.self).status
        #expect(status.subscribers == 1)
        #expect(status.currentApp == "org.example.Notes", "the context was published again")

        let again = app.count
        _ = try await call(second.socket, .demoShake, NoParameters())
        let request = try #require(await app.prompt(after: again), "\(app.all)\n\(second.log)")
        #expect(request.prompt.title == "Undo Typing")
        app.client.choose(.undo)
        #expect(await app.perform(after: again) != nil)
        app.client.reportResult("Removed line 1")
        await app.stop()
        #expect(app.client.connectionState == .stopped)
    }

    @Test("losing focus while the prompt is open cancels it as focusLost")
    func focusLoss() async throws {
        let daemon = try RunningDaemon(arguments: ["--demo", "--cooldown", "0"])
        let app = makeClient(daemon)
        #expect(await app.connected(), "\(daemon.log)")
        _ = try await call(daemon.socket, .requestIntent, RequestIntentParameters(), returning: RequestIntentReply.self)
        #expect(await app.prompt() != nil)
        app.client.setFocused(false)
        #expect(await app.cancelled() == .focusLost)
        await #expect(throws: VarlinkError.noContext) {
            _ = try await call(
                daemon.socket, .requestIntent, RequestIntentParameters(), returning: RequestIntentReply.self)
        }
        await app.stop()
    }
}

/// Polls an async condition every 20 ms for up to `timeout`.
func waitUntilAsync(
    _ timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return false
}

/// The few-lines integration: an app with an UndoStack, on the main actor as a UI app would be.
@Suite(.timeLimit(.minutes(2))) struct UndoStackIntegrationTests {
    /// Records the prompts `confirm` was asked to show.
    final class Prompts: Sendable {
        let shown = Mutex<[PromptRequest]>([])
    }

    @MainActor @Test("run(undoing:) publishes the stack, confirms, undoes on the stack and reports")
    func fiveLines() async throws {
        let daemon = try RunningDaemon(arguments: ["--demo"])
        var lines = ["milk"]
        let stack = UndoStack()
        stack.register(named: "Typing", undo: { lines.removeLast() }, redo: { lines.append("milk") })
        let prompts = Prompts()

        let shake = ShakeClient(app: "org.example.Notes", name: "Notes", socketPath: daemon.socket)
        let app = Task {
            await shake.run(undoing: stack) { request in
                prompts.shown.withLock { $0.append(request) }
                return .undo
            }
        }

        let published = await waitUntilAsync {
            let status = try? await call(daemon.socket, .getStatus, NoParameters(), returning: GetStatusReply.self)
            return status?.status.currentApp == "org.example.Notes"
        }
        #expect(published, "the stack's \"Typing\" was not published: \(daemon.log)")
        _ = try await call(daemon.socket, .requestIntent, RequestIntentParameters(), returning: RequestIntentReply.self)
        let deadline = ContinuousClock.now + .seconds(30)
        while !lines.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(lines.isEmpty, "the shake did not undo the typing")
        #expect(stack.redoActionName == "Typing")
        #expect(prompts.shown.withLock { $0.map(\.prompt.title) } == ["Undo Typing"])
        let ended = await waitUntilAsync {
            let status = try? await call(daemon.socket, .getStatus, NoParameters(), returning: GetStatusReply.self)
            return status?.status.openIntent == nil
        }
        #expect(ended, "ReportResult did not end the intent")
        app.cancel()
        await app.value
    }
}
