/// The methods, parameters and replies of `io.shaked.Undo`, as the interface file defines them.
public enum UndoInterface {
    /// `io.shaked.Undo`.
    public static let name = "io.shaked.Undo"
    /// `io.shaked.Demo`, served only by a daemon running `--demo`.
    public static let demoName = "io.shaked.Demo"
    /// Where the daemon serves it unless configured otherwise: `/run/shaked/io.shaked.Undo`.
    public static let defaultSocketPath = "/run/shaked/\(name)"

    /// The methods of `io.shaked.Undo` (and `io.shaked.Demo.Shake`), by qualified name.
    public enum Method: String, Sendable, CaseIterable {
        case subscribe = "io.shaked.Undo.Subscribe"
        case setContext = "io.shaked.Undo.SetContext"
        case answerIntent = "io.shaked.Undo.AnswerIntent"
        case choose = "io.shaked.Undo.Choose"
        case reportResult = "io.shaked.Undo.ReportResult"
        case requestIntent = "io.shaked.Undo.RequestIntent"
        case getStatus = "io.shaked.Undo.GetStatus"
        case monitor = "io.shaked.Undo.Monitor"
        case registerAgent = "io.shaked.Undo.RegisterAgent"
        case getPreferences = "io.shaked.Undo.GetPreferences"
        case setPreferences = "io.shaked.Undo.SetPreferences"
        case standIn = "io.shaked.Undo.StandIn"
        case demoShake = "io.shaked.Demo.Shake"
        case getInfo = "org.varlink.service.GetInfo"
        case getInterfaceDescription = "org.varlink.service.GetInterfaceDescription"

        /// Whether the method streams replies and must be called with `more`.
        public var streams: Bool { self == .subscribe || self == .monitor || self == .registerAgent }
    }
}

/// Why an intent was cancelled.
public enum CancelReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The person chose Cancel.
    case declined
    /// The app left the foreground while its prompt was open.
    case focusLost
    /// The app's subscription connection closed.
    case disconnected
    /// Another app took the context, or the app's own undo/redo changed under the prompt.
    case contextChanged
    /// Nobody chose within the prompt timeout.
    case timeout
    /// The daemon is stopping.
    case shuttingDown
}

/// An event for a subscribed app.
public struct UndoEvent: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A shake (or a request) asks for an operation: answer with AnswerIntent.
        case intent
        /// The person confirmed: perform the operation now, then ReportResult.
        case perform
        /// The intent ended with nothing performed.
        case cancelled
    }
    /// What happened.
    public var kind: Kind
    /// The intent this event belongs to.
    public var intent: String
    /// The operation proposed, or to perform.
    public var operation: Operation
    /// The action name the app published, such as "Typing".
    public var actionName: String
    /// Why, for `cancelled`.
    public var reason: CancelReason?

    /// Creates an event.
    public init(kind: Kind, intent: String, operation: Operation, actionName: String, reason: CancelReason? = nil) {
        self.kind = kind
        self.intent = intent
        self.operation = operation
        self.actionName = actionName
        self.reason = reason
    }
}

/// `Subscribe(app, name)`.
public struct SubscribeParameters: Sendable, Hashable, Codable {
    /// A stable identifier, such as `org.example.Notes`.
    public var app: String
    /// The name shown to people.
    public var name: String
    /// Creates the parameters.
    public init(app: String, name: String) {
        self.app = app
        self.name = name
    }
}

/// A reply of `Subscribe`: the first carries the token, later ones one event each.
public struct SubscribeReply: Sendable, Hashable, Codable {
    /// The subscription's token.
    public var token: String
    /// The event, in the replies that carry one.
    public var event: UndoEvent?
    /// Whether a shake can be recognized now, in the replies that say it changed.
    public var sensor: SensorAvailability?
    /// Creates a reply.
    public init(token: String, event: UndoEvent? = nil, sensor: SensorAvailability? = nil) {
        self.token = token
        self.event = event
        self.sensor = sensor
    }
}

