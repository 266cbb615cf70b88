import Logging
import ServiceLifecycle
import ShakeService
import Systemd

/// Follows logind's seat, so that only the user of the active session can hold the current
/// context. Without logind it says so once and leaves the access policy to decide.
struct SeatWatcher: Service {
    let coordinator: UndoCoordinator
    let logger: Logger

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
