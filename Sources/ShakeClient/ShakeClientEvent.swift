import UndoProtocol

/// What the app can undo and redo now, and whether it is in the foreground: what
/// ``ShakeClient`` publishes with `SetContext`.
public struct UndoContext: Sendable, Hashable {
    /// Whether the app is in the foreground (only a focused app hears shakes).
    public var focused: Bool
    /// The action name the app can undo now, such as "Typing", or nil.
    public var undo: String?
    /// The action name the app can redo now, such as "Bold", or nil.
    public var redo: String?

    /// Creates a context.
    public init(focused: Bool, undo: String? = nil, redo: String? = nil) {
        self.focused = focused
        self.undo = undo
        self.redo = redo
    }
}

/// A prompt the app shows now: the person picks one of its actions, and the app passes the
/// action's role to ``ShakeClient/choose(_:)``.
public struct PromptRequest: Sendable, Hashable {
    /// The intent the prompt belongs to.
    public var intent: String
    /// What the shake proposes.
    public var operation: Operation
    /// The prompt: title ("Undo Typing"), optional message, and actions left to right,
    /// already checked and accepted by the daemon.
    public var prompt: Prompt

    /// Creates a request.
    public init(intent: String, operation: Operation, prompt: Prompt) {
        self.intent = intent
        self.operation = operation
        self.prompt = prompt
    }

    /// The action the prompt marks as default (`preferred`), or else the one that performs
    /// ``operation``: the button Enter presses.
    public var defaultAction: PromptAction? {
        let wanted: Role = operation == .undo ? .undo : .redo
        return prompt.actions.first(where: \.preferred) ?? prompt.actions.first { $0.role == wanted }
    }
}

/// The person confirmed: the app performs the operation now, then calls
/// ``ShakeClient/reportResult(_:)`` with what changed.
public struct PerformRequest: Sendable, Hashable {
    /// The intent being performed.
    public var intent: String
    /// Undo or redo.
    public var operation: Operation
    /// The action name, such as "Typing".
    public var actionName: String

    /// Creates a request.
    public init(intent: String, operation: Operation, actionName: String) {
        self.intent = intent
        self.operation = operation
        self.actionName = actionName
    }
}

/// Where the client's connection to the daemon stands.
public enum ConnectionState: Sendable, Hashable {
    /// ``ShakeClient/run()`` has not started, or has returned.
    case stopped
    /// Connecting and subscribing.
    case connecting
    /// Subscribed: shakes reach the app.
    case connected
    /// The daemon is away; the next attempt comes after `retryIn`.
    case waiting(reason: String, retryIn: Duration)
}

extension ShakeClient {
    /// Something the app acts on, from ``ShakeClient/events``.
    public enum Event: Sendable, Hashable {
        /// Subscribed to the daemon (again, after a reconnect); the context is published.
        case connected
        /// The connection is lost or could not be made (`reason` says why); the client tries
        /// again after `retryIn`. An open prompt was cancelled with ``Event/cancelled(intent:reason:)``.
        case disconnected(reason: String, retryIn: Duration)
        /// Show this prompt; pass the person's choice to ``ShakeClient/choose(_:)``.
        case prompt(PromptRequest)
        /// Perform this undo or redo now, then call ``ShakeClient/reportResult(_:)``.
        case perform(PerformRequest)
        /// The intent ended with nothing performed: close its prompt.
        case cancelled(intent: String, reason: CancelReason)
        /// The daemon refused a call about this intent (`error` names why); the intent is over.
        case failed(intent: String, error: VarlinkError)
        /// A shake cannot be recognized now, though the app could use one: `reason` says why,
        /// such as "shake to undo unavailable: the accelerometer is in use by iio-sensor-proxy
        /// (pid 812)". Say so beside the undo controls until ``Event/shakeAvailable``.
        case shakeUnavailable(reason: String)
        /// Shakes are recognized again.
        case shakeAvailable
    }
}
