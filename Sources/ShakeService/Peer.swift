/// The process at the other end of a connection, as the kernel reports it when it connected:
/// `SO_PEERCRED` (pid, uid, primary group) and `SO_PEERGROUPS` (supplementary groups). Nothing is
/// looked up in the user database, so no lookup can block an event loop.
public struct Peer: Sendable, Hashable, CustomStringConvertible {
    /// Its process id at connect time.
    public let pid: Int32
    /// Its user id.
    public let uid: UInt32
    /// Its primary group and supplementary groups.
    public let groups: Set<UInt32>

    /// Creates a peer.
    public init(pid: Int32, uid: UInt32, groups: Set<UInt32>) {
        self.pid = pid
        self.uid = uid
        self.groups = groups
    }

    /// `uid 1000 pid 4242`.
    public var description: String { "uid \(uid) pid \(pid)" }
}

/// `struct ucred` from SO_PEERCRED, laid out the same.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// The buffer SO_PEERGROUPS fills: up to 256 group ids, sorted ascending by the kernel, the rest
/// left zero. A peer in more groups makes the call fail with ERANGE, and then only its primary
/// group counts.
struct PeerGroups: Sendable {
    static let capacity = 256
    var ids = InlineArray<256, UInt32>(repeating: 0)

    /// The groups in the buffer. The kernel sorts them ascending, so they end where the ids stop
    /// increasing; group 0 can't be told from the zero fill, so it counts only as a primary group.
    var groups: [UInt32] {
        var result: [UInt32] = []
        var previous: UInt32 = 0
        for index in ids.indices {
            let id = ids[index]
            guard id > previous else {
                if id == 0 && index == 0 { continue }
                break
            }
            result.append(id)
            previous = id
        }
        return result
    }
}
