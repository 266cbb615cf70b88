import ShakeDetection
import ShakedConfiguration

#if canImport(Glibc)
    import Glibc
#endif

/// What the service needs to know to run: the configuration's settings in the form the service checks
/// them in, whatever file or flag they came from.
public struct ServiceSettings: Sendable, Equatable {
    /// Timing of prompts.
    public var timing: IntentMachine.Timing
    /// Who may do what (`[Access]`), with names looked up.
    public var access: ResolvedAccessPolicy
    /// Limits that keep one client from starving the others (`[Limits]`).
    public var limits: ShakedSettings.Limits
    /// The configured sensitivity (`detector.sensitivity`), for users who chose none of their own.
    public var sensitivity: Sensitivity

    /// Creates settings; the defaults are the configuration's.
    public init(
        timing: IntentMachine.Timing = .init(), access: ResolvedAccessPolicy = AccessPolicy().resolved(),
        limits: ShakedSettings.Limits = .init(), sensitivity: Sensitivity = .medium
    ) {
        self.timing = timing
        self.access = access
        self.limits = limits
        self.sensitivity = sensitivity
    }

    /// The service's settings from the configuration, with user and group names looked up now.
    public init(_ settings: ShakedSettings) {
        self.init(
            timing: .init(
                promptTimeout: .milliseconds(Int64(settings.prompt.timeout * 1000)),
                cooldown: .milliseconds(Int64(settings.prompt.cooldown * 1000))),
            access: settings.access.resolved(), limits: settings.limits, sensitivity: settings.detector.sensitivity)
    }
}

extension ShakedSettings.Limits {
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

extension ResolvedAccessPolicy {
    /// Whether a peer (its uid, primary and supplementary groups from the socket) may do `action`.
    func allows(_ action: AccessAction, _ peer: Peer) -> Bool {
        allows(action, uid: peer.uid, gids: Array(peer.groups))
    }
}
