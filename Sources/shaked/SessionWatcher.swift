import Logging
import ServiceLifecycle
import ShakeService
import Systemd

/// Follows logind's hints about the seat's active session (`LockedHint`, `IdleHint`, over D-Bus), so
/// that while it is locked or idle the sensor is off and shakes count for nothing. Without logind on
/// a system bus it says so once, and the apps alone decide, as without this watcher.
struct SessionWatcher: Service {
    let coordinator: UndoCoordinator
    let logger: Logger

    /// What the intent machine needs of the hints: whether a person is in front of the session.
    static func presence(_ hints: SessionHints) -> SessionPresence {
        switch hints {
        case .unreachable, .noActiveSession: .unknown
        case .active(_, let locked, let idle): SessionPresence(locked: locked, idle: idle)
        }
    }

    /// Said once when logind can't be asked (no system bus, or no logind on it).
    static let unreachableMessage =
        "logind can't be asked whether the session is locked or idle: the apps in context alone decide when to read"

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var unreachable = false
            for await hints in Logind.sessionHints() {
                if case .unreachable(let why) = hints {
                    if !unreachable {
                        logger.info(
                            "\(Self.unreachableMessage)", metadata: ["reason": "\(why)"])
                    }
                    unreachable = true
                } else {
                    if unreachable {
                        logger.info("logind answers on the system bus", metadata: ["session": "\(hints)"])
                    }
                    unreachable = false
                    logger.debug("session hints", metadata: ["session": "\(hints)"])
                }
                await coordinator.sessionChanged(Self.presence(hints))
            }
        }
    }
}
