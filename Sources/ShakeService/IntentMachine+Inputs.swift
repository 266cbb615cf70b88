import UndoProtocol

extension IntentMachine {
    // MARK: Subscriptions and context

    /// Adds a subscriber, unfocused and with nothing to offer until it calls ``setContext``;
    /// `mayHoldContext` is false when the access policy keeps its user from the current context.
    public mutating func subscribe(
        token: String, app: String, name: String, uid: UInt32, pid: Int32 = 0, mayHoldContext: Bool = true
    ) {
        var subscriber = Subscriber(token: token, app: app, name: name, uid: uid)
        subscriber.mayHoldContext = mayHoldContext
        subscriber.pid = pid
        subscribers[token] = subscriber
    }

    /// Subscriptions held by one user.
    public func subscriptionCount(uid: UInt32) -> Int {
        subscribers.values.reduce(0) { $0 + ($1.uid == uid ? 1 : 0) }
    }

    /// logind's seat changed hands: only the new active user's apps may hold the context. An open
    /// prompt of a user who lost the seat is cancelled.
    public mutating func seatChanged(_ policy: SeatPolicy, now: ContinuousClock.Instant) -> [IntentAction] {
        seat = policy
        guard let open, !open.isPerforming, let owner = subscribers[open.token], !mayHoldContext(owner) else {
            return []
        }
        return cancel(reason: .contextChanged, now: now)
    }

    /// Removes a subscriber whose stream closed; its open intent is cancelled.
    public mutating func unsubscribe(token: String, now: ContinuousClock.Instant) -> [IntentAction] {
        guard subscribers.removeValue(forKey: token) != nil, let open, open.token == token else { return [] }
        if open.isPerforming {
            end(now: now)
            return []
        }
        // The app is gone, so it can't be told; the agent and monitors can.
        return cancel(reason: .disconnected, now: now, notifyApp: false)
    }

