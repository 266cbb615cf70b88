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
/// Each ping first gets an answer, each within ``probeTimeout``, from the coordinator (the actor all
/// calls go through), from every SwiftNIO event loop and from the sensor's reading thread; if any is
/// stuck, no ping is sent, the log names it, and systemd restarts the daemon.
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let coordinator: UndoCoordinator
    let listening: AsyncStream<Void>
    let logger: Logger
    /// Whether the sensor's reading thread answers within the given time.
    let sensorResponds: @Sendable (Duration) async -> Bool
    let reload: @Sendable () throws(ConfigurationFileError) -> ShakedSettings
    let apply: @Sendable (ShakedSettings) async -> Void
    let running: ShakedSettings

    /// How long each part may take to answer a watchdog probe.
    static let probeTimeout: Duration = .seconds(2)

    func run() async throws {
        // READY=1 only once the socket is served: never after a failed bind, which ends the group
        // (and this loop) without `listening` ever yielding.
        var listens = false
        for await _ in listening {
            listens = true
            break
        }
        guard listens, !Task.isCancelled else { return }
        let initial = statusLine(await coordinator.status())
        send { try notifier.ready(status: initial) }
        logger.info("ready", metadata: ["watchdog": "\(notifier.watchdogInterval.map { "\($0)" } ?? "off")"])
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await pingLoop() }
                group.addTask { await reloadLoop() }
                #if DEBUG
                    if let seconds = ProcessEnvironment.get("SHAKED_TEST_STALL_AFTER").flatMap(Double.init) {
                        group.addTask { await stallForTesting(after: seconds) }
                    }
                #endif
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
            if let stuck = await stuckPart() {
                logger.critical(
                    "\(stuck) did not answer within \(Self.probeTimeout); no more watchdog pings, systemd will restart shaked")
                return
            }
            let status = await coordinator.status()
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

    /// The first part of the daemon that doesn't answer within ``probeTimeout``: the coordinator,
    /// an event loop, or the sensor thread; nil when all answer.
    private func stuckPart() async -> String? {
        let coordinator = self.coordinator
        guard await withTimeout(Self.probeTimeout, { await coordinator.respond() }) == true else {
            return "the coordinator"
        }
        if let index = await VarlinkServer.stuckEventLoop(timeout: Self.probeTimeout) { return "event loop \(index)" }
        guard await sensorResponds(Self.probeTimeout) else { return "the sensor thread" }
        return nil
    }

    #if DEBUG
        /// Blocks the coordinator for good after `seconds`, so the watchdog test sees pings stop.
        /// Only in debug builds, and only when SHAKED_TEST_STALL_AFTER is set.
        private func stallForTesting(after seconds: Double) async {
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            guard !Task.isCancelled else { return }
            logger.warning("SHAKED_TEST_STALL_AFTER: stalling the coordinator on purpose")
            await coordinator.stallForTesting()
        }
    #endif

    /// Settings a reload can't apply to a running daemon.
    static func restartOnlyChanges(from old: ShakedSettings, to new: ShakedSettings) -> [String] {
        var keys: [String] = []
        if old.socket != new.socket { keys.append("[Socket]") }
        if old.sensor != new.sensor { keys.append("[Sensor]") }
        if old.log != new.log { keys.append("Log.Level") }
        return keys
    }

    /// `Reading accelerometer lis3dh …; 2 subscribers; last shake 12 s ago`, or `Sensor off (the session is
    /// locked); …`, for `systemctl status`.
    func statusLine(_ status: ServiceStatus) -> String {
        let sensor =
            !status.sensorActive
            ? "Sensor off (\(status.sensorOff ?? "not reading"))"
            : status.sensor.contains(": failed: ") ? "Sensor \(status.sensor)" : "Reading \(status.sensor)"
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