/// `SensorAvailability`: whether a shake can be recognized now, and why not.
public struct SensorAvailability: Sendable, Hashable, Codable {
    /// False while some app can use a shake but the accelerometer cannot be read.
    public var available: Bool
    /// Why not, such as "shake to undo unavailable: the accelerometer is in use by iio-sensor-proxy (pid 812)".
    public var reason: String?
    /// Creates an availability.
    public init(available: Bool, reason: String? = nil) {
        self.available = available
        self.reason = reason
    }
}

/// `SetContext(token, focused, undo, redo)`.
public struct SetContextParameters: Sendable, Hashable, Codable {
    /// The subscription's token.
    public var token: String
    /// Whether the app is in the foreground.
    public var focused: Bool
    /// The action name the app can undo now, or nil.
    public var undo: String?
    /// The action name the app can redo now, or nil.
    public var redo: String?
    /// Creates the parameters.
    public init(token: String, focused: Bool, undo: String?, redo: String?) {
        self.token = token
        self.focused = focused
        self.undo = undo
        self.redo = redo
    }
}

/// `AnswerIntent(token, intent, prompt)`.
public struct AnswerIntentParameters: Sendable, Hashable, Codable {
    /// The subscription's token.
    public var token: String
    /// The intent answered.
    public var intent: String
    /// The prompt the app will show.
    public var prompt: Prompt
    /// Creates the parameters.
    public init(token: String, intent: String, prompt: Prompt) {
        self.token = token
        self.intent = intent
        self.prompt = prompt
    }
}

/// The reply of `AnswerIntent`.
public struct AnswerIntentReply: Sendable, Hashable, Codable {
    /// A registered agent draws the prompt; the app shows nothing.
    public var agent: Bool
    /// Creates a reply.
    public init(agent: Bool) { self.agent = agent }
}

/// `Choose(token, intent, choice)`.
public struct ChooseParameters: Sendable, Hashable, Codable {
    /// The app's subscription token, or the agent's token.
    public var token: String
    /// The intent whose prompt was answered.
    public var intent: String
    /// The button pressed.
    public var choice: Role
    /// Creates the parameters.
    public init(token: String, intent: String, choice: Role) {
        self.token = token
        self.intent = intent
        self.choice = choice
    }
}

/// `ReportResult(token, intent, summary)`.
public struct ReportResultParameters: Sendable, Hashable, Codable {
    /// The subscription's token.
    public var token: String
    /// The intent performed.
    public var intent: String
    /// What changed, such as "Restored line 3".
    public var summary: String
    /// Creates the parameters.
    public init(token: String, intent: String, summary: String) {
        self.token = token
        self.intent = intent
        self.summary = summary
    }
}

/// `RequestIntent(operation)`.
public struct RequestIntentParameters: Sendable, Hashable, Codable {
    /// The operation wanted; nil lets the daemon propose undo if possible, else redo.
    public var operation: Operation?
    /// Creates the parameters.
    public init(operation: Operation? = nil) { self.operation = operation }
}

/// The reply of `RequestIntent`.
public struct RequestIntentReply: Sendable, Hashable, Codable {
    /// The new intent's id.
    public var intent: String
    /// The app (its `app` identifier) the intent went to; nil when it belongs to another user.
    public var app: String?
    /// Creates a reply.
    public init(intent: String, app: String?) {
        self.intent = intent
        self.app = app
    }
}