    /// Records an app's focus and undo/redo names. Losing focus cancels its open prompt; another
    /// app becoming focused takes the context and cancels it too.
    public mutating func setContext(
        token: String, uid: UInt32, focused: Bool, undo: String?, redo: String?, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> [IntentAction] {
        // A stand-in's context comes only through StandIn, from its agent.
        guard let subscriber = subscribers[token], subscriber.uid == uid, !subscriber.isStandIn else {
            throw .unknownToken
        }
        return updateContext(subscriber, focused: focused, undo: undo, redo: redo, now: now)
    }

    /// Records focus and names for a known subscriber; cancels what that ends.
    mutating func updateContext(
        _ subscriber: Subscriber, focused: Bool, undo: String?, redo: String?, now: ContinuousClock.Instant
    ) -> [IntentAction] {
        var subscriber = subscriber
        let token = subscriber.token
        let gainsFocus = focused && !subscriber.focused
        if gainsFocus {
            focusCounter += 1
            subscriber.focusOrder = focusCounter
        }
        subscriber.focused = focused
        subscriber.undo = undo.flatMap { $0.isEmpty ? nil : $0 }
        subscriber.redo = redo.flatMap { $0.isEmpty ? nil : $0 }
        subscribers[token] = subscriber

        guard let open, !open.isPerforming else { return [] }
        if open.token == token {
            if !focused { return cancel(reason: .focusLost, now: now) }
            if subscriber.actionName(open.operation) != open.actionName {
                return cancel(reason: .contextChanged, now: now)
            }
        } else if gainsFocus && mayHoldContext(subscriber) && !isOutranked(subscriber) {
            return cancel(reason: .contextChanged, now: now)
        }
        return []
    }

    // MARK: Starting an intent

    /// A recognized shake: an intent for the current context, or only an outcome when the session
    /// is locked or idle, there is no context, its user has Shake to Undo off, a prompt is open, or
    /// the cooldown runs.
    public mutating func shake(now: ContinuousClock.Instant) -> [IntentAction] {
        // A shake read just before the session locked or went idle: nobody is in front to see a prompt.
        if let detail = sensorOffReason?.shakeIgnoredDetail {
            return [.outcome(.ignored, intent: nil, detail: detail)]
        }
        // A shake read just before the switch went off: the sensor stops, and this one is dropped.
        if currentContext != nil, !contextWantsShakes {
            return [.outcome(.ignored, intent: nil, detail: "shake-to-undo-off")]
        }
        do {
            return try startIntent(operation: nil, now: now).actions
        } catch {
            let outcome: MonitorEvent.Outcome = error == .noContext ? .noContext : .ignored
            let detail = error.parameters["reason"] ?? "no app in context"
            return [.outcome(outcome, intent: nil, detail: detail)]
        }
    }

    /// An intent asked for without a shake (`RequestIntent`); the same rules, reported as errors.
    public mutating func request(
        operation: Operation?, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> (reply: RequestIntentReply, actions: [IntentAction]) {
        try startIntent(operation: operation, now: now)
    }

    private mutating func startIntent(
        operation wanted: Operation?, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> (reply: RequestIntentReply, actions: [IntentAction]) {
        if open != nil { throw .busy("prompt-open") }
        if let cooldownUntil, now < cooldownUntil { throw .busy("cooldown") }
        guard let context = currentContext else { throw .noContext }
        let operation = wanted ?? (context.undo != nil ? .undo : .redo)
        guard let actionName = context.actionName(operation) else { throw .noContext }
        intentCounter += 1
        let id = "intent-\(intentCounter)"
        open = OpenIntent(
            id: id, token: context.token, operation: operation, actionName: actionName, phase: .proposed,
            deadline: now + timing.promptTimeout)
        let event = UndoEvent(kind: .intent, intent: id, operation: operation, actionName: actionName)
        return (RequestIntentReply(intent: id, app: context.app), [.event(token: context.token, event)])
    }

    // MARK: Answering

    /// The app's prompt for its intent: checked against the guidelines, then shown (by the agent
    /// when one is registered). A rejected prompt leaves the intent waiting for a better one.
    public mutating func answer(
        token: String, uid: UInt32, intent: String, prompt: Prompt
    ) throws(VarlinkError) -> [IntentAction] {
        let current = try ownedIntent(token: token, uid: uid, intent: intent)
        guard current.phase == .proposed else { throw .wrongState(intent, current.phase.name) }
        let language = PromptLanguage(title: prompt.title) ?? .english
        do {
            try PromptRules.check(prompt, operation: current.operation, language: language)
        } catch {
            throw .promptRejected(error)
        }
        open?.phase = .prompted(prompt)
        guard let agent, let app = subscribers[token] else { return [] }
        open?.drawnBy = agent.token
        return [.agentPrompt(AgentPrompt(intent: intent, appName: app.name, prompt: prompt))]
    }

    /// The person's choice, from the app (or from the agent when one is registered).
    public mutating func choose(
        token: String, uid: UInt32, intent: String, choice: Role, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> [IntentAction] {
        guard let current = open, current.id == intent else {
            try requireKnownToken(token, uid: uid)
            throw .unknownIntent(intent)
        }
        // Whoever draws the prompt chooses: the agent it was handed to, else the app itself.
        let chooser = current.drawnBy ?? current.token
        let chooserUID = current.drawnBy != nil ? agent?.uid : subscribers[current.token]?.uid
        guard token == chooser, uid == chooserUID else {
            try requireKnownToken(token, uid: uid)
            throw .unknownIntent(intent)
        }
        guard case .prompted(let prompt) = current.phase else { throw .wrongState(intent, current.phase.name) }
        guard prompt.actions.contains(where: { $0.role == choice }) else { throw .wrongState(intent, "not-offered") }
        guard let operation = choice.operation else {
            return cancel(reason: .declined, now: now)
        }
        open?.phase = .performing(operation)
        open?.deadline = now + timing.promptTimeout
        let actionName = subscribers[current.token]?.actionName(operation) ?? current.actionName
        let event = UndoEvent(kind: .perform, intent: intent, operation: operation, actionName: actionName)
        return [.event(token: current.token, event), .outcome(.performed, intent: intent, detail: "\(operation)")]
    }

    /// The app performed the intent and says what changed; the intent ends and the cooldown starts.
    public mutating func reportResult(
        token: String, uid: UInt32, intent: String, summary: String, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> [IntentAction] {
        let current = try ownedIntent(token: token, uid: uid, intent: intent)
        guard current.isPerforming else { throw .wrongState(intent, current.phase.name) }
        end(now: now)
        guard let drawnBy = current.drawnBy, drawnBy == agent?.token else { return [] }
        return [.agentSummary(intent: intent, summary: summary)]
    }

    // MARK: Time, agent, shutdown

    /// Cancels a prompt past its deadline; ends a performed intent whose app never reported.
    public mutating func tick(now: ContinuousClock.Instant) -> [IntentAction] {
        guard let open, now >= open.deadline else { return [] }
        if open.isPerforming {
            end(now: now)
            return []
        }
        return cancel(reason: .timeout, now: now)
    }

    /// Registers the prompt agent; only one at a time.
    public mutating func registerAgent(token: String, name: String, uid: UInt32) throws(VarlinkError) {
        guard agent == nil else { throw .limitReached("agents") }
        agent = Agent(token: token, name: name, uid: uid)
    }

    /// Removes the agent; a prompt it was showing is cancelled.
    public mutating func unregisterAgent(token: String, now: ContinuousClock.Instant) -> [IntentAction] {
        guard agent?.token == token else { return [] }
        var actions: [IntentAction] = []
        if let standIn = standInToken {
            // Its stand-in goes with it; an open intent of the stand-in ends, and nobody is left to tell.
            standInToken = nil
            actions += unsubscribe(token: standIn, now: now)
        }
        agent = nil
        guard let open, case .prompted = open.phase, open.drawnBy == token else { return actions }
        return actions + cancel(reason: .disconnected, now: now)
    }

    /// Cancels the open prompt because the daemon stops.
    public mutating func shutdown(now: ContinuousClock.Instant) -> [IntentAction] {
        guard let open, !open.isPerforming else { return [] }
        return cancel(reason: .shuttingDown, now: now)
    }

    // MARK: Helpers

    /// Ends the open intent and starts the cooldown.
    mutating func end(now: ContinuousClock.Instant) {
        open = nil
        cooldownUntil = now + timing.cooldown
    }

    mutating func cancel(
        reason: CancelReason, now: ContinuousClock.Instant, notifyApp: Bool = true
    ) -> [IntentAction] {
        guard let current = open else { return [] }
        end(now: now)
        var actions: [IntentAction] = []
        if notifyApp {
            let event = UndoEvent(
                kind: .cancelled, intent: current.id, operation: current.operation, actionName: current.actionName,
                reason: reason)
            actions.append(.event(token: current.token, event))
        }
        if let drawnBy = current.drawnBy, drawnBy == agent?.token, case .prompted = current.phase, reason != .declined {
            actions.append(.agentClosed(intent: current.id))
        }
        actions.append(.outcome(.cancelled, intent: current.id, detail: reason.rawValue))
        return actions
    }

    private func ownedIntent(token: String, uid: UInt32, intent: String) throws(VarlinkError) -> OpenIntent {
        try requireKnownToken(token, uid: uid)
        guard let open, open.id == intent, open.token == token else { throw .unknownIntent(intent) }
        return open
    }

    private func requireKnownToken(_ token: String, uid: UInt32) throws(VarlinkError) {
        if let subscriber = subscribers[token], subscriber.uid == uid { return }
        if let agent, agent.token == token, agent.uid == uid { return }
        throw .unknownToken
    }
}

extension IntentMachine.OpenIntent {
    var isPerforming: Bool {
        if case .performing = phase { return true }
        return false
    }
}
