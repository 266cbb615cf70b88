import Foundation
import ShakeClient
import TestSupport
import Testing
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `StandIn` against the real `shaked` binary on a socket in a temporary folder: the agent stands in
/// for a process of its own user, its stand-in's intent comes back on its stream, and nobody else can
/// use the path. Without logind here, the seat is set with SHAKED_TEST_SEAT_UID (debug builds).
@Suite(.timeLimit(.minutes(2))) struct StandInDaemonTests {
    static let me = getuid()
    static let ownPID = Int(getpid())

    /// A daemon whose access policy lets this user register an agent (root always may).
    func daemon(environment: [String: String] = [:]) throws -> RunningDaemon {
        let folder = try TestPaths.temporaryDirectory()
        let config = folder.appendingPathComponent("tests.conf").path
        try "[Access]\nAgentUsers=\(Self.me)\nRequestUsers=\(Self.me)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return try RunningDaemon(arguments: ["--demo", "--cooldown", "0.2", "--config", config], environment: environment)
    }

    func standIn(_ socket: String, token: String, pid: Int = ownPID, focused: Bool = true) async throws -> String {
        try await call(
            socket, .standIn,
            StandInParameters(
                token: token, pid: pid, app: "org.shaked.StandIn.editor", name: "Editor", focused: focused,
                undo: "Typing", redo: nil),
            returning: StandInReply.self
        ).standIn
    }

    func error(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as VarlinkError {
            return error.name + (error.parameters["action"].map { "(\($0))" } ?? "")
        } catch {
            return "\(error)"
        }
    }

    @Test("the agent stands in for its own process; the shake's intent, its prompt and the result come on its stream")
    func flow() async throws {
        let daemon = try daemon()
        try await VarlinkConnection.withConnection(to: daemon.socket) { agent in
            var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                .makeAsyncIterator()
            let agentToken = try #require(try await replies.next()).token
            let token = try await standIn(daemon.socket, token: agentToken)
            let status = try await call(daemon.socket, .getStatus, NoParameters(), returning: GetStatusReply.self).status
            #expect(status.currentApp == "org.shaked.StandIn.editor" && status.sensorActive, "\(status)")

            _ = try await call(daemon.socket, .demoShake, NoParameters())
            let intent = try #require(try await replies.next()?.event, "\(daemon.log)")
            #expect(intent.kind == .intent && intent.actionName == "Typing")
            let prompt = Prompt(title: "Undo Typing", actions: [
                PromptAction(role: .cancel, label: "Cancel"), PromptAction(role: .undo, label: "Undo", preferred: true),
            ])
            let answer = try await call(
                daemon.socket, .answerIntent, AnswerIntentParameters(token: token, intent: intent.intent, prompt: prompt),
                returning: AnswerIntentReply.self)
            #expect(answer.agent, "the agent draws its own stand-in's prompt")
            #expect(try await replies.next()?.prompt?.prompt == prompt)
            _ = try await call(daemon.socket, .choose, ChooseParameters(token: agentToken, intent: intent.intent, choice: .undo))
            #expect(try await replies.next()?.event?.kind == .perform)
            _ = try await call(
                daemon.socket, .reportResult,
                ReportResultParameters(token: token, intent: intent.intent, summary: "Removed “world”"))
            #expect(try await replies.next()?.summary == "Removed “world”")
        }
    }

    @Test("nobody but the registered agent can use the stand-in path")
    func onlyTheAgent() async throws {
        let daemon = try daemon()
        #expect(await error { _ = try await standIn(daemon.socket, token: String(repeating: "a", count: 32)) }
            == "io.shaked.Undo.UnknownToken", "no agent registered: no token works")
        try await VarlinkConnection.withConnection(to: daemon.socket) { agent in
            var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                .makeAsyncIterator()
            let agentToken = try #require(try await replies.next()).token
            let token = try await standIn(daemon.socket, token: agentToken)
            #expect(await error { _ = try await standIn(daemon.socket, token: String(repeating: "b", count: 32)) }
                == "io.shaked.Undo.UnknownToken", "a made-up token")
            #expect(await error {
                _ = try await call(daemon.socket, .setContext, SetContextParameters(token: token, focused: true, undo: "Bold", redo: nil))
            } == "io.shaked.Undo.UnknownToken", "the stand-in's token is no subscription for SetContext")
        }
    }

    @Test("an app that takes part wins over the stand-in for its process")
    func takesPart() async throws {
        let daemon = try daemon()
        try await VarlinkConnection.withConnection(to: daemon.socket) { app in
            // This test process subscribes as an app: its own pid now takes part.
            var events = try await app.stream(.subscribe, SubscribeParameters(app: "org.example.Notes", name: "Notes"), of: SubscribeReply.self)
                .makeAsyncIterator()
            _ = try await events.next()
            try await VarlinkConnection.withConnection(to: daemon.socket) { agent in
                var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                    .makeAsyncIterator()
                let agentToken = try #require(try await replies.next()).token
                #expect(await error { _ = try await standIn(daemon.socket, token: agentToken) } == "io.shaked.Undo.TakesPart")
            }
        }
    }

    @Test("a process of another user, or none at all, is refused")
    func anotherUsersProcess() async throws {
        let daemon = try daemon()
        try await VarlinkConnection.withConnection(to: daemon.socket) { agent in
            var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                .makeAsyncIterator()
            let agentToken = try #require(try await replies.next()).token
            #expect(await error { _ = try await standIn(daemon.socket, token: agentToken, pid: Int(Int32.max)) }
                == "io.shaked.Undo.NotAllowed(stand-in-session)", "no such process")
            // pid 1 belongs to root (or, in a container, to whoever started it); as root a child of nobody's.
            let other = Self.me == 0 ? try Process.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: ["--reuid", "65534", "--regid", "65534", "--clear-groups", "sleep", "60"]) : nil
            defer { other?.terminate() }
            let otherPID = other.map { Int($0.processIdentifier) } ?? 1
            if other != nil { #expect(waitUntil(.seconds(5)) { Self.owner(of: otherPID) == 65534 }) }
            if Self.owner(of: otherPID) != Self.me {
                #expect(await error { _ = try await standIn(daemon.socket, token: agentToken, pid: otherPID) }
                    == "io.shaked.Undo.NotAllowed(stand-in-session)", "another user's process")
            }
        }
    }

    @Test("only while the agent's user is the seat's active user")
    func seat() async throws {
        let daemon = try daemon(environment: ["SHAKED_TEST_SEAT_UID": "\(Self.me == 4242 ? 4243 : 4242)"])
        try await VarlinkConnection.withConnection(to: daemon.socket) { agent in
            var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                .makeAsyncIterator()
            let agentToken = try #require(try await replies.next()).token
            #expect(await error { _ = try await standIn(daemon.socket, token: agentToken) }
                == "io.shaked.Undo.NotAllowed(stand-in)", "\(daemon.log)")
        }
        let mine = try self.daemon(environment: ["SHAKED_TEST_SEAT_UID": "\(Self.me)"])
        try await VarlinkConnection.withConnection(to: mine.socket) { agent in
            var replies = try await agent.stream(.registerAgent, RegisterAgentParameters(name: "Agent"), of: RegisterAgentReply.self)
                .makeAsyncIterator()
            let agentToken = try #require(try await replies.next()).token
            #expect(await error { _ = try await standIn(mine.socket, token: agentToken) } == nil, "\(mine.log)")
        }
    }

    static func owner(of pid: Int) -> UInt32? {
        var info = stat()
        return stat("/proc/\(pid)", &info) == 0 ? info.st_uid : nil
    }
}
