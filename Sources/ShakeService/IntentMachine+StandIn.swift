import UndoProtocol

extension IntentMachine {
    /// The agent takes the part of an app that does not take part itself (`StandIn`): a subscriber
    /// owned by the agent, whose events go to the agent and whose prompts the agent draws.
    ///
    /// The rules, beyond what the connection checked (the "agent" permission, the app's process
    /// belonging to the agent's user and session):
    /// - only the registered agent, by its token and user;
    /// - only while the agent's user may hold the context (the seat's active user, or anyone the
    ///   access policy allows when logind is absent), and has "apps that don't take part" on;
    /// - an app with a subscription of its own always wins: ``VarlinkError/takesPart``;
    /// - one stand-in at a time: another pid or app replaces it, cancelling its open prompt.
    ///
    /// Returns the stand-in's token (new when the app changed) and the actions to carry out.
    public mutating func standIn(
        agentToken: String, uid: UInt32, pid: Int32, app: String, name: String, focused: Bool,
        undo: String?, redo: String?, mayHoldContext: Bool, makeToken: () -> String, now: ContinuousClock.Instant
    ) throws(VarlinkError) -> (token: String, actions: [IntentAction]) {
        guard let agent, agent.token == agentToken, agent.uid == uid else { throw .unknownToken }
        guard mayHoldContext, seatAllows(uid) else { throw .notAllowed("stand-in") }
        guard preferences(uid: uid).standIn else { throw .notAllowed("stand-in-off") }
        guard !subscribers.values.contains(where: { !$0.isStandIn && $0.pid == pid }) else { throw .takesPart }
        var actions: [IntentAction] = []
        if let current = standInToken, let old = subscribers[current], old.pid != pid || old.app != app {
            // Another app (or field's app) now: what could be undone there is not this app's.
            if let open, open.token == current, !open.isPerforming {
                actions += cancel(reason: .contextChanged, now: now)
            }
            subscribers[current] = nil
            standInToken = nil
        }
        let token = standInToken ?? makeToken()
        if standInToken == nil {
            subscribe(token: token, app: app, name: name, uid: uid, pid: pid, mayHoldContext: mayHoldContext)
            subscribers[token]?.isStandIn = true
            standInToken = token
        }
        if let subscriber = subscribers[token] {
            actions += updateContext(subscriber, focused: focused, undo: undo, redo: redo, now: now)
        }
        return (token, actions)
    }

    /// Whether logind's seat lets `uid` hold the context.
    func seatAllows(_ uid: UInt32) -> Bool {
        switch seat {
        case .anyone: true
        case .activeUser(let active): active == uid
        }
    }
}
