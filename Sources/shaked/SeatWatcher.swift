import Logging
import ServiceLifecycle
import ShakeService
import Systemd

/// Follows logind's seat, so that only the user of the active session can hold the current
/// context. Without logind it says so once and leaves the access policy to decide.
struct SeatWatcher: Service {
    let coordinator: UndoCoordinator
    let logger: Logger

    /// Tells the coordinator whose seat it is now, before the socket is served, so no client can
    /// take the context in the moment before the watcher's first report.
    static func prime(_ coordinator: UndoCoordinator) async {
        switch Self.seatUser() {
        case .noLogind: await coordinator.seatChanged(.anyone)
        case .active(let uid): await coordinator.seatChanged(.activeUser(uid))
        }
    }

    /// The seat's user now: logind's, or in debug builds SHAKED_TEST_SEAT_UID's (the edge tests
    /// replace, since no test can log a user in on seat0).
    static func seatUser() -> SeatUser {
        if let user = testSeatUser { return .active(user) }
        return Logind.seatUser()
    }

    static var testSeatUser: UInt32? {
        #if DEBUG
            return ProcessEnvironment.get("SHAKED_TEST_SEAT_UID").flatMap { UInt32($0) }
        #else
            return nil
        #endif
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            if let user = Self.testSeatUser {
                await coordinator.seatChanged(.activeUser(user))
                return
            }
            for await user in Logind.seatUsers() {
                switch user {
                case .noLogind:
                    logger.info("logind is not running: [Access] ContextUsers= and ContextGroups= decide who gets shakes")
                    await coordinator.seatChanged(.anyone)
                case .active(let uid):
                    await coordinator.seatChanged(.activeUser(uid))
                }
            }
        }
    }
}
