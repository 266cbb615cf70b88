/// What the service needs to know to run, whatever file or flag it came from.
public struct ServiceSettings: Sendable, Equatable {
    /// Timing of prompts.
    public var timing: IntentMachine.Timing
    /// Who may do what.
    public var access: AccessPolicy
    /// Limits that keep one client from starving the others.
    public var limits: ServiceLimits

    /// Creates settings; the defaults suit a phone.
    public init(timing: IntentMachine.Timing = .init(), access: AccessPolicy = .init(), limits: ServiceLimits = .init()) {
        self.timing = timing
        self.access = access
        self.limits = limits
    }
}

/// Limits on what clients may use.
public struct ServiceLimits: Sendable, Equatable {
    /// The largest varlink message, in bytes. Longer ones close the connection.
    public var messageSize: Int
    /// Open connections per user (root included).
    public var connectionsPerUser: Int
    /// Subscriptions across all users.
    public var subscriptions: Int
    /// Calls per second per connection (a token bucket with this rate and burst).
    public var callsPerSecond: Int

    /// Creates limits: 64 KiB messages, 64 connections per user, 1,024 subscriptions, 50 calls/s.
    public init(messageSize: Int = 64 * 1024, connectionsPerUser: Int = 64, subscriptions: Int = 1024, callsPerSecond: Int = 50) {
        self.messageSize = messageSize
        self.connectionsPerUser = connectionsPerUser
        self.subscriptions = subscriptions
        self.callsPerSecond = callsPerSecond
    }
}
