import Logging
import ServiceLifecycle
import ShakeService
import ShakedConfiguration
import Systemd
import UndoProtocol
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

/// What systemd hears from the daemon: READY=1 once the socket is served and the sensor state is
/// known, STATUS= lines, WATCHDOG=1 pings while the daemon's loops answer, RELOADING=1 around a
/// SIGHUP reload, and STOPPING=1 when shutdown begins.
///
/// Each ping first gets an answer from the coordinator (the actor all calls go through) and from
/// every SwiftNIO event loop; if either is stuck, no ping is sent and systemd restarts the daemon.
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let coordinator: UndoCoordinator
    let listening: AsyncStream<Void>
    let logger: Logger
    let reload: @Sendable () throws(ConfigurationFileError) -> ShakedSettings
    let apply: @Sendable (ShakedSettings) async -> Void
    let running: ShakedSettings

    func run() async throws {
        for await _ in listening { break }
        let initial = statusLine(await coordinator.status())
        send { try notifier.ready(status: initial) }
        logger.info("ready", metadata: ["watchdog": "\(notifier.watchdogInterval.map { "\($0)" } ?? "off")"])
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await pingLoop() }
                group.addTask { await reloadLoop() }
                if let seconds = ProcessEnvironment.get("SHAKED_TEST_STALL_AFTER").flatMap(Double.init) {
                    group.addTask { await stallForTesting(after: seconds) }
                }
            }
        }
        send { try notifier.stopping() }
    }

    /// Pings the watchdog (and refreshes STATUS=) every half watchdog interval, or every 10 s for
    /// the status alone when there is no watchdog; nothing at all outside systemd.
    private func pingLoop() async {
        guard notifier.isEnabled else { return }
        let interval = notifier.watchdogPingInterval ?? .seconds(10)
        while !Task.isCancelled {
            let status = await coordinator.status()
            guard await VarlinkServer.eventLoopsRespond() else {
                logger.critical("an event loop did not answer; no watchdog ping")
                return
            }
            send {
                if notifier.watchdogInterval != nil { try notifier.watchdog() }
                try notifier.status(statusLine(status))
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Reloads the configuration on SIGHUP; a bad file keeps the settings in force.
    private func reloadLoop() async {
        var current = running
        for await _ in await UnixSignalsSequence(trapping: .sighup) {
            send { try notifier.reloading() }
            do {
                let new = try reload()
                for key in Self.restartOnlyChanges(from: current, to: new) {
                    logger.warning("\(key) changed; it applies when shaked restarts")
                }
                await apply(new)
                current = new
                logger.notice("configuration reloaded")
            } catch {
                logger.error("configuration not reloaded, the settings in force stay: \(error)")
            }
            let line = statusLine(await coordinator.status())
            send { try notifier.ready(status: line) }
        }
    }

    /// Blocks the coordinator for good after `seconds`, so the watchdog test sees pings stop.
    /// Only when SHAKED_TEST_STALL_AFTER is set.
    private func stallForTesting(after seconds: Double) async {
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        guard !Task.isCancelled else { return }
        logger.warning("SHAKED_TEST_STALL_AFTER: stalling the coordinator on purpose")
        await coordinator.stallForTesting()
    }

    /// Settings a reload can't apply to a running daemon.
    static func restartOnlyChanges(from old: ShakedSettings, to new: ShakedSettings) -> [String] {
        var keys: [String] = []
        if old.socket != new.socket { keys.append("[socket]") }
        if old.sensor != new.sensor { keys.append("[sensor]") }
        if old.log != new.log { keys.append("log.level") }
        return keys
    }

    /// `Reading accelerometer lis3dh …; 2 subscribers; last shake 12 s ago`, for `systemctl status`.
    func statusLine(_ status: ServiceStatus) -> String {
        let sensor = status.sensorActive ? "Reading \(status.sensor)" : "Sensor idle (no app can undo)"
        let subscribers = status.subscribers == 1 ? "1 subscriber" : "\(status.subscribers) subscribers"
        let shake = status.lastShakeAgo.map { "last shake \(Int($0.rounded())) s ago" } ?? "no shake yet"
        return "\(sensor); \(subscribers); \(shake)"
    }

    private func send(_ notification: () throws -> Void) {
        do {
            try notification()
        } catch {
            logger.warning("systemd notification failed: \(error)")
        }
    }
}
