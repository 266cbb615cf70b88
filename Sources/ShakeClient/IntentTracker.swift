import UndoProtocol

/// The client's side of one intent, as a pure state machine: each input returns what to do,
/// and nothing here does I/O, so it is tested by tables.
///
/// An intent arrives (the daemon proposes undo or redo), the client answers with a composed
/// prompt, the app shows it, the person chooses, the app performs and reports. The daemon may
/// end it early at any point (`cancelled`), and a lost connection ends it too.
struct IntentTracker: Sendable {
    /// Where the tracked intent stands.
    enum Phase: Sendable, Hashable {
        /// AnswerIntent is on its way; the app knows nothing yet.
        case answering
        /// The app shows the prompt.
        case prompting
        /// A registered agent shows the prompt; the app waits for perform or cancelled.
        case agentPrompting
        /// The choice is on its way to the daemon.
        case choosing
        /// The app performs; it reports next.
        case performing
    }

    /// The intent being tracked.
    struct Tracked: Sendable, Hashable {
        var id: String
        var operation: Operation
        var phase: Phase
        /// Whether the app has heard of this intent (and must hear how it ends).
        var appKnows: Bool { phase != .answering }
    }

    /// What the client does next.
    enum Action: Sendable, Hashable {
        /// Answer the intent with this prompt (AnswerIntent).
        case answer(intent: String, prompt: Prompt)
        /// Send the person's choice (Choose).
        case choose(intent: String, choice: Role)
        /// Say what changed (ReportResult).
        case report(intent: String, summary: String)
        /// Tell the app.
        case deliver(ShakeClient.Event)
    }

    private(set) var current: Tracked?

    /// An event from the subscription. `context` is what the app published last.
    mutating func received(_ event: UndoEvent, context: UndoContext, language: PromptLanguage) -> [Action] {
        switch event.kind {
        case .intent:
            var actions: [Action] = []
            if let current, current.appKnows {
                // The daemon only starts an intent when the last one is over; close the stale prompt.
                actions.append(.deliver(.cancelled(intent: current.id, reason: .contextChanged)))
            }
            let other = event.operation == .undo ? context.redo : context.undo
            let prompt = PromptComposer.prompt(
                operation: event.operation, actionName: event.actionName, language: language, alsoOffer: other)
            current = Tracked(id: event.intent, operation: event.operation, phase: .answering)
            actions.append(.answer(intent: event.intent, prompt: prompt))
            return actions
        case .perform:
            current = Tracked(id: event.intent, operation: event.operation, phase: .performing)
            let request = PerformRequest(intent: event.intent, operation: event.operation, actionName: event.actionName)
            return [.deliver(.perform(request))]
        case .cancelled:
            guard let tracked = current, tracked.id == event.intent else { return [] }
            current = nil
            guard tracked.appKnows else { return [] }
            return [.deliver(.cancelled(intent: event.intent, reason: event.reason ?? .declined))]
        }
    }

    /// AnswerIntent succeeded: the app shows the prompt, unless an agent does.
    mutating func answered(intent: String, prompt: Prompt, agentShows: Bool) -> [Action] {
        guard var tracked = current, tracked.id == intent, tracked.phase == .answering else { return [] }
        tracked.phase = agentShows ? .agentPrompting : .prompting
        current = tracked
        guard !agentShows else { return [] }
        return [.deliver(.prompt(PromptRequest(intent: intent, operation: tracked.operation, prompt: prompt)))]
    }

    /// The person chose in the prompt the app shows. Nothing happens when no prompt is shown.
    mutating func choose(_ choice: Role) -> [Action] {
        guard var tracked = current, tracked.phase == .prompting else { return [] }
        tracked.phase = .choosing
        current = tracked
        return [.choose(intent: tracked.id, choice: choice)]
    }

    /// The app performed the intent and says what changed.
    mutating func report(_ summary: String) -> [Action] {
        guard let tracked = current, tracked.phase == .performing else { return [] }
        current = nil
        return [.report(intent: tracked.id, summary: summary)]
    }

    /// The daemon refused a call about `intent`: the intent is over for this client.
    mutating func refused(intent: String, error: VarlinkError) -> [Action] {
        guard let tracked = current, tracked.id == intent else { return [] }
        current = nil
        return [.deliver(.failed(intent: intent, error: error))]
    }

    /// The connection is lost: the daemon cancels the intent, and the app closes its prompt.
    mutating func disconnected() -> [Action] {
        guard let tracked = current else { return [] }
        current = nil
        guard tracked.appKnows else { return [] }
        return [.deliver(.cancelled(intent: tracked.id, reason: .disconnected))]
    }
}
