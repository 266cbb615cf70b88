import ArgumentParser
import Dispatch
import IIOSensors
import ShakeDetection

#if canImport(Glibc)
    import Glibc
#endif

extension AccelerometerConfiguration.ModePreference: ExpressibleByArgument {}

/// The options that choose and configure a live accelerometer, shared by `record`, `detect --live` and `bench-iio`.
struct SensorOptions: ParsableArguments {
    @Option(help: "The accelerometer, by name, label, sysfs path or device node (default: the first found).")
    var device: String?

    @Option(help: "The sampling rate to ask for, in Hz; the nearest rate the sensor offers at or above it is used.")
    var rate: Double = 100

    @Option(
        help: ArgumentHelp(
            "How many times a second to read in_accel_*_raw when the sensor is polled, in Hz (25 to 200), at most --rate.",
            valueName: "hz"))
    var pollingRate: Double = AccelerometerConfiguration.defaultPollingRate

    @Option(help: "How to read: automatic (buffered, else polled), buffered or polled.")
    var mode: AccelerometerConfiguration.ModePreference = .automatic

    @Option(help: "Override the mount matrix, as \"x1, y1, z1; x2, y2, z2; x3, y3, z3\".")
    var mountMatrix: String?

    func validate() throws {
        guard rate > 0, rate <= 10_000 else { throw ValidationError("--rate must be above 0 and at most 10000 Hz.") }
        guard pollingRate >= 25, pollingRate <= 200 else {
            throw ValidationError("--polling-rate must be from 25 to 200 Hz, the rates the detector works at.")
        }
        if let mountMatrix, MountMatrix(parsing: mountMatrix) == nil {
            throw ValidationError(
                "--mount-matrix must be three rows of three numbers, none all zero: \"x1, y1, z1; x2, y2, z2; x3, y3, z3\"."
            )
        }
    }

    /// The source configuration these options describe.
    func configuration(statistics: ReaderStatistics? = nil) -> AccelerometerConfiguration {
        AccelerometerConfiguration(
            device: device, rate: rate, pollingRate: pollingRate, mode: mode,
            mountMatrix: mountMatrix.flatMap { MountMatrix(parsing: $0) },
            statistics: statistics)
    }
}

extension SensorOptions {
    /// Reads the accelerometer these options choose until `duration` seconds have passed (nil: until it ends)
    /// or Ctrl-C, hands each batch of samples to `body`, and says on standard error when the sensor comes
    /// (`doing` and the sensor, such as "recording from accel_3d at 100 Hz") and goes.
    func read(for duration: Double?, doing: String, _ body: ([Sample]) throws -> Void) async throws {
        for try await event in liveEvents(AccelerometerSource(configuration: configuration()), duration: duration) {
            switch event {
            case .sensorReturned(let text): printError("\(doing) \(text)")
            case .sensorGone(let reason): printError("sensor gone: \(reason)")
            case .samples(let samples): try body(samples)
            }
        }
    }
}

/// A source's events until `duration` seconds have passed (nil: until the source ends) or Ctrl-C.
///
/// Ending the returned stream ends the source's stream, so the sensor is closed at once.
func liveEvents(_ source: some SampleSource, duration: Double?) -> AsyncThrowingStream<SourceEvent, any Error> {
    AsyncThrowingStream { continuation in
        let forward = Task {
            do {
                for try await event in source.events() { continuation.yield(event) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let timer = Task {
            guard let duration else { return }
            try? await Task.sleep(for: .milliseconds(Int64((duration * 1000).rounded())))
            continuation.finish()
        }
        // Ctrl-C ends the run cleanly (the trace is flushed); the handler lives as long as the process.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { continuation.finish() }
        interrupt.resume()
        continuation.onTermination = { _ in
            forward.cancel()
            timer.cancel()
        }
    }
}
