import Testing
import UndoProtocol

@testable import ShakeService

/// One input to the machine, as the tables write it.
enum Step: Sendable {
    case subscribe(String, uid: UInt32 = 1000)
    case context(String, focused: Bool, undo: String? = nil, redo: String? = nil, uid: UInt32 = 1000)
    case shake
    case request(Operation?)
    case answer(String, intent: String, Prompt, uid: UInt32 = 1000)
    case choose(String, intent: String, Role, uid: UInt32 = 1000)
    case report(String, intent: String, uid: UInt32 = 1000)
    case unsubscribe(String)
    case wait(Double)
    case agent(String)
    case dropAgent(String)
    case seat(SeatPolicy)
    case session(SessionPresence)
}

/// What a step should produce: actions (abbreviated) or an error name.
enum Expect: Equatable, Sendable {
    case actions([String])
    case error(String)
}

/// Runs steps on a fresh machine (30 s timeout, 1 s cooldown); returns each step's result, abbreviated.
func run(_ steps: [Step]) -> [Expect] {
    var machine = IntentMachine(timing: .init(promptTimeout: .seconds(30), cooldown: .seconds(1)))
    var now = ContinuousClock.now
    var results: [Expect] = []
    for step in steps {
        do throws(VarlinkError) {
            let actions: [IntentAction]
            switch step {
            case .subscribe(let token, let uid):
                machine.subscribe(token: token, app: "app.\(token)", name: token.uppercased(), uid: uid)
                actions = []
            case .context(let token, let focused, let undo, let redo, let uid):
                actions = try machine.setContext(token: token, uid: uid, focused: focused, undo: undo, redo: redo, now: now)
            case .shake:
                actions = machine.shake(now: now)
            case .request(let operation):
                actions = try machine.request(operation: operation, now: now).actions
            case .answer(let token, let intent, let prompt, let uid):
                actions = try machine.answer(token: token, uid: uid, intent: intent, prompt: prompt)
            case .choose(let token, let intent, let role, let uid):
                actions = try machine.choose(token: token, uid: uid, intent: intent, choice: role, now: now)
            case .report(let token, let intent, let uid):
                actions = try machine.reportResult(token: token, uid: uid, intent: intent, summary: "done", now: now)
            case .unsubscribe(let token):
                actions = machine.unsubscribe(token: token, now: now)
            case .wait(let seconds):
                now = now + .milliseconds(Int64(seconds * 1000))
                actions = machine.tick(now: now)
            case .agent(let token):
                try machine.registerAgent(token: token, name: "shell", uid: 0)
                actions = []
            case .dropAgent(let token):
                actions = machine.unregisterAgent(token: token, now: now)
            case .seat(let policy):
                actions = machine.seatChanged(policy, now: now)
            case .session(let presence):
                actions = machine.sessionChanged(presence, now: now)
            }
            results.append(.actions(actions.map(abbreviate)))
        } catch {
            results.append(.error(error.name.split(separator: ".").last.map(String.init) ?? error.name))
        }
    }
    return results
}

/// `a:intent intent-1 undo Typing`, `a:cancelled focusLost`, `outcome noContext`, `agent:prompt intent-1`.
func abbreviate(_ action: IntentAction) -> String {
    switch action {
    case .event(let token, let event):
        switch event.kind {
        case .intent: return "\(token):intent \(event.intent) \(event.operation) \(event.actionName)"
        case .perform: return "\(token):perform \(event.intent) \(event.operation)"
        case .cancelled: return "\(token):cancelled \(event.reason?.rawValue ?? "?")"
        }
    case .agentPrompt(let prompt): return "agent:prompt \(prompt.intent) \(prompt.prompt.title)"
    case .agentClosed(let intent): return "agent:closed \(intent)"
    case .agentSummary(let intent, _): return "agent:summary \(intent)"
    case .outcome(let outcome, _, _): return "outcome \(outcome.rawValue)"
    }
}

let undoTyping = PromptComposer.prompt(operation: .undo, actionName: "Typing")
let ok: Expect = .actions([])

