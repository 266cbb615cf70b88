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
        switch Logind.seatUser() {
        case .noLogind: await coordinator.seatChanged(.anyone)
        case .active(let uid): await coordinator.seatChanged(.activeUser(uid))
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await user in Logind.seatUsers() {
                switch user {
                case .noLogind:
                    logger.info("logind is not running: [access] context-users and -groups decide who gets shakes")
                    await coordinator.seatChanged(.anyone)
                case .active(let uid):
                    await coordinator.seatChanged(.activeUser(uid))
                }
            }
        }
    }
}
