import Testing
import UndoProtocol

@testable import ShakeService

/// The stand-in rules of ``IntentMachine``, with no I/O: who may stand in, for whom, and that an
/// app taking part always wins.
@Suite struct StandInMachineTests {
    static let agentUID: UInt32 = 1000
    static let editorPID: Int32 = 4242

    /// A machine with an agent of user 1000 registered, the seat as given.
    func machine(seat: SeatPolicy = .anyone) -> IntentMachine {
        var machine = IntentMachine()
        try! machine.registerAgent(token: "agent", name: "Agent", uid: Self.agentUID)
        _ = machine.seatChanged(seat, now: .now)
        return machine
    }

    func standIn(
        _ machine: inout IntentMachine, token: String = "agent", uid: UInt32 = agentUID, pid: Int32 = editorPID,
        app: String = "org.shaked.StandIn.editor", focused: Bool = true, undo: String? = "Typing",
        mayHoldContext: Bool = true, newToken: String = "standin-1"
    ) throws(VarlinkError) -> (token: String, actions: [IntentAction]) {
        try machine.standIn(
            agentToken: token, uid: uid, pid: pid, app: app, name: "Editor", focused: focused, undo: undo, redo: nil,
            mayHoldContext: mayHoldContext, makeToken: { newToken }, now: .now)
    }

    static let refusals: [(String, SeatPolicy, String, UInt32, Bool, VarlinkError)] = [
        ("another token", .anyone, "not-the-agent", agentUID, true, .unknownToken),
        ("the agent's token from another user", .anyone, "agent", 1001, true, .unknownToken),
        ("the seat is another user's", .activeUser(1001), "agent", agentUID, true, .notAllowed("stand-in")),
        ("no session is active on the seat", .activeUser(nil), "agent", agentUID, true, .notAllowed("stand-in")),
        ("the access policy keeps the user from the context", .anyone, "agent", agentUID, false,
         .notAllowed("stand-in")),
    ]

    @Test("only the registered agent, of the seat's active user, may stand in", arguments: refusals)
    func refused(what: String, seat: SeatPolicy, token: String, uid: UInt32, mayHold: Bool, expected: VarlinkError) {
        var machine = machine(seat: seat)
        #expect(throws: expected, "\(what)") {
            try standIn(&machine, token: token, uid: uid, mayHoldContext: mayHold)
        }
        #expect(machine.currentContext == nil && !machine.wantsSensor, "\(what): no context, no sensor")
    }

    @Test("the seat's active user's agent stands in: its app is the context and the sensor runs")
    func accepted() throws {
        var machine = machine(seat: .activeUser(Self.agentUID))
        let (token, actions) = try standIn(&machine)
        #expect(actions.isEmpty)
        #expect(machine.currentContext?.token == token && machine.currentContext?.isStandIn == true)
        #expect(machine.wantsSensor)
    }

    @Test("the sensor stays off until the field has something to undo")
    func nothingToUndo() throws {
        var machine = machine()
        _ = try standIn(&machine, undo: nil)
        #expect(machine.currentContext == nil && !machine.wantsSensor)
    }

    @Test("no client can use a stand-in's token for SetContext, not even the agent's own user")
    func setContextRefused() throws {
        var machine = machine()
        let (token, _) = try standIn(&machine)
        #expect(throws: VarlinkError.unknownToken) {
            try machine.setContext(token: token, uid: Self.agentUID, focused: true, undo: "Bold", redo: nil, now: .now)
        }
    }

    @Test("an app that takes part wins: StandIn for its pid fails, and a stand-in never outranks it")
    func participatingAppWins() throws {
        var machine = machine()
        machine.subscribe(token: "notes", app: "org.example.Notes", name: "Notes", uid: Self.agentUID, pid: 7)
        #expect(throws: VarlinkError.takesPart) { try standIn(&machine, pid: 7) }

        // A stand-in first, then the app subscribes itself from the same process: the app holds the context.
        var later = self.machine()
        _ = try standIn(&later, pid: 8)
        #expect(later.currentContext?.isStandIn == true)
        later.subscribe(token: "app", app: "org.example.App", name: "App", uid: Self.agentUID, pid: 8)
        #expect(later.currentContext == nil, "the stand-in is outranked; the app has said nothing yet")
        _ = try later.setContext(token: "app", uid: Self.agentUID, focused: true, undo: "Typing", redo: nil, now: .now)
        #expect(later.currentContext?.token == "app")
    }

    @Test("the stand-in's intent goes to the agent, whose prompt it draws itself; another app's field cancels it")
    func intentAndSwitching() throws {
        var machine = machine()
        let (token, _) = try standIn(&machine)
        let intent = machine.shake(now: .now)
        #expect(intent == [.event(token: token, UndoEvent(kind: .intent, intent: "intent-1", operation: .undo, actionName: "Typing"))])
        let prompt = Prompt(title: "Undo Typing", actions: [
            PromptAction(role: .cancel, label: "Cancel"), PromptAction(role: .undo, label: "Undo", preferred: true),
        ])
        let answered = try machine.answer(token: token, uid: Self.agentUID, intent: "intent-1", prompt: prompt)
        #expect(answered == [.agentPrompt(AgentPrompt(intent: "intent-1", appName: "Editor", prompt: prompt))])
        // The person goes to another app's field: a new stand-in, the old one's prompt cancelled.
        let (second, switched) = try standIn(&machine, pid: 99, app: "org.shaked.StandIn.other", newToken: "standin-2")
        #expect(second == "standin-2" && machine.subscribers[token] == nil)
        #expect(switched.contains(.agentClosed(intent: "intent-1")))
        #expect(switched.contains(.outcome(.cancelled, intent: "intent-1", detail: "contextChanged")))
        #expect(machine.open == nil)
    }

    @Test("the person's switches: \"apps that don't take part\" off refuses and drops the stand-in; Shake to Undo off stops the sensor for it")
    func preferences() throws {
        var machine = machine()
        _ = try standIn(&machine)
        #expect(machine.wantsSensor)
        machine.setPreferences(UserPreferences(standIn: false), uid: Self.agentUID)
        #expect(machine.currentContext == nil && !machine.wantsSensor, "the stand-in holds no context")
        #expect(throws: VarlinkError.notAllowed("stand-in-off")) { try standIn(&machine) }
        machine.setPreferences(UserPreferences(shakeToUndo: false), uid: Self.agentUID)
        _ = try standIn(&machine)
        #expect(machine.currentContext?.isStandIn == true && !machine.wantsSensor, "Shake to Undo off covers it too")
    }

    @Test("the stand-in goes with its agent")
    func agentLeaves() throws {
        var machine = machine()
        let (token, _) = try standIn(&machine)
        _ = machine.unregisterAgent(token: "agent", now: .now)
        #expect(machine.subscribers[token] == nil && machine.standInToken == nil && machine.currentContext == nil)
    }
}
