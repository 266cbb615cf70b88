import UndoProtocol

extension ShakeClient {
    /// Connects, subscribes and serves intents until the task running it is cancelled.
    ///
    /// Each session holds two connections to the daemon: one streams the subscription's
    /// events, the other makes calls (SetContext, AnswerIntent, Choose, ReportResult) in order.
    /// When either fails (the daemon stopped or restarted, the socket is missing), an open
    /// prompt is cancelled with reason `disconnected`, ``Event/disconnected(reason:retryIn:)``
    /// says why and when the next attempt comes, and the client connects again with
    /// exponential backoff, subscribes again and republishes the context. Call it once.
    public func run() async {
        let alreadyRunning = state.withLock { state in
            defer { state.running = true }
            return state.running
        }
        precondition(!alreadyRunning, "ShakeClient.run() is already running")
        var backoff = backoffPolicy
        while !Task.isCancelled {
            state.withLock { state in
                state.connection = .connecting
                state.connectedThisSession = false
            }
            let reason: String
            do {
                try await session()
                reason = "the subscription ended"
            } catch {
                reason = String(describing: error)
            }
            let wasConnected = endSession()
            if Task.isCancelled { break }
            if wasConnected { backoff.reset() }
            let delay = backoff.nextDelay()
            state.withLock { $0.connection = .waiting(reason: reason, retryIn: delay) }
            eventSink.yield(.disconnected(reason: reason, retryIn: delay))
            try? await Task.sleep(for: delay)
        }
        state.withLock { state in
            state.running = false
            state.connection = .stopped
        }
    }

    /// One connection's life: subscribe on one connection, call on another, until either ends.
    private func session() async throws {
        let (commands, commandSink) = AsyncStream.makeStream(of: Command.self)
        let (tokens, tokenSink) = AsyncStream.makeStream(of: String.self)
        state.withLock { $0.commands = commandSink }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.listen(announcing: tokenSink) }
            group.addTask {
                for await token in tokens {
                    try await self.serve(token: token, commands: commands)
                }
            }
            // Wait for both; the first failure cancels the other.
            for try await _ in group {}
        }
    }

    /// Closes the session's queue and cancels an intent it carried; says whether it had connected.
    private func endSession() -> Bool {
        state.withLock { state in
            state.commands?.finish()
            state.commands = nil
            apply(state.tracker.disconnected(), to: &state)
            return state.connectedThisSession
        }
    }

    /// Subscribes, hands the token to the call side, and feeds events to the tracker.
    private func listen(announcing tokens: AsyncStream<String>.Continuation) async throws {
        defer { tokens.finish() }
        let method = UndoInterface.Method.subscribe
        try await VarlinkConnection.withConnection(to: socketPath, eventLoopGroup: eventLoopGroup) { connection in
            let replies = try await connection.stream(
                method, SubscribeParameters(app: app, name: name), of: SubscribeReply.self)
            var first = true
            for try await reply in replies {
                if first {
                    first = false
                    tokens.yield(reply.token)
                    tokens.finish()
                }
                if let sensor = reply.sensor {
                    eventSink.yield(sensor.available ? .shakeAvailable : .shakeUnavailable(reason: sensor.reason ?? ""))
                }
                guard let event = reply.event else { continue }
                state.withLock { state in
                    let actions = state.tracker.received(event, context: state.context, language: language)
                    apply(actions, to: &state)
                }
            }
        }
        throw VarlinkConnectionError(.closed, path: socketPath, method: method.rawValue)
    }

    /// Publishes the context, says "connected", then makes the queued calls in order.
    private func serve(token: String, commands: AsyncStream<Command>) async throws {
        try await VarlinkConnection.withConnection(to: socketPath, eventLoopGroup: eventLoopGroup) { connection in
            var published = try await publish(nil, token: token, on: connection)
            state.withLock { state in
                state.connection = .connected
                state.connectedThisSession = true
            }
            eventSink.yield(.connected)
            for await command in commands {
                switch command {
                case .publishContext:
                    published = try await publish(published, token: token, on: connection)
                case .intent(let action):
                    try await perform(action, token: token, on: connection)
                }
            }
        }
    }

    /// Sends SetContext when the context differs from what was sent last; returns what is sent now.
    private func publish(
        _ last: UndoContext?, token: String, on connection: VarlinkConnection
    ) async throws -> UndoContext {
        let context = self.context
        guard context != last else { return context }
        let parameters = SetContextParameters(
            token: token, focused: context.focused, undo: context.undo, redo: context.redo)
        _ = try await connection.call(.setContext, parameters)
        return context
    }

    /// Makes one intent call. A varlink error ends the intent for the app; a broken connection
    /// ends the session.
    private func perform(_ action: IntentTracker.Action, token: String, on connection: VarlinkConnection) async throws {
        switch action {
        case .answer(let intent, let prompt):
            do {
                let agentShows = try await connection.call(
                    .answerIntent, AnswerIntentParameters(token: token, intent: intent, prompt: prompt),
                    returning: AnswerIntentReply.self
                ).agent
                state.withLock { state in
                    apply(state.tracker.answered(intent: intent, prompt: prompt, agentShows: agentShows), to: &state)
                }
            } catch let error as VarlinkError {
                refuse(intent, error)
            }
        case .choose(let intent, let choice):
            do {
                _ = try await connection.call(.choose, ChooseParameters(token: token, intent: intent, choice: choice))
            } catch let error as VarlinkError {
                refuse(intent, error)
            }
        case .report(let intent, let summary):
            do {
                _ = try await connection.call(
                    .reportResult, ReportResultParameters(token: token, intent: intent, summary: summary))
            } catch let error as VarlinkError {
                eventSink.yield(.failed(intent: intent, error: error))
            }
        case .deliver:
            break
        }
    }

    private func refuse(_ intent: String, _ error: VarlinkError) {
        state.withLock { state in
            apply(state.tracker.refused(intent: intent, error: error), to: &state)
        }
    }
}
