import ShakeDetection

#if canImport(Glibc)
    import Glibc
#endif

/// What the service needs to know to run, whatever file or flag it came from.
public struct ServiceSettings: Sendable, Equatable {
    /// Timing of prompts.
    public var timing: IntentMachine.Timing
    /// Who may do what.
    public var access: AccessPolicy
    /// Limits that keep one client from starving the others.
    public var limits: ServiceLimits
    /// The configured sensitivity (`detector.sensitivity`), for users who chose none of their own.
    public var sensitivity: Sensitivity

    /// Creates settings; the defaults suit a phone.
    public init(
        timing: IntentMachine.Timing = .init(), access: AccessPolicy = .init(), limits: ServiceLimits = .init(),
        sensitivity: Sensitivity = .medium
    ) {
        self.timing = timing
        self.access = access
        self.limits = limits
        self.sensitivity = sensitivity
    }
}

/// Limits on what clients may use, so that no user, connection or burst of calls can starve the
/// others or grow the daemon without bound. Every one applies per user as well as in total.
public struct ServiceLimits: Sendable, Equatable {
    /// The largest varlink message, in bytes. Longer ones close the connection.
    public var messageSize: Int
    /// Open connections in total; kept below the file descriptor limit (see ``effectiveConnections``).
    public var connections: Int
    /// Open connections per user (root included).
    public var connectionsPerUser: Int
    /// Subscriptions across all users.
    public var subscriptions: Int
    /// Subscriptions per user.
    public var subscriptionsPerUser: Int
    /// Subscriptions per connection.
    public var subscriptionsPerConnection: Int
    /// Calls per second per connection (a token bucket with this rate and burst).
    public var callsPerSecond: Int
    /// Calls per second per user, over all its connections.
    public var callsPerSecondPerUser: Int
    /// How long a connection may stay open without completing a call.
    public var idleTimeout: Duration

    /// Creates limits: 64 KiB messages; 256 connections, 32 per user; 1,024 subscriptions, 64 per user
    /// and 4 per connection; 50 calls a second per connection and 200 per user; 10 s to complete a call.
    public init(
        messageSize: Int = 64 * 1024, connections: Int = 256, connectionsPerUser: Int = 32, subscriptions: Int = 1024,
        subscriptionsPerUser: Int = 64, subscriptionsPerConnection: Int = 4, callsPerSecond: Int = 50,
        callsPerSecondPerUser: Int = 200, idleTimeout: Duration = .seconds(10)
    ) {
        self.messageSize = messageSize
        self.connections = connections
        self.connectionsPerUser = connectionsPerUser
        self.subscriptions = subscriptions
        self.subscriptionsPerUser = subscriptionsPerUser
        self.subscriptionsPerConnection = subscriptionsPerConnection
        self.callsPerSecond = callsPerSecond
        self.callsPerSecondPerUser = callsPerSecondPerUser
        self.idleTimeout = idleTimeout
    }

    /// ``connections``, lowered to leave 32 descriptors below the process's `RLIMIT_NOFILE` for the
    /// listening socket, the sensor, the journal and the event loops.
    public var effectiveConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return connections
        }
        return max(1, min(connections, Int(clamping: limit.rlim_cur) - 32))
    }
}
