import Logging
import ServiceLifecycle
import ShakeDetection

/// Reads the sample source only while some app can use a shake, and feeds the detector.
///
/// It follows ``UndoCoordinator/sensorDemand``: when an app with something to undo is focused,
/// it starts iterating the source (which opens the device); when none is, or the session is
/// locked or idle, it cancels the iteration (which closes it) and the journal says why. No app
/// in context means no reads and no wake-ups.
///
/// A source that fails is not given up while an app wants it. A sensor the source itself
/// retries (an ``SourceEvent/sensorGone(reason:)``, which for an accelerometer ends in
/// `retrying in N s`) is shown as failed in `GetStatus` until it returns; a stream that ends
/// with an error is started again after a delay that doubles from `retryDelay` to
/// `maximumRetryDelay` (starting over once a stream has read samples for that long), and `GetStatus` says
/// `SOURCE: failed: ERROR; retrying in N s`. A stream that simply ends (a trace replayed to
/// its end) is not restarted.
public struct SensorService: Service {
    let source: any SampleSource
    let makeDetector: @Sendable () -> any ShakeDetecting
    let coordinator: UndoCoordinator
    let logger: Logger
    let retryDelay: Duration
    let maximumRetryDelay: Duration

    /// Creates the service; a failed source is retried after `retryDelay`, doubling up to `maximumRetryDelay`.
    public init(
        source: any SampleSource, makeDetector: @escaping @Sendable () -> any ShakeDetecting,
        coordinator: UndoCoordinator, logger: Logger,
        retryDelay: Duration = .milliseconds(500), maximumRetryDelay: Duration = .seconds(30)
    ) {
        self.source = source
        self.makeDetector = makeDetector
        self.coordinator = coordinator
        self.logger = logger
        self.retryDelay = max(retryDelay, .milliseconds(1))
        self.maximumRetryDelay = max(maximumRetryDelay, self.retryDelay)
    }

    /// Follows the demand until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var reading: Task<Void, Never>?
            for await demand in coordinator.sensorDemand {
                if demand.wanted, reading == nil {
                    logger.info(
                        "sensor on: an app in context can use a shake", metadata: ["source": "\(source.description)"])
                    reading = Task { await read() }
                } else if case .off(let reason) = demand, let task = reading {
                    logger.info("sensor off: \(reason.rawValue)")
                    task.cancel()
                    await task.value
                    reading = nil
                }
            }
            reading?.cancel()
            await reading?.value
        }
    }

    /// Streams the source into the detector until cancelled or the source ends, restarting a failed
    /// stream: what ``run()`` does while an app wants the sensor, and what `shakectl bench-iio` measures.
    public func read() async {
        await coordinator.sensorChanged(active: true)
        var delay = retryDelay
        while !Task.isCancelled {
            let started = ContinuousClock.now
            let readBefore = coordinator.samplesRead.count
            do {
                try await stream()
                if !Task.isCancelled {
                    logger.notice("sample source ended", metadata: ["source": "\(source.description)"])
                }
                break
            } catch {
                if Task.isCancelled || error is CancellationError { break }
                // Start over only after a stream that read: one that failed before its first sample is the
                // same failure, however long a loaded machine took to say so.
                if coordinator.samplesRead.count != readBefore, ContinuousClock.now - started >= maximumRetryDelay {
                    delay = retryDelay
                }
                let wait = Self.seconds(delay)
                logger.error(
                    "sensor failed; retrying",
                    metadata: ["source": "\(source.description)", "error": "\(error)", "retry_in": "\(wait)"])
                await coordinator.sensorChanged(
                    description: "\(source.description): failed: \(error); retrying in \(wait)")
                await coordinator.sensorUnavailable(Self.unavailable("\(error)"))
                do { try await Task.sleep(for: delay) } catch { break }
                delay = min(delay * 2, maximumRetryDelay)
            }
        }
        await coordinator.sensorChanged(active: false)
    }

    /// One stream of the source, into a fresh detector that runs where the source reads (see
    /// ``DetectingConsumer``); throws what ends the stream.
    private func stream() async throws {
        try await stream(detector: makeDetector())
    }

    /// One stream into `detector`, its type known here (the existential opened once a stream, not at
    /// each sample), so that the consumer holds it in place; the daemon's own detector in a consumer
    /// compiled for it (``ShakeDetectorConsumer``).
    private func stream<Detector: ShakeDetecting>(detector: Detector) async throws {
        if let detector = detector as? ContextDetector<ShakeDetector> {
            try await stream(ShakeDetectorConsumer(detector: detector, samplesRead: coordinator.samplesRead))
        } else {
            try await stream(DetectingConsumer(detector: detector, samplesRead: coordinator.samplesRead))
        }
    }

    private func stream<Consumer: SampleConsumer>(_ consumer: Consumer) async throws
    where Consumer.Report == SensorReport {
        var lastReason: String?
        for try await report in source.events(consumedBy: consumer) {
            switch report {
            case .shake(let shake, let time):
                await coordinator.shakeRecognized(shake, time: time)
            case .shakeBegan(let shake, let time):
                await coordinator.shakeBegan(shake, time: time)
            case .shakeDropped(let shake, let reason, let time):
                await coordinator.shakeDropped(shake, reason: reason, time: time)
            case .nearMiss(let chain, let rule, let time):
                await coordinator.nearMiss(chain, rule: rule, time: time)
            case .sensorGone(let reason):
                // A sensor that keeps failing is logged while its retry delay grows, then only when the reason changes.
                if reason != lastReason { logger.warning("sensor failed", metadata: ["reason": "\(reason)"]) }
                lastReason = reason
                await coordinator.sensorChanged(description: "\(source.description): failed: \(reason)")
                await coordinator.sensorUnavailable(Self.unavailable(reason))
            case .sensorReturned(let name):
                if lastReason != nil { logger.notice("sensor back", metadata: ["sensor": "\(name)"]) }
                logger.info("sensor reading", metadata: ["sensor": "\(name)"])
                lastReason = nil
                await coordinator.sensorChanged(description: name)
                await coordinator.sensorUnavailable(nil)
            }
        }
    }

    /// What apps are told while the sensor fails: `shake to undo unavailable: the accelerometer is in use by
    /// iio-sensor-proxy (pid 812)` when another process holds it, else the reason as the source gave it.
    static func unavailable(_ reason: String) -> String {
        let holder = "the accelerometer is in use by "
        guard let start = reason.firstRange(of: holder) else { return "shake to undo unavailable: \(reason)" }
        let rest = reason[start.lowerBound...]
        return "shake to undo unavailable: " + String(rest.prefix { $0 != ":" })
    }

    /// `0.5 s`, `4 s`, `30 s`.
    static func seconds(_ duration: Duration) -> String { duration.secondsText }
}
