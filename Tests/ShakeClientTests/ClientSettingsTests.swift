import ShakeClient
import Testing
import UndoProtocol

/// The reconnect backoff and what the client reads from the environment.
@Suite struct ClientSettingsTests {
    @Test("the backoff doubles from 100 ms to at most 5 s, and starts over after a reset")
    func backoffDoubles() {
        var backoff = ReconnectBackoff(jitter: 0)
        let delays = (0..<9).map { _ in backoff.nextDelay(random: 0) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600),
                .milliseconds(3200), .seconds(5), .seconds(5), .seconds(5),
            ])
        backoff.reset()
        #expect(backoff.nextDelay(random: 0) == .milliseconds(100))
    }

    @Test("jitter shortens a delay by at most its fraction, never lengthens it", arguments: [0.0, 0.25, 0.5, 0.999])
    func jitter(random: Double) {
        var backoff = ReconnectBackoff(jitter: 0.2)
        for _ in 0..<5 { _ = backoff.nextDelay(random: random) }
        let delay = backoff.nextDelay(random: random)  // the sixth: 3.2 s before jitter
        #expect(delay <= .milliseconds(3200))
        #expect(delay >= .milliseconds(3200) * 0.8)
        #expect(abs((delay / .milliseconds(3200)) - (1 - 0.2 * random)) < 1e-9)
    }

    @Test("random jitter spreads delays out")
    func jitterSpreads() {
        let delays = Set(
            (0..<20).map { _ in
                var backoff = ReconnectBackoff()
                return backoff.nextDelay()
            })
        #expect(delays.count > 1)
        #expect(delays.allSatisfy { $0 <= .milliseconds(100) && $0 >= .milliseconds(80) })
    }

    @Test(
        "the prompt language follows LC_ALL, then LC_MESSAGES, then LANG",
        arguments: [
            ([:], PromptLanguage.english),
            (["LANG": "ko_KR.UTF-8"], .korean),
            (["LANG": "ko_KR.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"], .english),
            (["LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"], .korean),
            (["LC_ALL": "ko_KR", "LC_MESSAGES": "en_US", "LANG": "en_US"], .korean),
            (["LC_ALL": "", "LANG": "ko"], .korean),
            (["LANG": "C"], .english),
            (["LANG": "de_DE.UTF-8"], .english),
        ])
    func language(environment: [String: String], expected: PromptLanguage) {
        #expect(ClientEnvironment.language(environment: environment) == expected)
    }

    @Test("the socket is $SHAKED_SOCKET when set, else /run/shaked/io.shaked.Undo")
    func socketPath() {
        #expect(ClientEnvironment.socketPath(environment: [:]) == "/run/shaked/io.shaked.Undo")
        #expect(ClientEnvironment.socketPath(environment: ["SHAKED_SOCKET": ""]) == "/run/shaked/io.shaked.Undo")
        #expect(ClientEnvironment.socketPath(environment: ["SHAKED_SOCKET": "/tmp/s"]) == "/tmp/s")
    }

    @Test("a missing socket is reported as such, naming the path and what to do")
    func missingSocket() async throws {
        let path = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))/io.shaked.Undo"
        await #expect {
            try await VarlinkConnection.withConnection(to: path) { _ in }
        } throws: { error in
            guard let error = error as? VarlinkConnectionError else { return false }
            return error.code == .socketMissing && error.description.contains(path)
                && error.description.contains("SHAKED_SOCKET")
        }
    }

    @Test("a client without a daemon says it is waiting, and why, with growing delays")
    func waitsForDaemon() async throws {
        let path = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))/io.shaked.Undo"
        let client = ShakeClient(
            app: "org.example.Test", name: "Test", socketPath: path,
            backoff: ReconnectBackoff(initial: .milliseconds(10), maximum: .milliseconds(40), jitter: 0))
        let task = Task { await client.run() }
        var delays: [Duration] = []
        for await event in client.events {
            guard case .disconnected(let reason, let retryIn) = event else { continue }
            #expect(reason.contains("no shaked socket"))
            delays.append(retryIn)
            if delays.count == 4 { break }
        }
        task.cancel()
        await task.value
        #expect(delays == [.milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(40)])
        #expect(client.connectionState == .stopped)
    }
}
