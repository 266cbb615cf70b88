import Logging
import ShakeDetection
import Synchronization
import Testing

@testable import ShakeService

/// A source whose first `failures` streams end with an error; later ones deliver a sample and stay open.
struct FlakySource: SampleSource {
    final class Attempts: Sendable {
        let count = Atomic<Int>(0)
    }

    struct Failure: Error, CustomStringConvertible {
        var attempt: Int
        var description: String { "EIO on attempt \(attempt)" }
    }

    let failures: Int
    let attempts = Attempts()

    var description: String { "flaky source" }

    func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    > {
        let attempt = attempts.count.add(1, ordering: .relaxed).oldValue
        let failures = self.failures
        return consumer.reports { deliver in
            guard attempt >= failures else { throw Failure(attempt: attempt) }
            deliver(.sensorReturned("flaky sensor"))
            deliver(.samples([Sample(timestamp: 1, x: 0, y: 0, z: 9.8)]))
            // Open until the reading stops.
            try await Task.sleep(for: .seconds(3600))
        }
    }
}

/// A source whose streams follow a script, one step an attempt (the last repeated).
struct ScriptedSource: SampleSource {
    enum Step: Sendable {
        /// Fails after this long, having read nothing.
        case failAfter(Duration)
        /// Reads a sample, stays open this long, then fails.
        case readThenFail(Duration)
        /// Reads a sample and stays open.
        case read
    }

    let script: [Step]
    let attempts = FlakySource.Attempts()

    var description: String { "flaky source" }

    func events<Consumer: SampleConsumer>(consumedBy consumer: Consumer) -> AsyncThrowingStream<
        Consumer.Report, any Error
    > {
        let attempt = attempts.count.add(1, ordering: .relaxed).oldValue
        let step = script[min(attempt, script.count - 1)]
        return consumer.reports { deliver in
            switch step {
            case .failAfter(let time):
                try await Task.sleep(for: time)
                throw FlakySource.Failure(attempt: attempt)
            case .readThenFail(let time):
                deliver(.samples([Sample(timestamp: 1, x: 0, y: 0, z: 9.8)]))
                try await Task.sleep(for: time)
                throw FlakySource.Failure(attempt: attempt)
            case .read:
                deliver(.samples([Sample(timestamp: 1, x: 0, y: 0, z: 9.8)]))
                try await Task.sleep(for: .seconds(3600))
            }
        }
    }
}

@Suite struct SensorServiceTests {
    /// A stream that fails is started again after 0.1, 0.2, 0.2 s (doubling, capped), each
    /// failure shown in the status, until it reads; a stream that ends is not restarted.
    @Test(.timeLimit(.minutes(10))) func aFailingSourceIsRetriedAndItsStateShown() async throws {
        let coordinator = UndoCoordinator(
            settings: .init(), sensor: .init(description: "flaky source", detector: "test"),
            logger: Logger(label: "test"))
        let source = FlakySource(failures: 3)
        let service = SensorService(
            source: source, makeDetector: { ShakeDetector() }, coordinator: coordinator, logger: Logger(label: "test"),
            retryDelay: .milliseconds(100), maximumRetryDelay: .milliseconds(200))
        let reading = Task { await service.read() }
        var seen: [String] = []
        // No wall-clock deadline: other suites' synchronous work (the detector's long synthetic
        // tables, processes waited for) can hold both cooperative threads for minutes on a 2-core
        // machine. The loop ends once a sample is read and the sensor's name is shown; the time limit
        // bounds it. Samples are counted on the reading side as they arrive, and the name reaches
        // the coordinator through the report stream, so the count can lead the name for a moment.
        while true {
            let status = await coordinator.status()
            if seen.last != status.sensor { seen.append(status.sensor) }
            if status.samplesRead > 0, status.sensor == "flaky sensor" { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(
            seen == [
                "flaky source", "flaky source: failed: EIO on attempt 0; retrying in 0.1 s",
                "flaky source: failed: EIO on attempt 1; retrying in 0.2 s",
                "flaky source: failed: EIO on attempt 2; retrying in 0.2 s", "flaky sensor",
            ])
        #expect(await coordinator.status().sensorActive)
        reading.cancel()
        await reading.value
        #expect(await coordinator.status().sensorActive == false)
        #expect(source.attempts.count.load(ordering: .relaxed) == 4)
    }

    /// The retry delay starts over after a stream that read samples for `maximumRetryDelay`, and
    /// only then: a stream that failed before its first sample keeps the delay doubling, however
    /// long it took to fail (on a loaded machine, longer than `maximumRetryDelay`).
    @Test(.timeLimit(.minutes(10))) func theDelayStartsOverOnlyAfterAStreamThatRead() async throws {
        let coordinator = UndoCoordinator(
            settings: .init(), sensor: .init(description: "flaky source", detector: "test"),
            logger: Logger(label: "test"))
        // Attempts 0 and 1 fail slowly (longer than the longest delay) before reading; 2 reads for
        // 0.7 s, then fails; 3 fails at once; 4 reads and stays open.
        let source = ScriptedSource(script: [.failAfter(.milliseconds(700)), .failAfter(.milliseconds(700)),
                                             .readThenFail(.milliseconds(700)), .failAfter(.zero), .read])
        let service = SensorService(
            source: source, makeDetector: { ShakeDetector() }, coordinator: coordinator, logger: Logger(label: "test"),
            retryDelay: .milliseconds(300), maximumRetryDelay: .milliseconds(600))
        let reading = Task { await service.read() }
        var failures: [String] = []
        while source.attempts.count.load(ordering: .relaxed) < 5 || failures.count < 4 {
            let sensor = await coordinator.status().sensor
            if sensor.contains("failed"), failures.last != sensor { failures.append(sensor) }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(
            failures == [
                "flaky source: failed: EIO on attempt 0; retrying in 0.3 s",
                "flaky source: failed: EIO on attempt 1; retrying in 0.6 s",
                "flaky source: failed: EIO on attempt 2; retrying in 0.3 s",
                "flaky source: failed: EIO on attempt 3; retrying in 0.6 s",
            ])
        reading.cancel()
        await reading.value
    }

    /// Retry delays as status shows them.
    @Test(arguments: [
        (Duration.milliseconds(500), "0.5 s"), (.seconds(4), "4 s"), (.seconds(30), "30 s"),
        (.milliseconds(1990), "2 s"),
    ])
    func retryDelayText(delay: Duration, text: String) {
        #expect(SensorService.seconds(delay) == text)
    }
}
