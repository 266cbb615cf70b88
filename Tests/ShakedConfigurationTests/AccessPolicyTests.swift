import Foundation
import ShakedConfiguration
import Testing

/// Who may subscribe, request, monitor and register an agent, with names looked up in the real database.
@Suite struct AccessPolicyTests {
    /// The gid of a group in this machine's /etc/group, found with getent (a separate implementation).
    static func gid(_ name: String) -> UInt32? {
        guard
            let line = try? String(contentsOfFile: "/etc/group", encoding: .utf8).split(separator: "\n")
                .first(where: { $0.hasPrefix("\(name):") })
        else { return nil }
        return UInt32(line.split(separator: ":", omittingEmptySubsequences: false)[2])
    }

    @Test("the defaults: anyone subscribes and holds the context; input members request, monitor and register agents")
    func defaults() throws {
        let policy = AccessPolicy().resolved()
        let input = try #require(Self.gid("input"), "this machine has an input group")
        for action in AccessAction.allCases {
            #expect(policy.allows(action, uid: 0, gids: []), "root: \(action)")
            #expect(policy.allows(action, uid: 1000, gids: [1000, input]), "input member: \(action)")
            #expect(
                policy.allows(action, uid: 1000, gids: [1000]) == [.subscribe, .context].contains(action),
                "plain user: \(action)")
        }
        #expect(policy.unknownNames.isEmpty)
    }

    /// A rule, a caller, and whether the caller may monitor.
    static let cases: [(AccessRule, UInt32, [UInt32], Bool)] = [
        (AccessRule(), 1000, [1000], false),
        (AccessRule(), 0, [0], true),
        (AccessRule(users: ["*"]), 4321, [], true),
        (AccessRule(groups: ["*"]), 4321, [], true),
        (AccessRule(users: ["daemon"]), 1, [1], true),
        (AccessRule(users: ["daemon"]), 2, [1], false),
        (AccessRule(users: ["1234"]), 1234, [], true),
        (AccessRule(groups: ["daemon"]), 500, [500, 1], true),
        (AccessRule(groups: ["daemon"]), 1, [2], false),
        (AccessRule(groups: ["77"]), 500, [77], true),
        (AccessRule(users: ["no-such-user-shaked"], groups: ["no-such-group-shaked"]), 65534, [65534], false),
    ]

    @Test(arguments: cases)
    func rule(rule: AccessRule, uid: UInt32, gids: [UInt32], allowed: Bool) {
        var policy = AccessPolicy()
        policy.monitor = rule
        #expect(policy.resolved().allows(.monitor, uid: uid, gids: gids) == allowed)
        #expect(policy.allows(.monitor, uid: uid, gids: gids) == allowed)
    }

    @Test("names that match nobody are listed for a warning, once each")
    func unknownNames() {
        let policy = AccessPolicy(
            subscribe: AccessRule(users: ["*", "no-such-user-shaked"]),
            request: AccessRule(users: ["root"], groups: ["no-such-group-shaked"]),
            monitor: AccessRule(groups: ["no-such-group-shaked"]))
        #expect(policy.resolved().unknownNames == ["user no-such-user-shaked", "group no-such-group-shaked"])
    }

    @Test("[Access] lists from a file replace the defaults")
    func fromFile() throws {
        let settings = try ShakedSettings.parse(
            "[Access]\nSubscribeUsers=\nSubscribeGroups=daemon\nAgentUsers=daemon\n")
        let policy = settings.access.resolved()
        #expect(!policy.allows(.subscribe, uid: 1000, gids: [1000]))
        #expect(policy.allows(.subscribe, uid: 1000, gids: [1000, 1]))
        #expect(policy.allows(.agent, uid: 1, gids: [1]))
        #expect(settings.access.agent.groups == ["input"])
    }
}
