import Testing
import UndoProtocol

@testable import ShakeClient

/// The client's intent flow, input by input, with no I/O.
@Suite struct IntentTrackerTests {
    let typing = UndoContext(focused: true, undo: "Typing")
    let both = UndoContext(focused: true, undo: "Typing", redo: "Bold")

    func intent(_ id: String = "intent-1", _ operation: Operation = .undo, _ name: String = "Typing") -> UndoEvent {
        UndoEvent(kind: .intent, intent: id, operation: operation, actionName: name)
    }

    func prompt(of actions: [IntentTracker.Action]) throws -> Prompt {
        guard case .answer(_, let prompt)? = actions.last else {
            Issue.record("expected an answer, got \(actions)")
            throw CancellationError()
        }
        return prompt
    }

    @Test("an intent is answered with a composed prompt that passes the guideline checks")
    func answersIntent() throws {
        var tracker = IntentTracker()
        let actions = tracker.received(intent(), context: typing, language: .english)
        let prompt = try prompt(of: actions)
        #expect(prompt.title == "Undo Typing")
        #expect(prompt.actions.map(\.role) == [.cancel, .undo])
        #expect(prompt.actions.map(\.label) == ["Cancel", "Undo"])
        try PromptRules.check(prompt, operation: .undo)
        #expect(tracker.current?.phase == .answering)
    }

    @Test(
        "both undo and redo are offered when the app has both, in the person's language",
        arguments: [
            (Operation.undo, PromptLanguage.english, "Undo Typing", [Role.cancel, .undo, .redo]),
            (.redo, .english, "Redo Bold", [.cancel, .redo, .undo]),
            (.undo, .korean, "실행 취소 Typing", [.cancel, .undo, .redo]),
        ])
    func offersBoth(operation: Operation, language: PromptLanguage, title: String, roles: [Role]) throws {
        var tracker = IntentTracker()
        let name = operation == .undo ? "Typing" : "Bold"
        let prompt = try prompt(of: tracker.received(intent("i", operation, name), context: both, language: language))
        #expect(prompt.title == title)
        #expect(prompt.actions.map(\.role) == roles)
        #expect(prompt.actions.first?.label == language.cancelLabel)
        try PromptRules.check(prompt, operation: operation, language: language)
    }

    @Test("the prompt reaches the app only once the daemon accepted it, and not when an agent draws it")
    func deliversPromptAfterAnswer() throws {
        var tracker = IntentTracker()
        let prompt = try prompt(of: tracker.received(intent(), context: typing, language: .english))
        #expect(tracker.choose(.undo).isEmpty, "no prompt is shown yet")
        let shown = tracker.answered(intent: "intent-1", prompt: prompt, agentShows: false)
        #expect(shown == [.deliver(.prompt(PromptRequest(intent: "intent-1", operation: .undo, prompt: prompt)))])

        var withAgent = IntentTracker()
        _ = withAgent.received(intent(), context: typing, language: .english)
        #expect(withAgent.answered(intent: "intent-1", prompt: prompt, agentShows: true).isEmpty)
        #expect(withAgent.choose(.undo).isEmpty, "the agent chooses, not the app")
    }

    @Test("choose, perform, report: one call each, in order, then the intent is over")
    func fullFlow() throws {
        var tracker = IntentTracker()
        let prompt = try prompt(of: tracker.received(intent(), context: typing, language: .english))
        _ = tracker.answered(intent: "intent-1", prompt: prompt, agentShows: false)
        #expect(tracker.choose(.undo) == [.choose(intent: "intent-1", choice: .undo)])
        #expect(tracker.choose(.undo).isEmpty, "a second press sends nothing")
        let perform = UndoEvent(kind: .perform, intent: "intent-1", operation: .undo, actionName: "Typing")
        let delivered = tracker.received(perform, context: typing, language: .english)
        #expect(
            delivered == [
                .deliver(.perform(PerformRequest(intent: "intent-1", operation: .undo, actionName: "Typing")))
            ])
        #expect(tracker.report("Removed line 1") == [.report(intent: "intent-1", summary: "Removed line 1")])
        #expect(tracker.current == nil)
        #expect(tracker.report("again").isEmpty)
    }

    @Test(
        "a cancellation closes the prompt the app shows, with the daemon's reason",
        arguments: [CancelReason.declined, .focusLost, .timeout, .contextChanged])
    func cancelled(reason: CancelReason) throws {
        var tracker = IntentTracker()
        let prompt = try prompt(of: tracker.received(intent(), context: typing, language: .english))
        _ = tracker.answered(intent: "intent-1", prompt: prompt, agentShows: false)
        let event = UndoEvent(
            kind: .cancelled, intent: "intent-1", operation: .undo, actionName: "Typing", reason: reason)
        #expect(
            tracker.received(event, context: typing, language: .english) == [
                .deliver(.cancelled(intent: "intent-1", reason: reason))
            ])
        #expect(tracker.current == nil)
    }

    @Test("a cancellation before the app saw the prompt, or of another intent, tells the app nothing")
    func quietCancellations() {
        var tracker = IntentTracker()
        _ = tracker.received(intent(), context: typing, language: .english)
        let other = UndoEvent(
            kind: .cancelled, intent: "intent-9", operation: .undo, actionName: "Typing", reason: .timeout)
        #expect(tracker.received(other, context: typing, language: .english).isEmpty)
        #expect(tracker.current?.id == "intent-1")
        let mine = UndoEvent(
            kind: .cancelled, intent: "intent-1", operation: .undo, actionName: "Typing", reason: .timeout)
        #expect(tracker.received(mine, context: typing, language: .english).isEmpty)
        #expect(tracker.current == nil)
    }

    @Test("a lost connection cancels a shown prompt as disconnected; a refused call fails the intent")
    func disconnectAndRefusal() throws {
        var tracker = IntentTracker()
        let prompt = try prompt(of: tracker.received(intent(), context: typing, language: .english))
        _ = tracker.answered(intent: "intent-1", prompt: prompt, agentShows: false)
        #expect(tracker.disconnected() == [.deliver(.cancelled(intent: "intent-1", reason: .disconnected))])
        #expect(tracker.disconnected().isEmpty)

        _ = tracker.received(intent("intent-2"), context: typing, language: .english)
        let error = VarlinkError.wrongState("intent-2", "performing")
        #expect(
            tracker.refused(intent: "intent-2", error: error) == [.deliver(.failed(intent: "intent-2", error: error))])
        #expect(tracker.current == nil)
    }
}
