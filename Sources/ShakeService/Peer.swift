#if canImport(Glibc)
    import Glibc
#endif

/// The process at the other end of a connection, as the kernel reports it (SO_PEERCRED).
public struct Peer: Sendable, Hashable, CustomStringConvertible {
    /// Its process id at connect time.
    public let pid: Int32
    /// Its user id.
    public let uid: UInt32
    /// Its primary group and the user's supplementary groups (`getgrouplist(3)`, as D-Bus does).
    public let groups: Set<UInt32>

    /// Creates a peer.
    public init(pid: Int32, uid: UInt32, groups: Set<UInt32>) {
        self.pid = pid
        self.uid = uid
        self.groups = groups
    }

    /// `uid 1000 pid 4242`.
    public var description: String { "uid \(uid) pid \(pid)" }

    /// The peer of a connected Unix socket, with the groups of its user.
    static func of(uid: UInt32, gid: UInt32, pid: Int32) -> Peer {
        Peer(pid: pid, uid: uid, groups: groupsOfUser(uid: uid, primary: gid))
    }

    /// The primary group plus the groups the user belongs to; just the primary when the user is unknown.
    static func groupsOfUser(uid: UInt32, primary: UInt32) -> Set<UInt32> {
        var result: Set<UInt32> = [primary]
        var pwd = passwd()
        var pointer: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &pwd, &buffer, buffer.count, &pointer) == 0, pointer != nil else { return result }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(pwd.pw_name, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(pwd.pw_name, primary, &groups, &count)
        }
        result.formUnion(groups.prefix(Int(max(0, count))))
        return result
    }
}