/// The daemon's state, as `GetStatus` reports it.
public struct ServiceStatus: Sendable, Hashable, Codable {
    /// The sample source.
    public var sensor: String
    /// Whether the sensor is being read now.
    public var sensorActive: Bool
    /// Samples read from the source since the daemon started.
    public var samplesRead: Int
    /// Why shake to undo is unavailable while an app could use it (the sensor cannot be read), if it is.
    public var unavailable: String?
    /// The detector and its sensitivity.
    public var detector: String
    /// Connected subscribers.
    public var subscribers: Int
    /// The app in the current context.
    public var currentApp: String?
    /// Seconds since the last recognized shake.
    public var lastShakeAgo: Double?
    /// The intent whose prompt is open.
    public var openIntent: String?
    /// Whether a prompt agent is registered.
    public var agent: Bool
    /// Why the sensor is not wanted now, such as "the session is locked"; nil while an app can use a shake.
    public var sensorOff: String?
    /// Creates a status.
    public init(
        sensor: String, sensorActive: Bool, samplesRead: Int = 0, detector: String, subscribers: Int,
        currentApp: String?,
        lastShakeAgo: Double?, openIntent: String?, agent: Bool, unavailable: String? = nil, sensorOff: String? = nil
    ) {
        self.sensor = sensor
        self.sensorActive = sensorActive
        self.samplesRead = samplesRead
        self.detector = detector
        self.subscribers = subscribers
        self.currentApp = currentApp
        self.lastShakeAgo = lastShakeAgo
        self.openIntent = openIntent
        self.agent = agent
        self.unavailable = unavailable
        self.sensorOff = sensorOff
    }
}

/// The reply of `GetStatus`.
public struct GetStatusReply: Sendable, Hashable, Codable {
    /// The status.
    public var status: ServiceStatus
    /// Creates a reply.
    public init(status: ServiceStatus) { self.status = status }
}

/// Something that happened, for monitoring tools; carries no titles or results of apps.
public struct MonitorEvent: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The first reply: the monitor is registered.
        case started
        /// A shake began: its strokes look like one. Nothing is done until it ends.
        case began
        /// A shake ended (the hand stopped): the one acted on.
        case shake
        /// A shake that began came to nothing (``MonitorEvent/reason`` says why).
        case dropped
        /// A chain of strokes came close to a shake, and one rule stopped it (``MonitorEvent/reason`` names it).
        case nearMiss
        /// An intent ended.
        case outcome
    }
    /// What became of an intent (or a shake that made none).
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The operation was performed.
        case performed
        /// The intent was cancelled.
        case cancelled
        /// No app was in context: no intent, no prompt.
        case noContext
        /// A prompt was open or the cooldown ran: the shake was ignored.
        case ignored
    }
    /// What happened.
    public var kind: Kind
    /// Seconds on the daemon's monotonic clock (CLOCK_MONOTONIC).
    public var time: Double
    /// For a shake (begun, ended or dropped): reversals counted.
    public var reversals: Int?
    /// For a shake (begun, ended or dropped): the peak in m/s².
    public var peak: Double?
    /// For an outcome: what became of it.
    public var outcome: Outcome?
    /// For a dropped shake: why (`kept going`, `too short`, `interrupted`); for a near miss, the rule that
    /// stopped it (`rhythm`, `the body's rhythm`, ...).
    public var reason: String?
    /// Creates an event.
    public init(
        kind: Kind, time: Double, reversals: Int? = nil, peak: Double? = nil, outcome: Outcome? = nil,
        reason: String? = nil
    ) {
        self.kind = kind
        self.time = time
        self.reversals = reversals
        self.peak = peak
        self.outcome = outcome
        self.reason = reason
    }
}

/// A reply of `Monitor`.
public struct MonitorReply: Sendable, Hashable, Codable {
    /// The event.
    public var event: MonitorEvent
    /// Creates a reply.
    public init(event: MonitorEvent) { self.event = event }
}

/// `RegisterAgent(name)`.
public struct RegisterAgentParameters: Sendable, Hashable, Codable {
    /// The agent's name, for logs.
    public var name: String
    /// Creates the parameters.
    public init(name: String) { self.name = name }
}

/// A prompt handed to a registered agent.
public struct AgentPrompt: Sendable, Hashable, Codable {
    /// The intent to answer with Choose.
    public var intent: String
    /// The name the app subscribed with.
    public var appName: String
    /// The prompt, already checked.
    public var prompt: Prompt
    /// Creates an agent prompt.
    public init(intent: String, appName: String, prompt: Prompt) {
        self.intent = intent
        self.appName = appName
        self.prompt = prompt
    }
}

