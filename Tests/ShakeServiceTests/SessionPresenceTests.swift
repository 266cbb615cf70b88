import Testing
import UndoProtocol

@testable import ShakeService

/// logind's hints about the seat's active session as one more input to the sensor's demand: a locked
/// or idle session turns the sensor off and makes shakes count for nothing, whatever the apps say.
@Suite("IntentMachine: a locked or idle session")
struct SessionPresenceTests {
    /// A machine with uid 1000's app focused with "Typing" to undo, the user's switch as given.
    static func machine(session: SessionPresence, shakeToUndo: Bool = true, context: Bool = true) -> IntentMachine {
        var machine = IntentMachine()
        let now = ContinuousClock.now
        _ = machine.sessionChanged(session, now: now)
        machine.setPreferences(UserPreferences(shakeToUndo: shakeToUndo), uid: 1000)
        machine.subscribe(token: "a", app: "a", name: "A", uid: 1000)
        _ = try? machine.setContext(token: "a", uid: 1000, focused: context, undo: "Typing", redo: nil, now: now)
        return machine
    }

    @Test(
        "logind's two hints make one presence: locked wins over idle",
        arguments: [
            (false, false, SessionPresence.inUse), (false, true, .idle), (true, false, .locked), (true, true, .locked),
        ])
    func presence(locked: Bool, idle: Bool, expected: SessionPresence) {
        #expect(SessionPresence(locked: locked, idle: idle) == expected)
    }

    @Test(
        "the sensor's demand, and why it is off",
        arguments: [
            // session, an app in context, its user's Shake to Undo, why the sensor is off (nil: on)
            (SessionPresence.unknown, true, true, nil),
            (.inUse, true, true, nil),
            (.locked, true, true, SensorOffReason.sessionLocked),
            (.idle, true, true, .sessionIdle),
            (.unknown, false, true, .noContext),
            (.inUse, true, false, .shakeToUndoOff),
            // The session comes first: nobody is in front of any app.
            (.locked, false, true, .sessionLocked),
            (.idle, true, false, .sessionIdle),
        ] as [(SessionPresence, Bool, Bool, SensorOffReason?)])
    func demand(session: SessionPresence, context: Bool, shakeToUndo: Bool, expected: SensorOffReason?) {
        let machine = Self.machine(session: session, shakeToUndo: shakeToUndo, context: context)
        #expect(machine.sensorOffReason == expected)
        #expect(machine.wantsSensor == (expected == nil))
    }

    @Test(
        "a shake read as the session locks or idles makes no intent",
        arguments: [
            (SessionPresence.inUse, "a:intent intent-1 undo Typing"),
            (.unknown, "a:intent intent-1 undo Typing"),
            (.locked, "outcome ignored"),
            (.idle, "outcome ignored"),
        ])
    func shake(session: SessionPresence, expected: String) {
        let results = run([.session(session), .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake])
        #expect(results[3] == .actions([expected]))
    }

    @Test("the detail of the ignored shake names the session's state")
    func ignoredDetail() {
        var machine = Self.machine(session: .locked)
        #expect(machine.shake(now: .now) == [.outcome(.ignored, intent: nil, detail: "session-locked")])
        _ = machine.sessionChanged(.idle, now: .now)
        #expect(machine.shake(now: .now) == [.outcome(.ignored, intent: nil, detail: "session-idle")])
    }

    @Test("locking cancels an open prompt; idling leaves it; unlocking brings shakes back")
    func lockAndUnlock() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake,
            .session(.idle), .session(.locked), .wait(1.5), .shake, .session(.inUse), .shake,
        ])
        #expect(results[2] == .actions(["a:intent intent-1 undo Typing"]))
        #expect(results[3] == ok, "idle: the prompt stays open; the person may be reading it")
        #expect(results[4] == .actions(["a:cancelled focusLost", "outcome cancelled"]))
        #expect(results[6] == .actions(["outcome ignored"]))
        #expect(results[8] == .actions(["a:intent intent-2 undo Typing"]))
    }

    @Test("locking while the app performs lets it finish")
    func lockWhilePerforming() {
        let results = run([
            .subscribe("a"), .context("a", focused: true, undo: "Typing"), .shake,
            .answer("a", intent: "intent-1", undoTyping), .choose("a", intent: "intent-1", .undo),
            .session(.locked), .report("a", intent: "intent-1"),
        ])
        #expect(results[5] == ok)
        #expect(results[6] == ok, "the result is still taken")
    }
}
