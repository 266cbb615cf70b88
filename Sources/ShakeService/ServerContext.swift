import ShakedConfiguration
import Synchronization
import UndoProtocol

/// What every connection shares: the served interfaces, the access policy and the limits (both
/// replaced on reload), the ledger of connections and call rates, and the demo source's shake, when
/// the daemon runs `--demo`.
public final class ServerContext: Sendable {
    /// `GetInfo`'s reply.
    let info: GetInfoReply
    /// Interface definitions by name.
    let interfaces: [String: String]
    /// Plays a synthetic shake; nil unless the daemon runs `--demo`.
    let demoShake: (@Sendable () async -> Void)?
    /// Where users' preferences are written; nil keeps them in memory only.
    let preferenceFile: PreferenceFile?
    /// Whether a process belongs to a peer's user and login session, for `StandIn`: logind's view in
    /// the daemon (``SessionCheck``), a table in tests.
    let sameSession: @Sendable (Peer, Int32) -> Bool
    /// Connections and call rates per user.
    let ledger = ClientLedger()
    private let policy: Mutex<ResolvedAccessPolicy>
    private let currentLimits: Mutex<ShakedSettings.Limits>

    /// Creates the context; `version` goes into GetInfo.
    public init(
        version: String, access: ResolvedAccessPolicy, limits: ShakedSettings.Limits = .init(),
        demoShake: (@Sendable () async -> Void)? = nil, preferenceFile: PreferenceFile? = nil,
        sameSession: @escaping @Sendable (Peer, Int32) -> Bool = SessionCheck.sameUser
    ) {
        self.preferenceFile = preferenceFile
        self.sameSession = sameSession
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
        self.currentLimits = Mutex(limits)
    }

    /// The access policy in force.
    public func access() -> ResolvedAccessPolicy { policy.withLock { $0 } }

    /// The limits in force.
    public func limits() -> ShakedSettings.Limits { currentLimits.withLock { $0 } }

    /// Replaces the access policy and the limits (after a reload); later connections and calls are
    /// checked against them. Connections and subscriptions already over a lowered limit stay.
    public func update(access: ResolvedAccessPolicy, limits: ShakedSettings.Limits) {
        policy.withLock { $0 = access }
        currentLimits.withLock { $0 = limits }
    }
}
