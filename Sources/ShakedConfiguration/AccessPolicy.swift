#if canImport(Glibc)
    import Glibc
#endif

/// Something a client may be allowed to do; each is one pair of lists in `[Access]`.
public enum AccessAction: String, Sendable, CaseIterable {
    /// Subscribe an app and receive undo intents (`Subscribe` and the calls that follow it).
    case subscribe
    /// Ask for an intent without a shake (`RequestIntent`).
    case request
    /// Stream shakes and intent outcomes (`Monitor`).
    case monitor
    /// Register a prompt agent that draws every prompt and answers it (`RegisterAgent`).
    case agent
    /// Hold the current context, so shakes go to one's apps. With logind, only the user of the active
    /// session on the seat may, whatever the rule says; without logind (a container) the rule decides.
    case context
}

/// Who may do one action: user names and group names (or numeric ids); `"*"` in either list means anyone.
public struct AccessRule: Sendable, Equatable {
    /// Users allowed, by name or number (`<Action>Users`).
    public var users: [String]
    /// Groups whose members are allowed, by name or number (`<Action>Groups`).
    public var groups: [String]

    /// Creates a rule; with both lists empty only root is allowed.
    public init(users: [String] = [], groups: [String] = []) {
        self.users = users
        self.groups = groups
    }

    /// Whether the rule lets anyone in.
    public var isOpen: Bool { users.contains("*") || groups.contains("*") }
}

/// `[Access]`: who may do what. Root (uid 0) is always allowed.
///
/// Names stay names here. ``resolved()`` turns them into ids through the system's user and group
/// database (`getpwnam_r`, `getgrnam_r`, so NSS and systemd-userdb apply); do that at start and on each
/// reload, then check callers with ``ResolvedAccessPolicy/allows(_:uid:gids:)``. The daemon learns a
/// caller's uid and groups from the socket (`SO_PEERCRED`, `SO_PEERGROUPS`).
public struct AccessPolicy: Sendable, Equatable {
    /// Who may subscribe apps. Default: anyone, since every app should be able to offer undo.
    public var subscribe: AccessRule
    /// Who may request intents without a shake. Default: the `input` group, whose members can already
    /// read and inject input events.
    public var request: AccessRule
    /// Who may monitor shakes and outcomes. Default: the `input` group.
    public var monitor: AccessRule
    /// Who may register a prompt agent. Default: the `input` group (the phone shell's user).
    public var agent: AccessRule
    /// Who may hold the current context. Default: anyone (logind then narrows it to the seat's user).
    public var context: AccessRule

    /// Creates a policy with the documented defaults.
    public init(
        subscribe: AccessRule = AccessRule(users: ["*"]), request: AccessRule = AccessRule(groups: ["input"]),
        monitor: AccessRule = AccessRule(groups: ["input"]), agent: AccessRule = AccessRule(groups: ["input"]),
        context: AccessRule = AccessRule(users: ["*"])
    ) {
        self.subscribe = subscribe
        self.request = request
        self.monitor = monitor
        self.agent = agent
        self.context = context
    }

    /// The rule for an action.
    public subscript(action: AccessAction) -> AccessRule {
        get { self[keyPath: Self.rule(action)] }
        set { self[keyPath: Self.rule(action)] = newValue }
    }

    private static func rule(_ action: AccessAction) -> WritableKeyPath<AccessPolicy, AccessRule> {
        switch action {
        case .subscribe: \.subscribe
        case .request: \.request
        case .monitor: \.monitor
        case .agent: \.agent
        case .context: \.context
        }
    }

    /// The policy with every name looked up in the system's user and group database now.
    public func resolved() -> ResolvedAccessPolicy {
        var rules: [AccessAction: ResolvedAccessPolicy.Rule] = [:]
        var unknown: [String] = []
        for action in AccessAction.allCases {
            let rule = self[action]
            var resolved = ResolvedAccessPolicy.Rule(anyone: rule.isOpen, uids: [], gids: [])
            for name in rule.users where name != "*" {
                if let uid = AccountDatabase.userID(name) {
                    resolved.uids.insert(uid)
                } else {
                    unknown.append("user \(name)")
                }
            }
            for name in rule.groups where name != "*" {
                if let gid = AccountDatabase.groupID(name) {
                    resolved.gids.insert(gid)
                } else {
                    unknown.append("group \(name)")
                }
            }
            rules[action] = resolved
        }
        var seen = Set<String>()
        return ResolvedAccessPolicy(rules: rules, unknownNames: unknown.filter { seen.insert($0).inserted })
    }

    /// Whether a caller may do an action, looking names up now; prefer ``resolved()`` once per (re)load.
    public func allows(_ action: AccessAction, uid: UInt32, gids: [UInt32]) -> Bool {
        resolved().allows(action, uid: uid, gids: gids)
    }
}

/// An ``AccessPolicy`` with names turned into ids: checks that need no lookups.
public struct ResolvedAccessPolicy: Sendable, Equatable {
    /// Who may do one action, as ids.
    public struct Rule: Sendable, Equatable {
        /// `"*"` was given.
        public var anyone: Bool
        /// The users allowed.
        public var uids: Set<UInt32>
        /// The groups whose members are allowed.
        public var gids: Set<UInt32>
    }

    /// The rule for each action.
    public var rules: [AccessAction: Rule]
    /// Names that matched no user or group (`"user alice"`, `"group input"`), for a warning in the log.
    public var unknownNames: [String]

    /// Whether a caller with this uid and these groups (primary and supplementary) may do an action.
    /// Root always may.
    public func allows(_ action: AccessAction, uid: UInt32, gids: [UInt32]) -> Bool {
        if uid == 0 { return true }
        guard let rule = rules[action] else { return false }
        return rule.anyone || rule.uids.contains(uid) || gids.contains(where: rule.gids.contains)
    }
}

/// Lookups in the system's user and group database; numeric names are taken as ids.
enum AccountDatabase {
    /// The uid of a user name or number, nil when there is no such user.
    static func userID(_ name: String) -> UInt32? {
        UInt32(name)
            ?? lookup { buffer, size in
                var entry = passwd()
                var result: UnsafeMutablePointer<passwd>?
                return (getpwnam_r(name, &entry, buffer, size, &result), result == nil ? nil : entry.pw_uid)
            }
    }

    /// The gid of a group name or number, nil when there is no such group.
    static func groupID(_ name: String) -> UInt32? {
        UInt32(name)
            ?? lookup { buffer, size in
                var entry = group()
                var result: UnsafeMutablePointer<group>?
                return (getgrnam_r(name, &entry, buffer, size, &result), result == nil ? nil : entry.gr_gid)
            }
    }

    /// Calls a `get*_r` function with a buffer that grows while it reports ERANGE.
    private static func lookup(_ call: (UnsafeMutablePointer<CChar>, Int) -> (Int32, UInt32?)) -> UInt32? {
        var size = 1024
        while size <= 1 << 20 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let (status, id) = call(buffer, size)
            guard status == ERANGE else { return status == 0 ? id : nil }
            size *= 4
        }
        return nil
    }
}