/// A reply of `RegisterAgent`: the first carries the token; later ones a prompt to draw, an
/// intent whose prompt closed, or the summary of a performed intent.
public struct RegisterAgentReply: Sendable, Hashable, Codable {
    /// The agent's token, for Choose.
    public var token: String
    /// A prompt to draw.
    public var prompt: AgentPrompt?
    /// An intent whose prompt ended without the agent; take it down.
    public var closed: String?
    /// What a performed intent changed, from the app's ReportResult.
    public var summary: String?
    /// An event of the agent's stand-in (``StandInParameters``), as Subscribe would carry it.
    public var event: UndoEvent?
    /// Whether a shake can be recognized now, when that changed, as Subscribe would carry it.
    public var sensor: SensorAvailability?
    /// Creates a reply.
    public init(
        token: String, prompt: AgentPrompt? = nil, closed: String? = nil, summary: String? = nil,
        event: UndoEvent? = nil, sensor: SensorAvailability? = nil
    ) {
        self.token = token
        self.prompt = prompt
        self.closed = closed
        self.summary = summary
        self.event = event
        self.sensor = sensor
    }
}

/// `StandIn(token, pid, app, name, focused, undo, redo)`: the agent takes the part of an app that
/// does not take part itself.
public struct StandInParameters: Sendable, Hashable, Codable {
    /// The agent's token.
    public var token: String
    /// The app's process id.
    public var pid: Int
    /// The app's identifier, as Subscribe's `app`.
    public var app: String
    /// The app's name for people.
    public var name: String
    /// Whether the app's field has the focus.
    public var focused: Bool
    /// The action name that can be undone now ("Typing", "Delete", "Paste"), or nil.
    public var undo: String?
    /// The action name that can be redone now, or nil.
    public var redo: String?
    /// Creates the parameters.
    public init(
        token: String, pid: Int, app: String, name: String, focused: Bool, undo: String?, redo: String?
    ) {
        self.token = token
        self.pid = pid
        self.app = app
        self.name = name
        self.focused = focused
        self.undo = undo
        self.redo = redo
    }
}

/// The reply of `StandIn`.
public struct StandInReply: Sendable, Hashable, Codable {
    /// The stand-in's subscription token, for AnswerIntent and ReportResult.
    public var standIn: String
    /// Creates a reply.
    public init(standIn: String) { self.standIn = standIn }
}

/// The errors of `io.shaked.Undo`.
extension VarlinkError {
    /// The prompt breaks a guideline; `rule` names it.
    public static func promptRejected(_ rejection: PromptRejected) -> Self {
        .init("io.shaked.Undo.PromptRejected", ["rule": rejection.rule, "detail": rejection.detail])
    }
    /// The token is unknown, expired, or another user's.
    public static let unknownToken = Self("io.shaked.Undo.UnknownToken")
    /// The intent is unknown, ended, or not this app's.
    public static func unknownIntent(_ intent: String) -> Self { .init("io.shaked.Undo.UnknownIntent", ["intent": intent]) }
    /// The call does not fit the intent's state.
    public static func wrongState(_ intent: String, _ state: String) -> Self {
        .init("io.shaked.Undo.WrongState", ["intent": intent, "state": state])
    }
    /// No app is in the current context.
    public static let noContext = Self("io.shaked.Undo.NoContext")
    /// A prompt is open, or the cooldown after one runs.
    public static func busy(_ reason: String) -> Self { .init("io.shaked.Undo.Busy", ["reason": reason]) }
    /// The caller may not do this.
    public static func notAllowed(_ action: String) -> Self { .init("io.shaked.Undo.NotAllowed", ["action": action]) }
    /// A limit was reached.
    public static func limitReached(_ limit: String) -> Self { .init("io.shaked.Undo.LimitReached", ["limit": limit]) }
    /// StandIn: the process has a subscription of its own.
    public static let takesPart = Self("io.shaked.Undo.TakesPart")
    /// The daemon runs without `--demo`.
    public static let notDemo = Self("io.shaked.Demo.NotDemo")
}
