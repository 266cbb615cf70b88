import NIOCore
import ShakedConfiguration
import UndoProtocol

/// One client connection's calls: counts each message against the call rates (its own and its
/// user's) before parsing it, checks permissions and fields, dispatches to the coordinator, and
/// writes the reply. Calls are answered in order.
///
/// Any bad message gets a varlink error reply and the connection carries on; nothing a
/// client sends can stop the daemon or delay another client.
struct ConnectionSession {
    let peer: Peer
    let outbox: Outbox
    let coordinator: UndoCoordinator
    let server: ServerContext
    private var codec: VarlinkCodec { .shared }
    private var limiter = CallRateLimiter()
    private var subscriptions: [String] = []
    private var monitorID: UInt64?
    private var agentToken: String?

    init(peer: Peer, outbox: Outbox, coordinator: UndoCoordinator, server: ServerContext) {
        self.peer = peer
        self.outbox = outbox
        self.coordinator = coordinator
        self.server = server
    }

    /// Handles one message (the bytes before its NUL).
    mutating func handle(_ message: ByteBuffer) async {
        // Counted before it is parsed: a flood costs the daemon no JSON decoding.
        let limits = server.limits()
        guard limiter.admit(rate: limits.callsPerSecond) else { return reply(error: .limitReached("call-rate")) }
        guard server.ledger.admitCall(uid: peer.uid, rate: limits.callsPerSecondPerUser) else {
            return reply(error: .limitReached("call-rate-per-user"))
        }
        let header: VarlinkCallHeader
        do {
            header = try codec.header(of: message)
        } catch {
            reply(error: error)
            return
        }
        let wantsReply = header.oneway != true
        do throws(VarlinkError) {
            guard header.upgrade != true else { throw .invalidParameter("upgrade") }
            if let reply = try await dispatch(header, message), wantsReply { outbox.yield(reply) }
        } catch {
            if wantsReply { reply(error: error) }
        }
    }

    /// Ends what this connection started: its subscriptions, monitor and agent.
    func close() async {
        for token in subscriptions { await coordinator.unsubscribe(token: token) }
        if let monitorID { await coordinator.removeMonitor(monitorID) }
        if let agentToken { await coordinator.unregisterAgent(token: agentToken) }
    }

    private func reply(error: VarlinkError) {
        outbox.yield(codec.reply(error: error))
    }

    /// Runs one call; returns the reply to send, or nil when the call sent its own (streams).
    private mutating func dispatch(_ header: VarlinkCallHeader, _ message: ByteBuffer) async throws(VarlinkError)
        -> ByteBuffer?
    {
        guard let method = UndoInterface.Method(rawValue: header.method) else { throw unknown(header.method) }
        if method.streams && header.more != true { throw .expectedMore }
        switch method {
        case .subscribe:
            try require(.subscribe)
            let p = try codec.parameters(SubscribeParameters.self, of: message)
            let limits = server.limits()
            guard subscriptions.count < limits.subscriptionsPerConnection else {
                throw .limitReached("subscriptions-per-connection")
            }
            subscriptions.append(
                try await coordinator.subscribe(
                    app: p.app, name: p.name, peer: peer, outbox: outbox,
                    mayHoldContext: server.access().allows(.context, peer), limits: limits))
            return nil
        case .setContext:
            try await coordinator.setContext(try codec.parameters(SetContextParameters.self, of: message), peer: peer)
        case .answerIntent:
            let p = try codec.parameters(AnswerIntentParameters.self, of: message)
            return codec.reply(AnswerIntentReply(agent: try await coordinator.answer(p, peer: peer)))
        case .choose:
            try await coordinator.choose(try codec.parameters(ChooseParameters.self, of: message), peer: peer)
        case .reportResult:
            try await coordinator.reportResult(try codec.parameters(ReportResultParameters.self, of: message), peer: peer)
        case .requestIntent:
            try require(.request)
            let p = try codec.parameters(RequestIntentParameters.self, of: message)
            return codec.reply(try await coordinator.request(p, peer: peer))
        case .getStatus:
            return codec.reply(GetStatusReply(status: await coordinator.status(for: peer, mayMonitor: allows(.monitor))))
        case .monitor:
            try require(.monitor)
            guard monitorID == nil else { throw .limitReached("monitors-per-connection") }
            monitorID = await coordinator.addMonitor(outbox: outbox)
            return nil
        case .registerAgent:
            try require(.agent)
            let p = try codec.parameters(RegisterAgentParameters.self, of: message)
            agentToken = try await coordinator.registerAgent(name: p.name, peer: peer, outbox: outbox)
            return nil
        case .standIn:
            try require(.agent)
            let p = try codec.parameters(StandInParameters.self, of: message)
            guard server.sameSession(peer, Int32(p.pid)) else { throw .notAllowed("stand-in-session") }
            let token = try await coordinator.standIn(p, peer: peer, mayHoldContext: allows(.context))
            return codec.reply(StandInReply(standIn: token))
        case .getPreferences:
            return codec.reply(PreferencesReply(preferences: await coordinator.preferences(for: peer)))
        case .setPreferences:
            let p = try codec.parameters(SetPreferencesParameters.self, of: message)
            let change = try await coordinator.setPreferences(p, peer: peer)
            // Written on NIO's blocking pool; the reply waits for the file, so a reply means saved.
            if let save = change.save, let file = server.preferenceFile {
                do {
                    try await file.save(save.all, generation: save.generation)
                } catch {
                    throw .notSaved(error.description)
                }
            }
            return codec.reply(PreferencesReply(preferences: change.preferences))
        case .demoShake:
            guard let shake = server.demoShake else { throw unknown(header.method) }
            try require(.request)
            await shake()
        case .getInfo:
            return codec.reply(server.info)
        case .getInterfaceDescription:
            let p = try codec.parameters(InterfaceDescriptionParameters.self, of: message)
            guard let text = server.interfaces[p.interface] else { throw .interfaceNotFound(p.interface) }
            return codec.reply(InterfaceDescriptionReply(description: text))
        }
        return codec.reply(NoParameters())
    }

    private func require(_ action: AccessAction) throws(VarlinkError) {
        guard allows(action) else { throw .notAllowed(action.rawValue) }
    }

    private func allows(_ action: AccessAction) -> Bool { server.access().allows(action, peer) }

    /// MethodNotFound for a served interface, InterfaceNotFound otherwise.
    private func unknown(_ method: String) -> VarlinkError {
        let interface = method.split(separator: ".").dropLast().joined(separator: ".")
        return server.interfaces[interface] == nil ? .interfaceNotFound(interface) : .methodNotFound(method)
    }
}