@Suite("IntentMachine: the intent flow, by tables")
struct IntentMachineTests {
    @Test("a shake goes only to the current context, and runs the whole flow")
    func wholeFlow() {
        let results = run([
            .subscribe("a"), .subscribe("b"),
            .context("a", focused: true, undo: "Typing"),
            .context("b", focused: false, undo: "Bold"),
            .shake,
            .answer("a", intent: "intent-1", undoTyping),
            .choose("a", intent: "intent-1", .undo),
            .report("a", intent: "intent-1"),
        ])
        #expect(
            results == [
                ok, ok, ok, ok,
                .actions(["a:intent intent-1 undo Typing"]),
                ok,
                .actions(["a:perform intent-1 undo", "outcome performed"]),
                ok,
            ])
    }

    @Test(
        "which app is in context",
        arguments: [
            // Most recently focused wins.
            ([Step.context("a", focused: true, undo: "Typing"), .context("b", focused: true, undo: "Bold")], "b"),
            // Focused but with nothing to undo or redo is no context; the earlier one still is.
            ([Step.context("a", focused: true, undo: "Typing"), .context("b", focused: true)], "a"),
            // Losing focus hands the context back to the other focused app.
            ([Step.context("a", focused: true, undo: "Typing"), .context("b", focused: true, undo: "Bold"),
              .context("b", focused: false, undo: "Bold")], "a"),
            // Redo only: the intent proposes redo.
            ([Step.context("a", focused: true, redo: "Typing")], "a"),
            // Re-sending focused=true with new names doesn't take the context back.
            ([Step.context("a", focused: true, undo: "Typing"), .context("b", focused: true, undo: "Bold"),
              .context("a", focused: true, undo: "Paste")], "b"),
        ] as [([Step], String)])
    func currentContext(steps: [Step], expected: String) {
        let results = run([.subscribe("a"), .subscribe("b")] + steps + [.shake])
        guard case .actions(let last) = results.last, let first = last.first else {
            Issue.record("no intent: \(results)")
            return
        }
        #expect(first.hasPrefix("\(expected):intent"))
    }

    @Test(
        "a shake makes no intent without a context",
        arguments: [
            [Step](),
            [.subscribe("a")],
            [.subscribe("a"), .context("a", focused: true)],
            [.subscribe("a"), .context("a", focused: false, undo: "Typing")],
            [.subscribe("a"), .context("a", focused: true, undo: "Typing"), .unsubscribe("a")],
        ])
    func noContext(steps: [Step]) {
        let results = run(steps + [.shake, .request(nil)])
        #expect(results.suffix(2) == [.actions(["outcome noContext"]), .error("NoContext")])
    }

    @Test(
        "what cancels an open prompt",
        arguments: [
            (Step.context("a", focused: false, undo: "Typing"), "a:cancelled focusLost"),
            (Step.context("b", focused: true, undo: "Bold"), "a:cancelled contextChanged"),
            (Step.context("a", focused: true, undo: "Paste"), "a:cancelled contextChanged"),
            (Step.wait(30), "a:cancelled timeout"),
            (Step.choose("a", intent: "intent-1", .cancel), "a:cancelled declined"),
        ] as [(Step, String)])
    func cancellation(step: Step, expected: String) {
        let results = run([
            .subscribe("a"), .subscribe("b"), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-1", undoTyping), step, .choose("a", intent: "intent-1", .undo),
        ])
        #expect(results[5] == .actions([expected, "outcome cancelled"]))
        // Nothing is performed afterwards: the intent is gone.
        #expect(results[6] == .error("UnknownIntent"))
    }

    @Test("a disconnect cancels without telling the departed app")
    func disconnect() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake, .unsubscribe("a"),
        ])
        #expect(results[3] == .actions(["outcome cancelled"]))
    }

    @Test("the timeout waits its full length")
    func timeoutLength() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake, .wait(29.9), .wait(0.2),
        ])
        #expect(results[3] == ok)
        #expect(results[4] == .actions(["a:cancelled timeout", "outcome cancelled"]))
    }

    @Test("one prompt at a time, then a cooldown")
    func busyAndCooldown() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake, .shake, .request(nil),
            .answer("a", intent: "intent-1", undoTyping), .choose("a", intent: "intent-1", .undo),
            .shake, .report("a", intent: "intent-1"), .shake, .request(nil), .wait(1.1), .shake,
        ])
        #expect(results[3] == .actions(["outcome ignored"]))
        #expect(results[4] == .error("Busy"))
        #expect(results[7] == .actions(["outcome ignored"]), "still performing")
        #expect(results[9] == .actions(["outcome ignored"]), "cooldown")
        #expect(results[10] == .error("Busy"))
        #expect(results[12] == .actions(["a:intent intent-2 undo Typing"]))
    }

    @Test("many levels: each shake walks one step further back")
    func manyLevels() {
        var steps: [Step] = [.subscribe("a"), .context("a", focused: true, undo: "Typing")]
        let names = ["Typing", "Bold", "Delete Line"]
        for (i, name) in names.enumerated() {
            let intent = "intent-\(i + 1)"
            steps += [
                .context("a", focused: true, undo: name), .shake,
                .answer("a", intent: intent, PromptComposer.prompt(operation: .undo, actionName: name)),
                .choose("a", intent: intent, .undo), .report("a", intent: intent), .wait(1.5),
            ]
        }
        let intents = run(steps).compactMap { result -> String? in
            guard case .actions(let actions) = result else { return nil }
            return actions.first { $0.contains(":intent ") }
        }
        #expect(intents == ["a:intent intent-1 undo Typing", "a:intent intent-2 undo Bold", "a:intent intent-3 undo Delete Line"])
    }

    @Test(
        "calls out of turn or from the wrong user are refused",
        arguments: [
            // Choose before the prompt is answered.
            (Step.choose("a", intent: "intent-1", .undo), "WrongState"),
            // Another user's token.
            (Step.answer("a", intent: "intent-1", undoTyping, uid: 1001), "UnknownToken"),
            (Step.context("a", focused: false, uid: 1001), "UnknownToken"),
            // Another app's intent.
            (Step.answer("b", intent: "intent-1", undoTyping), "UnknownIntent"),
            // An intent that never was.
            (Step.answer("a", intent: "intent-9", undoTyping), "UnknownIntent"),
            // Report before performing.
            (Step.report("a", intent: "intent-1"), "WrongState"),
            // A redo prompt for an undo intent.
            (Step.answer("a", intent: "intent-1", PromptComposer.prompt(operation: .redo, actionName: "Typing")),
             "PromptRejected"),
        ] as [(Step, String)])
    func refused(step: Step, error: String) {
        let results = run([
            .subscribe("a"), .subscribe("b"), .context("a", focused: true, undo: "Typing"), .shake, step,
        ])
        #expect(results[4] == .error(error))
    }

    @Test("a choice must be one the prompt offered")
    func notOffered() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing", redo: "Bold"), .shake,
            .answer("a", intent: "intent-1", undoTyping), .choose("a", intent: "intent-1", .redo),
        ])
        #expect(results[4] == .error("WrongState"))
    }

    @Test("with an agent, prompts go to the agent and only it chooses")
    func agent() {
        let results = run([
            .agent("z"), .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-1", undoTyping),
            .choose("a", intent: "intent-1", .undo, uid: 1000),
            .choose("z", intent: "intent-1", .undo, uid: 0),
            .report("a", intent: "intent-1"),
        ])
        #expect(results[4] == .actions(["agent:prompt intent-1 Undo Typing"]))
        #expect(results[5] == .error("UnknownIntent"))
        #expect(results[6] == .actions(["a:perform intent-1 undo", "outcome performed"]))
        #expect(results[7] == .actions(["agent:summary intent-1"]))
    }

    @Test("the agent is told when a prompt it shows is cancelled, and its departure cancels it")
    func agentClosed() {
        let results = run([
            .agent("z"), .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-1", undoTyping), .context("a", focused: false, undo: "Typing"),
            .wait(2), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-2", undoTyping), .dropAgent("z"),
        ])
        #expect(results[5] == .actions(["a:cancelled focusLost", "agent:closed intent-1", "outcome cancelled"]))
        #expect(results[10] == .actions(["a:cancelled disconnected", "outcome cancelled"]))
    }

    @Test("the sensor is wanted exactly while there is a context")
    func sensorDemand() {
        var machine = IntentMachine()
        let now = ContinuousClock.now
        #expect(!machine.wantsSensor)
        machine.subscribe(token: "a", app: "a", name: "A", uid: 1)
        #expect(!machine.wantsSensor)
        _ = try? machine.setContext(token: "a", uid: 1, focused: true, undo: nil, redo: nil, now: now)
        #expect(!machine.wantsSensor, "focused but nothing to undo")
        _ = try? machine.setContext(token: "a", uid: 1, focused: true, undo: "Typing", redo: nil, now: now)
        #expect(machine.wantsSensor)
        _ = try? machine.setContext(token: "a", uid: 1, focused: false, undo: "Typing", redo: nil, now: now)
        #expect(!machine.wantsSensor)
    }

    @Test(
        "with logind, only the seat's active user holds the context",
        arguments: [
            // uid 1000's app is focused; the seat decides whether a shake reaches it.
            (SeatPolicy.anyone, "a:intent intent-1 undo Typing"),
            (SeatPolicy.activeUser(1000), "a:intent intent-1 undo Typing"),
            (SeatPolicy.activeUser(1001), "outcome noContext"),
            (SeatPolicy.activeUser(nil), "outcome noContext"),
        ])
    func seat(policy: SeatPolicy, expected: String) {
        let results = run([.seat(policy), .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake])
        #expect(results[3] == .actions([expected]))
    }

    @Test("another user's app focusing can't cancel the seat user's prompt; losing the seat does")
    func seatHandover() {
        let results = run([
            .seat(.activeUser(1000)), .subscribe("a"), .subscribe("b", uid: 1001),
            .context("a", focused: true, undo: "Typing"), .shake,
            .context("b", focused: true, undo: "Paste", uid: 1001),
            .seat(.activeUser(1001)), .wait(1.5), .shake,
        ])
        #expect(results[5] == ok, "b's user isn't on the seat: a's prompt stays")
        #expect(results[6] == .actions(["a:cancelled contextChanged", "outcome cancelled"]))
        #expect(results[8] == .actions(["b:intent intent-2 undo Paste"]))
    }

    @Test("an agent registering while the app draws its prompt leaves the choice to the app")
    func agentArrivesLate() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-1", undoTyping), .agent("z"),
            .choose("a", intent: "intent-1", .undo), .dropAgent("z"), .report("a", intent: "intent-1"),
        ])
        #expect(results[5] == .actions(["a:perform intent-1 undo", "outcome performed"]))
        #expect(results[6] == ok, "the agent never drew it, so its leaving cancels nothing")
        #expect(results[7] == ok, "and it gets no summary")
    }
}
