import Logging
import MonotonicClock
import ServiceLifecycle
import ShakeDetection

/// Reads the sample source only while some app can use a shake, and feeds the detector.
///
/// It follows ``UndoCoordinator/sensorDemand``: when an app with something to undo is focused,
/// it starts iterating the source (which opens the device); when none is, it cancels the
/// iteration (which closes it). No app in context means no reads and no wake-ups.
public struct SensorService: Service {
    let source: any SampleSource
    let makeDetector: @Sendable () -> any ShakeDetecting
    let coordinator: UndoCoordinator
    let logger: Logger

    /// Creates the service.
    public init(
        source: any SampleSource, makeDetector: @escaping @Sendable () -> any ShakeDetecting,
        coordinator: UndoCoordinator, logger: Logger
    ) {
        self.source = source
        self.makeDetector = makeDetector
        self.coordinator = coordinator
        self.logger = logger
    }

    /// Follows the demand until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var reading: Task<Void, Never>?
            for await wanted in coordinator.sensorDemand {
                if wanted, reading == nil {
                    logger.info("sensor on: an app in context can use a shake", metadata: ["source": "\(source)"])
                    reading = Task { await read() }
                } else if !wanted, let task = reading {
                    logger.info("sensor off: no app in context")
                    task.cancel()
                    await task.value
                    reading = nil
                }
            }
            reading?.cancel()
            await reading?.value
        }
    }

    /// Streams the source into the detector until cancelled or the source ends.
    private func read() async {
        await coordinator.sensorChanged(active: true)
        var detector = makeDetector()
        do {
            for try await event in source.events() {
                switch event {
                case .samples(let samples):
                    await coordinator.samplesRead(samples.count)
                    for sample in samples {
                        if let shake = detector.process(sample) {
                            await coordinator.shakeRecognized(shake, time: Double(monotonicNanoseconds()) / 1e9)
                        }
                    }
                case .sensorGone(let reason):
                    logger.warning("sensor gone", metadata: ["reason": "\(reason)"])
                    await coordinator.sensorChanged(description: "\(source) (gone: \(reason))")
                    detector.reset()
                case .sensorReturned(let name):
                    logger.info("sensor reading", metadata: ["sensor": "\(name)"])
                    await coordinator.sensorChanged(description: name)
                }
            }
            if !Task.isCancelled { logger.notice("sample source ended", metadata: ["source": "\(source)"]) }
        } catch is CancellationError {
        } catch {
            logger.error("sensor failed", metadata: ["source": "\(source)", "error": "\(error)"])
            await coordinator.sensorChanged(description: "\(source) (failed: \(error))")
        }
        await coordinator.sensorChanged(active: false)
    }
}
