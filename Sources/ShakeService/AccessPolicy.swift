/// Who may do what, by user and group id. Root may always do everything.
///
/// Names in the configuration are resolved to ids when it is read; the policy itself only
/// compares numbers, against the peer's SO_PEERCRED and the user's groups.
public struct AccessPolicy: Sendable, Equatable {
    /// What a caller may ask for.
    public enum Action: String, Sendable, CaseIterable {
        /// Subscribe an app to intents (Subscribe).
        case subscribe
        /// Ask for an intent without a shake (RequestIntent).
        case request
        /// Watch shakes and outcomes (Monitor).
        case monitor
        /// Draw every app's prompts (RegisterAgent).
        case agent
        /// Hold the current context: have shakes go to one's apps. With logind, only the user of the
        /// active session on the seat may, whatever this rule says.
        case context
    }

    /// Who may do one action.
    public struct Rule: Sendable, Equatable {
        /// Anyone may.
        public var anyone: Bool
        /// These users may.
        public var users: Set<UInt32>
        /// Members of these groups may.
        public var groups: Set<UInt32>

        /// Creates a rule.
        public init(anyone: Bool = false, users: Set<UInt32> = [], groups: Set<UInt32> = []) {
            self.anyone = anyone
            self.users = users
            self.groups = groups
        }

        /// Everyone.
        public static let everyone = Rule(anyone: true)
        /// Root only.
        public static let rootOnly = Rule()
    }

    /// The rule for each action.
    public var rules: [Action: Rule]

    /// Creates a policy: by default anyone may subscribe, request, monitor and hold the context (a phone
    /// has one person), and only root may register an agent.
    public init(
        rules: [Action: Rule] = [
            .subscribe: .everyone, .request: .everyone, .monitor: .everyone, .agent: .rootOnly, .context: .everyone,
        ]
    ) {
        self.rules = rules
    }

    /// Whether a peer may do `action`.
    public func allows(_ action: Action, _ peer: Peer) -> Bool {
        if peer.uid == 0 { return true }
        guard let rule = rules[action] else { return false }
        return rule.anyone || rule.users.contains(peer.uid) || !rule.groups.isDisjoint(with: peer.groups)
    }
}
