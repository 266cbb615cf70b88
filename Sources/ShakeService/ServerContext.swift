import Synchronization
import UndoProtocol

/// What every connection shares: the served interfaces, the access policy (replaced on
/// reload), and the demo source's shake, when the daemon runs `--demo`.
public final class ServerContext: Sendable {
    /// `GetInfo`'s reply.
    let info: GetInfoReply
    /// Interface definitions by name.
    let interfaces: [String: String]
    /// Plays a synthetic shake; nil unless the daemon runs `--demo`.
    let demoShake: (@Sendable () -> Void)?
    private let policy: Mutex<AccessPolicy>

    /// Creates the context; `version` goes into GetInfo.
    public init(version: String, access: AccessPolicy, demoShake: (@Sendable () -> Void)? = nil) {
        var interfaces = [
            VarlinkServiceInterface.name: VarlinkServiceInterface.description,
            UndoInterface.name: InterfaceDescriptions.undo,
        ]
        if demoShake != nil { interfaces[UndoInterface.demoName] = InterfaceDescriptions.demo }
        self.interfaces = interfaces
        self.info = GetInfoReply(
            vendor: "shaked", product: "shaked", version: version, url: "https://github.com/shaked/shaked",
            interfaces: interfaces.keys.sorted())
        self.demoShake = demoShake
        self.policy = Mutex(access)
    }

    /// The access policy in force.
    public func access() -> AccessPolicy { policy.withLock { $0 } }

    /// Replaces the access policy (after a reload); later calls are checked against it.
    public func update(access: AccessPolicy) { policy.withLock { $0 = access } }
}
