#if canImport(Glibc)
    import Glibc
#endif

/// Whether the process an agent wants to stand in for is its own (`StandIn`).
///
/// The daemon combines ``sameUser(_:_:)`` with logind's sessions (`sd_pid_get_session`, in the
/// `shaked` target); tests pass a rule of their own to ``ServerContext``.
public enum SessionCheck {
    /// Whether `/proc/PID` (the process's owner, as the kernel reports it) belongs to the peer's user.
    /// False when the process does not exist. A pid can be reused; the agent reads it from the
    /// accessibility bus a moment before, and the same user's process is the most it can gain.
    @Sendable public static func sameUser(_ peer: Peer, _ pid: Int32) -> Bool {
        guard let owner = owner(of: pid) else { return false }
        return owner == peer.uid
    }

    /// The user owning `/proc/PID` (`stat`), or nil when there is no such process.
    public static func owner(of pid: Int32) -> UInt32? {
        guard pid > 0 else { return nil }
        var info = stat()
        guard stat("/proc/\(pid)", &info) == 0 else { return nil }
        return info.st_uid
    }
}
