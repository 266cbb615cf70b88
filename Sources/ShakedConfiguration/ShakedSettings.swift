import UndoProtocol

/// Everything shaked can be configured with, grouped as the sections of its configuration file.
///
/// Every setting has a default that suits a phone, so `ShakedSettings()` is a working configuration.
/// ``load(configFile:etcDirectory:)`` layers `/etc/shaked/shaked.conf` and its drop-ins over the
/// defaults; ``check(configFile:etcDirectory:)`` reports every problem in them for `--check-config`.
public struct ShakedSettings: Sendable, Equatable {
    /// `[Sensor]`: which accelerometer to read, how fast, and how it is mounted.
    public var sensor = Sensor()
    /// `[Detector]`: the sensitivity level and optional overrides of the detector's tunables.
    public var detector = Detector()
    /// `[Prompt]`: how long an undo prompt may stay open, and the pause after one.
    public var prompt = Prompt()
    /// `[Socket]`: where the varlink socket is, when the daemon binds it itself.
    public var socket = Socket()
    /// `[Access]`: who may subscribe, request intents, monitor and register a prompt agent.
    public var access = AccessPolicy()
    /// `[Limits]`: caps on connections, subscriptions and call rates.
    public var limits = Limits()
    /// `[Log]`: how much the daemon logs.
    public var log = Log()

    /// Creates settings with every documented default.
    public init() {}

    /// The file read when no `--config` is given.
    public static let defaultEtcDirectory = "/etc/shaked"
    /// The main file's name inside the configuration directory.
    public static let mainFileName = "shaked.conf"
    /// The drop-in directory's name inside the configuration directory; its `*.conf` files are read in order.
    public static let dropInDirectoryName = "shaked.conf.d"
}

extension ShakedSettings {
    /// `[Prompt]`: the life of an undo prompt.
    public struct Prompt: Sendable, Equatable {
        /// Seconds an open prompt may wait for the person's choice before it is cancelled (`Timeout`).
        public var timeout: Double = 30
        /// Seconds after a prompt ends during which shakes are ignored (`Cooldown`), so the motion of
        /// putting the phone down again does not open a second prompt.
        public var cooldown: Double = 1

        /// The allowed timeouts, in seconds.
        public static let timeouts: ClosedRange<Double> = 1...600
        /// The allowed cooldowns, in seconds.
        public static let cooldowns: ClosedRange<Double> = 0...60

        /// Creates prompt settings; 30 s to answer, 1 s of calm afterwards.
        public init() {}
    }

    /// `[Socket]`: the varlink socket, used when the daemon binds it itself (without socket activation).
    ///
    /// Under systemd the socket comes from `shaked.socket` (`ListenStream=`, `SocketMode=`, `SocketGroup=`),
    /// and these settings are not used; keep the two in agreement.
    public struct Socket: Sendable, Equatable {
        /// The socket's path (`Path`), absolute and at most 107 bytes (the size of `sun_path`).
        public var path = UndoInterface.defaultSocketPath
        /// The socket file's permission bits (`Mode`, written in octal, such as `0666`).
        /// Anyone who can connect may call; the `[Access]` rules then decide what each caller may do.
        public var mode: UInt32 = 0o666
        /// The group to give the socket file (`Group`, a name or number); nil keeps the daemon's group.
        public var group: String?

        /// The longest path a Unix socket address holds.
        public static let maximumPathBytes = 107

        /// Creates socket settings: `/run/shaked/io.shaked.Undo`, mode 0666, the daemon's group.
        public init() {}

        /// The mode as four octal digits, `"0666"`.
        public var modeText: String { Self.octal(mode) }

        /// Permission bits as four octal digits.
        static func octal(_ mode: UInt32) -> String {
            let digits = String(mode, radix: 8)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    /// `[Limits]`: what one user or connection may use, so no app can exhaust the daemon. All apply
    /// on reload to new connections and calls; what is already open stays.
    public struct Limits: Sendable, Equatable {
        /// Open connections in total (`Connections`), kept below the descriptor limit.
        public var connections: Int
        /// Open connections per user id (`ConnectionsPerUser`).
        public var connectionsPerUser: Int
        /// Subscriptions in total, over all users (`Subscriptions`).
        public var subscriptions: Int
        /// Subscriptions per user id (`SubscriptionsPerUser`).
        public var subscriptionsPerUser: Int
        /// Subscriptions per connection (`SubscriptionsPerConnection`).
        public var subscriptionsPerConnection: Int
        /// Calls per second on one connection (`CallsPerSecond`); more are refused with `LimitReached`.
        public var callsPerSecond: Int
        /// Calls per second per user id over all its connections (`CallsPerSecondPerUser`).
        public var callsPerSecondPerUser: Int
        /// Seconds a connection may stay open without completing a call (`IdleTimeout`).
        public var idleTimeout: Double

        /// The largest message, in bytes, before its NUL terminator. Fixed, not configurable: every
        /// message of the interface is far smaller, and the cap bounds the memory of a connection.
        public static let messageSize = 64 * 1024
        /// Creates limits with the documented defaults.
        public init(
            connections: Int = 256, connectionsPerUser: Int = 32, subscriptions: Int = 1024,
            subscriptionsPerUser: Int = 64, subscriptionsPerConnection: Int = 4, callsPerSecond: Int = 50,
            callsPerSecondPerUser: Int = 200, idleTimeout: Double = 10
        ) {
            self.connections = connections
            self.connectionsPerUser = connectionsPerUser
            self.subscriptions = subscriptions
            self.subscriptionsPerUser = subscriptionsPerUser
            self.subscriptionsPerConnection = subscriptionsPerConnection
            self.callsPerSecond = callsPerSecond
            self.callsPerSecondPerUser = callsPerSecondPerUser
            self.idleTimeout = idleTimeout
        }
    }

    /// `[Log]`: logging.
    public struct Log: Sendable, Equatable {
        /// The least severe level logged (`Level`).
        public var level = LogLevel.info

        /// Creates log settings; `info` by default.
        public init() {}
    }
}

/// A log level, named as swift-log names them (`Logger.Level(rawValue:)` accepts every raw value).
public enum LogLevel: String, Sendable, CaseIterable {
    /// Everything, including each sample batch.
    case trace
    /// Details for debugging.
    case debug
    /// Normal operation: start, sensor found, reloads.
    case info
    /// Noteworthy but normal: a sensor gone, a client refused.
    case notice
    /// Something is wrong but the daemon carries on.
    case warning
    /// An operation failed.
    case error
    /// The daemon cannot carry on.
    case critical
}
