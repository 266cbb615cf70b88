import UndoProtocol

/// The intent flow as a pure state machine: subscribers, focus, the current context, the one
/// open intent, and what each input makes happen. No I/O, no clock: callers pass the time in
/// and carry out the returned ``IntentAction``s.
///
/// The rules it keeps (from the guidelines in `../shared/seeds`):
/// - an intent goes only to the current context, the most recently focused subscriber that is
///   still focused and has something to undo or redo; with none, a shake makes no prompt;
/// - one intent is open at a time; shakes while it is open are ignored, and so are shakes in
///   the cooldown after it;
/// - the prompt is cancelled, and nothing performed, when its app loses focus, disconnects,
///   another app takes the context, or the timeout passes;
/// - every prompt is checked by ``PromptRules``; tokens and intents work only for their own user.
public struct IntentMachine: Sendable {
    /// Timing of prompts.
    public struct Timing: Sendable, Equatable {
        /// How long a prompt may stay open without a choice (and an app may take to report a result).
        public var promptTimeout: Duration
        /// How long shakes are ignored after an intent ends.
        public var cooldown: Duration
        /// Creates timing; the defaults are 30 s and 1 s.
        public init(promptTimeout: Duration = .seconds(30), cooldown: Duration = .seconds(1)) {
            self.promptTimeout = promptTimeout
            self.cooldown = cooldown
        }
    }

    /// A subscribed app.
    public struct Subscriber: Sendable, Equatable {
        /// The subscription's token.
        public let token: String
        /// The app's stable identifier.
        public let app: String
        /// The app's name for people.
        public let name: String
        /// The user that subscribed; only it may use the token.
        public let uid: UInt32
        /// Whether the access policy lets its user hold the current context (`[Access] ContextUsers=`, `ContextGroups=`).
        public var mayHoldContext = true
        /// The app's process: the subscribing peer's pid, or the pid the agent stands in for.
        public var pid: Int32 = 0
        /// Whether the agent declared it on the app's behalf (``IntentMachine/standIn(agentToken:uid:pid:app:name:focused:undo:redo:mayHoldContext:makeToken:now:)``).
        public var isStandIn = false
        /// Whether the app says it is in the foreground.
        public var focused = false
        /// When it last became focused, as a counter: the highest focused one is the current context.
        var focusOrder: UInt64 = 0
        /// The action name it can undo now.
        public var undo: String?
        /// The action name it can redo now.
        public var redo: String?

        /// Whether it has anything to offer.
        var hasHistory: Bool { undo != nil || redo != nil }

        func actionName(_ operation: Operation) -> String? { operation == .undo ? undo : redo }
    }

    /// The one open intent.
    public struct OpenIntent: Sendable, Equatable {
        /// Where it stands.
        public enum Phase: Sendable, Equatable {
            /// Sent to the app; waiting for its prompt.
            case proposed
            /// The prompt is checked and shown; waiting for the person's choice.
            case prompted(Prompt)
            /// The person chose; the app is performing and will report the result.
            case performing(Operation)

            /// The phase's name, for WrongState errors.
            var name: String {
                switch self {
                case .proposed: "proposed"
                case .prompted: "prompted"
                case .performing: "performing"
                }
            }
        }
        /// The intent's id.
        public let id: String
        /// The subscriber it belongs to.
        public let token: String
        /// The operation proposed.
        public let operation: Operation
        /// The action name at the time of the intent.
        public let actionName: String
        /// Where it stands.
        public var phase: Phase
        /// The agent's token when a registered agent draws the prompt; nil while the app draws it (or
        /// has yet to). Fixed when the prompt is answered, so an agent registering later can't take it over.
        public var drawnBy: String?
        /// When it times out.
        public var deadline: ContinuousClock.Instant
    }

    /// The prompt agent, when one is registered.
    public struct Agent: Sendable, Equatable {
        /// Its token.
        public let token: String
        /// Its name.
        public let name: String
        /// Its user.
        public let uid: UInt32
    }

    /// Timing of prompts.
    public var timing: Timing
    /// Subscribers by token.
    public internal(set) var subscribers: [String: Subscriber] = [:]
    /// The open intent.
    public internal(set) var open: OpenIntent?
    /// The registered prompt agent.
    public internal(set) var agent: Agent?
    /// The agent's stand-in for an app that does not take part: a subscriber's token, events to the agent.
    public internal(set) var standInToken: String?
    /// Shakes are ignored until then.
    public internal(set) var cooldownUntil: ContinuousClock.Instant?
    /// Who may hold the current context, as logind sees the seat: anyone without logind, else only
    /// the user of the active session.
    public internal(set) var seat: SeatPolicy = .anyone
    /// Whether a person is in front of the seat's active session, from logind's hints: while it is
    /// locked or idle the sensor is off (``sensorOffReason``).
    public internal(set) var session: SessionPresence = .unknown
    /// Each user's Shake to Undo settings; users with the defaults have no entry.
    public internal(set) var preferences: [UInt32: UserPreferences] = [:]
    var focusCounter: UInt64 = 0
    var intentCounter: UInt64 = 0

    /// Creates an empty machine.
    public init(timing: Timing = .init()) {
        self.timing = timing
    }

    /// The current context: the most recently focused subscriber that is still focused, has
    /// something to undo or redo, and whose user may hold the context (the access policy and the seat).
    public var currentContext: Subscriber? {
        subscribers.values.filter { $0.focused && $0.hasHistory && mayHoldContext($0) && !isOutranked($0) }
            .max { $0.focusOrder < $1.focusOrder }
    }

    /// Whether a stand-in's app has a subscription of its own: an app that takes part always wins.
    /// A stand-in also drops out while its user has "apps that don't take part" off.
    func isOutranked(_ subscriber: Subscriber) -> Bool {
        guard subscriber.isStandIn else { return false }
        return !preferences(uid: subscriber.uid).standIn
            || subscribers.values.contains { !$0.isStandIn && $0.pid == subscriber.pid }
    }

    /// Whether a subscriber's user may hold the current context now.
    func mayHoldContext(_ subscriber: Subscriber) -> Bool {
        guard subscriber.mayHoldContext else { return false }
        switch seat {
        case .anyone: return true
        case .activeUser(let uid): return uid == subscriber.uid
        }
    }

    /// Whether a shake could make an intent now, so the sensor should be read: the session is not
    /// locked or idle, an app is in context, and its user has Shake to Undo on.
    public var wantsSensor: Bool { sensorOffReason == nil }

    /// The earliest time ``tick(now:)`` has something to do.
    public var nextDeadline: ContinuousClock.Instant? { open?.deadline }
}

/// Who may hold the current context, from logind's view of the seat.
public enum SeatPolicy: Sendable, Equatable {
    /// No logind: any user the access policy allows.
    case anyone
    /// logind runs: only this user (of the active session on the seat); nil when none is active.
    case activeUser(UInt32?)
}

/// What the owner of an ``IntentMachine`` must do after an input.
public enum IntentAction: Sendable, Equatable {
    /// Send an event on a subscriber's stream.
    case event(token: String, UndoEvent)
    /// Send the agent a prompt to draw.
    case agentPrompt(AgentPrompt)
    /// Tell the agent an intent's prompt closed without it.
    case agentClosed(intent: String)
    /// Tell the agent what a performed intent changed.
    case agentSummary(intent: String, summary: String)
    /// Tell monitors what became of a shake or an intent, and log it.
    case outcome(MonitorEvent.Outcome, intent: String?, detail: String)
}
