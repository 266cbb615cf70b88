import ShakedConfiguration
import Synchronization

/// What the clients hold, per user and in total: open connections, and each user's call rate over
/// all its connections. Shared by every connection; an account lives only while its user has a
/// connection open, so the ledger is bounded by the connection limit.
final class ClientLedger: Sendable {
    private struct Account {
        var connections = 0
        var calls = CallRateLimiter()
    }

    private struct State {
        var total = 0
        var accounts: [UInt32: Account] = [:]
    }

    private let state = Mutex(State())

    /// Counts a new connection of `uid`; returns the name of the limit it would break instead
    /// (`connections` or `connections-per-user`), and then counts nothing.
    func open(uid: UInt32, limits: ShakedSettings.Limits) -> String? {
        state.withLock { state in
            guard state.total < limits.effectiveConnections else { return "connections" }
            var account = state.accounts[uid] ?? Account()
            guard account.connections < limits.connectionsPerUser else { return "connections-per-user" }
            account.connections += 1
            state.accounts[uid] = account
            state.total += 1
            return nil
        }
    }

    /// Forgets a closed connection of `uid`.
    func close(uid: UInt32) {
        state.withLock { state in
            guard var account = state.accounts[uid] else { return }
            account.connections -= 1
            state.total -= 1
            state.accounts[uid] = account.connections > 0 ? account : nil
        }
    }

    /// Takes one call from `uid`'s shared bucket; false when the user is over `rate` calls a second.
    func admitCall(uid: UInt32, rate: Int) -> Bool {
        state.withLock { state in
            guard var account = state.accounts[uid] else { return true }
            defer { state.accounts[uid] = account }
            return account.calls.admit(rate: rate)
        }
    }
}
