import Logging
import MonotonicClock
import NIOCore
import NIOPosix
import ShakedConfiguration
import ShakeDetection
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Owns the ``IntentMachine`` and carries out its actions: events to subscribers, prompts to
/// the agent, outcomes to monitors and the log, the prompt timer, and the sensor demand.
///
/// Connections call in; nothing here waits on a client. Every send is a non-blocking `yield`
/// into the receiver's outbox, so a stuck client can't hold up anyone else.
public actor UndoCoordinator {
    private var machine: IntentMachine
    private var settings: ServiceSettings
    private let logger: Logger
    private var codec: VarlinkCodec { .shared }
    private var outboxes: [String: Outbox] = [:]
    private var monitors: [UInt64: Outbox] = [:]
    private var nextMonitor: UInt64 = 0
    private var agentOutbox: Outbox?
    /// The prompt timer, on an event loop: a cancelled NIO timer is freed at once, where a cancelled
    /// `Task.sleep` kept its memory until its deadline (about 2 KiB per intent, found by the soak).
    private var timer: Scheduled<Void>?
    private var timerDeadline: ContinuousClock.Instant?
    private var demandSent: SensorDemand = .off(.noContext)
    private let demand: AsyncStream<SensorDemand>.Continuation
    private var sensor: SensorState
    private var lastShake: ContinuousClock.Instant?
    /// While shutting down: the writes of the last cancellations, to wait for.
    private var finalWrites: [EventLoopFuture<Void>]?

    /// Whether the sensor should be read, and if not why, each time that changes (starts with
    /// `.off(.noContext)`).
    public nonisolated let sensorDemand: AsyncStream<SensorDemand>
    /// The sensitivity of the current context's user, for the sensor's ``ContextDetector``.
    public nonisolated let contextSensitivity = SensitivitySignal()
    /// Samples read since start, counted by the sensor's consumer on the reading thread.
    public nonisolated let samplesRead = SampleCounter()
    private var preferenceGeneration: UInt64 = 0

    /// What status reports about the sample source.
    public struct SensorState: Sendable, Equatable {
        /// The source, such as `accelerometer lis3dh at 100 Hz (buffered)`.
        public var description: String
        /// Whether it is being read now.
        public var active: Bool
        /// The detector and its sensitivity.
        public var detector: String
        /// Why the sensor cannot be read while it is wanted, for apps and status tools.
        public var unavailable: String?
        /// Creates a sensor state.
        public init(description: String, active: Bool = false, detector: String) {
            self.description = description
            self.active = active
            self.detector = detector
        }
    }

    /// Creates a coordinator with no subscribers.
    public init(settings: ServiceSettings, sensor: SensorState, logger: Logger) {
        self.settings = settings
        self.machine = IntentMachine(timing: settings.timing)
        self.sensor = sensor
        self.logger = logger
        (sensorDemand, demand) = AsyncStream.makeStream(of: SensorDemand.self, bufferingPolicy: .bufferingNewest(1))
        demand.yield(demandSent)
    }

    /// Applies new settings (after a reload); subscribers and the open intent stay.
    public func update(settings: ServiceSettings) {
        self.settings = settings
        machine.timing = settings.timing
    }

    // MARK: Subscribers

    /// Subscribes an app: sends the first reply (the token) into `outbox` and returns the token.
    /// `mayHoldContext` is whether the access policy lets the peer's user hold the current context.
    public func subscribe(
        app: String, name: String, peer: Peer, outbox: Outbox, mayHoldContext: Bool = true,
        limits: ShakedSettings.Limits
    ) throws(VarlinkError) -> String {
        guard machine.subscribers.count < limits.subscriptions else { throw .limitReached("subscriptions") }
        guard machine.subscriptionCount(uid: peer.uid) < limits.subscriptionsPerUser else {
            throw .limitReached("subscriptions-per-user")
        }
        let token = Self.makeToken()
        machine.subscribe(
            token: token, app: app, name: name, uid: peer.uid, pid: peer.pid, mayHoldContext: mayHoldContext)
        outboxes[token] = outbox
        outbox.yield(codec.reply(SubscribeReply(token: token), continues: true))
        if let reason = sensor.unavailable {
            outbox.yield(codec.reply(SubscribeReply(token: token, sensor: .init(available: false, reason: reason)), continues: true))
        }
        logger.info("subscribed", metadata: ["app": "\(app)", "peer": "\(peer)"])
        return token
    }

    /// Forgets a subscription whose connection closed.
    public func unsubscribe(token: String) {
        outboxes[token] = nil
        if let app = machine.subscribers[token]?.app { logger.info("unsubscribed", metadata: ["app": "\(app)"]) }
        apply(machine.unsubscribe(token: token, now: .now))
    }

    /// `SetContext`.
    public func setContext(_ p: SetContextParameters, peer: Peer) throws(VarlinkError) {
        apply(try machine.setContext(token: p.token, uid: peer.uid, focused: p.focused, undo: p.undo, redo: p.redo, now: .now))
    }

    /// `AnswerIntent`; returns whether the agent draws the prompt.
    public func answer(_ p: AnswerIntentParameters, peer: Peer) throws(VarlinkError) -> Bool {
        do {
            apply(try machine.answer(token: p.token, uid: peer.uid, intent: p.intent, prompt: p.prompt))
            return machine.agent != nil
        } catch {
            if error.name.hasSuffix("PromptRejected") {
                logger.notice("prompt rejected", metadata: ["intent": "\(p.intent)", "rule": "\(error.parameters["rule"] ?? "")"])
            }
            throw error
        }
    }

    /// `Choose`.
    public func choose(_ p: ChooseParameters, peer: Peer) throws(VarlinkError) {
        apply(try machine.choose(token: p.token, uid: peer.uid, intent: p.intent, choice: p.choice, now: .now))
    }

    /// `ReportResult`.
    public func reportResult(_ p: ReportResultParameters, peer: Peer) throws(VarlinkError) {
        apply(try machine.reportResult(token: p.token, uid: peer.uid, intent: p.intent, summary: p.summary, now: .now))
        logger.info("result reported", metadata: ["intent": "\(p.intent)"])
    }

    /// `RequestIntent`; the reply names the app only to its own user (and root).
    public func request(_ p: RequestIntentParameters, peer: Peer) throws(VarlinkError) -> RequestIntentReply {
        var (reply, actions) = try machine.request(operation: p.operation, now: .now)
        logger.info("intent requested", metadata: ["intent": "\(reply.intent)", "peer": "\(peer)"])
        apply(actions)
        if let owner = machine.open.flatMap({ machine.subscribers[$0.token] }), owner.uid != peer.uid, peer.uid != 0 {
            reply.app = nil
        }
        return reply
    }

    // MARK: Preferences

    /// Takes every user's preferences, as read from the file at start.
    public func loadPreferences(_ all: [UInt32: UserPreferences]) {
        machine.loadPreferences(all)
        apply([])
    }

    /// `GetPreferences`: the caller's own.
    public func preferences(for peer: Peer) -> Preferences {
        machine.preferences(uid: peer.uid).wire(defaultSensitivity: settings.sensitivity)
    }

    /// `SetPreferences` for the caller's own user: in force at once (the sensor stops or starts, the
    /// detector follows). Returns what to write to the file, or nil when nothing changed.
    public func setPreferences(_ p: SetPreferencesParameters, peer: Peer) throws(VarlinkError) -> (
        preferences: Preferences, save: (all: [UInt32: UserPreferences], generation: UInt64)?
    ) {
        let old = machine.preferences(uid: peer.uid)
        let new = old.applying(p)
        guard new != old else { return (new.wire(defaultSensitivity: settings.sensitivity), nil) }
        if old.isDefault, machine.preferences.count >= PreferenceFile.maximumUsers {
            throw .limitReached("preferences")
        }
        machine.setPreferences(new, uid: peer.uid)
        preferenceGeneration += 1
        logger.info(
            "preferences changed",
            metadata: [
                "peer": "\(peer)", "shakeToUndo": "\(new.shakeToUndo)",
                "sensitivity": "\(new.sensitivity?.rawValue ?? "default")", "standIn": "\(new.standIn)",
            ])
        apply([])
        return (new.wire(defaultSensitivity: settings.sensitivity), (machine.preferences, preferenceGeneration))
    }

    // MARK: Monitors and the agent

    /// Adds a monitor; returns its id for ``removeMonitor(_:)``.
    public func addMonitor(outbox: Outbox) -> UInt64 {
        nextMonitor += 1
        monitors[nextMonitor] = outbox
        outbox.yield(codec.reply(MonitorReply(event: MonitorEvent(kind: .started, time: Double(monotonicNanoseconds()) / 1e9)), continues: true))
        return nextMonitor
    }

    /// Removes a monitor whose connection closed.
    public func removeMonitor(_ id: UInt64) { monitors[id] = nil }

    /// Registers the prompt agent: sends the first reply (the token) and returns the token.
    public func registerAgent(name: String, peer: Peer, outbox: Outbox) throws(VarlinkError) -> String {
        let token = Self.makeToken()
        try machine.registerAgent(token: token, name: name, uid: peer.uid)
        agentOutbox = outbox
        outbox.yield(codec.reply(RegisterAgentReply(token: token), continues: true))
        if let reason = sensor.unavailable {
            outbox.yield(codec.reply(RegisterAgentReply(token: token, sensor: .init(available: false, reason: reason)), continues: true))
        }
        logger.info("prompt agent registered", metadata: ["agent": "\(name)", "peer": "\(peer)"])
        return token
    }

    /// `StandIn`: the agent takes the part of an app that does not take part; returns the stand-in's
    /// token. The connection has checked that `p.pid` is of the agent's user and session.
    public func standIn(_ p: StandInParameters, peer: Peer, mayHoldContext: Bool) throws(VarlinkError) -> String {
        let previous = machine.standInToken
        let (token, actions) = try machine.standIn(
            agentToken: p.token, uid: peer.uid, pid: Int32(p.pid), app: p.app, name: p.name, focused: p.focused,
            undo: p.undo, redo: p.redo, mayHoldContext: mayHoldContext, makeToken: Self.makeToken, now: .now)
        if token != previous { logger.info("agent stands in", metadata: ["app": "\(p.app)", "peer": "\(peer)"]) }
        apply(actions)
        return token
    }

    /// Forgets the agent whose connection closed.
    public func unregisterAgent(token: String) {
        guard machine.agent?.token == token else { return }
        agentOutbox = nil
        apply(machine.unregisterAgent(token: token, now: .now))
    }

    // MARK: Shakes, sensor, status

    /// A shake that began at `time` (its strokes look like one): monitors hear of it; nothing else
    /// happens until it ends, when the hand stops.
    public func shakeBegan(_ event: ShakeEvent, time: Double) {
        broadcast(MonitorEvent(kind: .began, time: time, reversals: event.reversals, peak: event.peak))
        logger.debug("shake began", metadata: ["reversals": "\(event.reversals)", "peak": "\(event.peak)"])
    }

    /// A shake that began and came to nothing, for `reason`, at `time`: monitors hear why.
    public func shakeDropped(_ event: ShakeEvent, reason: DropReason, time: Double) {
        broadcast(
            MonitorEvent(kind: .dropped, time: time, reversals: event.reversals, peak: event.peak, reason: reason.rawValue))
        logger.debug("shake dropped", metadata: ["reason": "\(reason.rawValue)"])
    }

    /// A chain that came close to a shake at `time`, stopped by `rule`: monitors hear which rule.
    public func nearMiss(_ event: ShakeEvent, rule: ShakeRule, time: Double) {
        broadcast(
            MonitorEvent(kind: .nearMiss, time: time, reversals: event.reversals, peak: event.peak, reason: rule.rawValue))
        logger.debug("near miss", metadata: ["rule": "\(rule.rawValue)"])
    }

    /// A shake the detector recognized at `time` (seconds on CLOCK_MONOTONIC): it ended, the hand stopped.
    public func shakeRecognized(_ event: ShakeEvent, time: Double) {
        lastShake = .now
        let shake = MonitorEvent(kind: .shake, time: time, reversals: event.reversals, peak: event.peak)
        let actions = machine.shake(now: .now)
        // The intent goes out before monitors hear of the shake: the app is the one waiting.
        apply(actions)
        broadcast(shake)
        logger.info("shake recognized", metadata: ["reversals": "\(event.reversals)", "peak": "\(event.peak)"])
    }

    /// The sensor started or stopped being read, or changed name (hotplug).
    public func sensorChanged(description: String? = nil, active: Bool? = nil) {
        if let description { sensor.description = description }
        if let active { sensor.active = active }
        if active == false { sensorUnavailable(nil) }
    }

    /// Says why the sensor cannot be read (nil once it reads again), as `GetStatus` reports it,
    /// and tells every subscriber and the agent when that changes, so an app (or the agent, for
    /// the apps it stands in for) can say so rather than leave a shake unanswered.
    public func sensorUnavailable(_ reason: String?) {
        guard reason != sensor.unavailable else { return }
        sensor.unavailable = reason
        let availability = SensorAvailability(available: reason == nil, reason: reason)
        for (token, outbox) in outboxes {
            outbox.yield(codec.reply(SubscribeReply(token: token, sensor: availability), continues: true))
        }
        if let agent = machine.agent { send(toAgent: RegisterAgentReply(token: agent.token, sensor: availability)) }
    }

    /// `GetStatus`, in full: for the daemon itself (systemd's status line).
    public func status() -> ServiceStatus {
        ServiceStatus(
            sensor: sensor.description, sensorActive: sensor.active, samplesRead: samplesRead.count,
            detector: sensor.detector,
            subscribers: machine.subscribers.count, currentApp: machine.currentContext?.app,
            lastShakeAgo: lastShake.map { (.now - $0).inSeconds }, openIntent: machine.open?.id,
            agent: machine.agent != nil, unavailable: sensor.unavailable, sensorOff: machine.sensorOffReason?.rawValue)
    }

    /// `GetStatus` for a caller: the app in front and the open intent only when the caller may
    /// monitor, or they belong to its own user.
    public func status(for peer: Peer, mayMonitor: Bool) -> ServiceStatus {
        var status = status()
        guard !mayMonitor else { return status }
        if machine.currentContext?.uid != peer.uid { status.currentApp = nil }
        if machine.open.flatMap({ machine.subscribers[$0.token]?.uid }) != peer.uid { status.openIntent = nil }
        return status
    }

    /// logind's seat changed hands (or logind is absent: `.anyone`).
    public func seatChanged(_ policy: SeatPolicy) {
        guard policy != machine.seat else { return }
        logger.notice("seat changed; only its active user's apps may hold the context", metadata: ["seat": "\(policy)"])
        apply(machine.seatChanged(policy, now: .now))
    }

    /// logind's hints about the seat's active session changed (`.unknown` when logind can't say).
    /// While it is locked or idle the sensor is off and shakes count for nothing.
    public func sessionChanged(_ presence: SessionPresence) {
        guard presence != machine.session else { return }
        switch presence {
        case .locked, .idle:
            logger.notice(
                "the session is \(presence.rawValue): the sensor stays off and shakes don't count until it is in use")
        case .inUse, .unknown:
            guard machine.session == .locked || machine.session == .idle else { break }
            logger.notice(
                presence == .inUse
                    ? "the session is in use again: the sensor follows the apps in context"
                    : "logind no longer says the session is locked or idle: the sensor follows the apps in context")
        }
        apply(machine.sessionChanged(presence, now: .now))
    }

    /// Answers at once: for the watchdog, which times this.
    public func respond() -> Bool { true }

    /// Cancels the open prompt and waits until its app and agent have been handed the cancellation
    /// (each write taken by the kernel, or its connection gone): the daemon is stopping.
    public func shutdown() async {
        finalWrites = []
        apply(machine.shutdown(now: .now))
        timer?.cancel()
        demand.finish()
        let writes = finalWrites ?? []
        finalWrites = nil
        // A client that stopped reading can't hold the shutdown up for more than two seconds.
        _ = await withTimeout(.seconds(2)) { for write in writes { try? await write.get() } }
    }

    #if DEBUG
        /// Blocks this actor's thread for an hour: only for the watchdog test (SHAKED_TEST_STALL_AFTER),
        /// and only in debug builds.
        public func stallForTesting() {
            sleep(3600)
        }
    #endif

    // MARK: Carrying out actions

    private func apply(_ actions: [IntentAction]) {
        for action in actions {
            switch action {
            case .event(let token, let event) where token == machine.standInToken:
                // The stand-in's events go to the agent standing in.
                send(toAgent: RegisterAgentReply(token: machine.agent?.token ?? "", event: event))
            case .event(let token, let event):
                if let write = outboxes[token]?.yield(codec.reply(SubscribeReply(token: token, event: event), continues: true)) {
                    finalWrites?.append(write)
                }
            case .agentPrompt(let prompt):
                send(toAgent: RegisterAgentReply(token: machine.agent?.token ?? "", prompt: prompt))
            case .agentClosed(let intent):
                send(toAgent: RegisterAgentReply(token: machine.agent?.token ?? "", closed: intent))
            case .agentSummary(let intent, let summary):
                send(toAgent: RegisterAgentReply(token: machine.agent?.token ?? "", summary: summary))
                logger.debug("result sent to agent", metadata: ["intent": "\(intent)"])
            case .outcome(let outcome, let intent, let detail):
                logger.info(
                    "\(outcome.rawValue)", metadata: ["intent": "\(intent ?? "-")", "detail": "\(detail)"])
                broadcast(MonitorEvent(kind: .outcome, time: Double(monotonicNanoseconds()) / 1e9, outcome: outcome))
            }
        }
        updateDemand()
        scheduleTimer()
    }

    private func send(toAgent reply: RegisterAgentReply) {
        if let write = agentOutbox?.yield(codec.reply(reply, continues: true)) { finalWrites?.append(write) }
    }

    private func broadcast(_ event: MonitorEvent) {
        guard !monitors.isEmpty else { return }
        let buffer = codec.reply(MonitorReply(event: event), continues: true)
        for outbox in monitors.values { outbox.yield(buffer) }
    }

    private func updateDemand() {
        contextSensitivity.set(machine.contextSensitivity)
        let wanted: SensorDemand = machine.sensorOffReason.map { SensorDemand.off($0) } ?? .on
        guard wanted != demandSent else { return }
        demandSent = wanted
        demand.yield(wanted)
    }

    private func scheduleTimer() {
        let deadline = machine.nextDeadline
        guard deadline != timerDeadline else { return }
        timerDeadline = deadline
        timer?.cancel()
        timer = nil
        guard let deadline else { return }
        let delay = max(deadline - .now, .zero)
        timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: TimeAmount(delay)) { [weak self] in
            Task { await self?.tick() }
        }
    }

    private func tick() {
        timerDeadline = nil
        apply(machine.tick(now: .now))
    }

    private static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

}
