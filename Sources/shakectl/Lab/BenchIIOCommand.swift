import ArgumentParser
import IIOSensors
import Logging
import MonotonicClock
import ShakeDetection
import ShakeService

#if canImport(Glibc)
    import Glibc
#endif

/// `shakectl bench-iio` (hidden): the cost of reading the accelerometer, buffered against polled.
struct BenchIIO: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-iio",
        abstract: "Measure what reading the accelerometer costs: CPU, wake-ups and allocations.",
        discussion: """
            Reads the sensor for --seconds after a one-second warm-up and --settle seconds more, as the \
            daemon reads it (its \
            SensorService and detector, which run on the reading thread), and reports per second of \
            reading: CPU time of the whole process (getrusage) and of the reading thread alone, wake-ups \
            of the reading thread (returns from poll), context switches of the whole process, and heap \
            bytes and allocations per sample (malloc interposer). Then, the sensor closed and the process \
            settled again, --idle seconds of the process with nothing to read (libdispatch's once-a-second \
            workqueue monitor, which the daemon runs with the sensor off too), and the difference: what \
            reading adds. \
            scripts/bench-iio.sh runs it against a fake device under umockdev, buffered and polled.
            This is a benchmark, not a test.
            """,
        shouldDisplay: false
    )

    @Option(help: "How long to measure, in seconds.")
    var seconds = 10.0

    @Option(
        help: ArgumentHelp(
            "How long to let the process settle before measuring, in seconds: libdispatch ends the worker threads that start-up used 5 s after they go idle, a one-off that is not the cost of reading.",
            valueName: "seconds"))
    var settle = 6.0

    @Option(
        help: ArgumentHelp(
            "How long to measure the process after the sensor is closed, in seconds (0: not at all): what it costs with nothing to read.",
            valueName: "seconds"))
    var idle = 5.0

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @OptionGroup var sensor: SensorOptions

    @Option(
        help: ArgumentHelp(
            "Instead of measuring, write a umockdev script feeding the fake device (Tests/IIOSensorsTests/Fixtures/fake-accel.umockdev) at --rate for --seconds plus 3, a watermark of scans every 100 ms.",
            valueName: "path"))
    var makeScript: String?

    private struct Result: Codable {
        var mode: String
        var seconds: Double
        var samplesPerSecond: Double
        var cpuMillisecondsPerSecond: Double
        var readingThreadCpuMillisecondsPerSecond: Double
        /// The whole process, the sensor closed (nil with --idle 0).
        var idleCpuMillisecondsPerSecond: Double?
        /// The whole process while reading, less the same with the sensor closed.
        var readingCpuMillisecondsPerSecond: Double?
        var wakeupsPerSecond: Double
        var contextSwitchesPerSecond: Double
        var bytesAllocatedPerSample: Double
        var allocationsPerSample: Double
    }

    func run() async throws {
        if let makeScript { return try writeScript(makeScript) }
        if let reason = AllocationCounter.unavailableReason { throw ValidationError(reason) }
        let statistics = ReaderStatistics()
        let source = AccelerometerSource(configuration: sensor.configuration(statistics: statistics))
        // The daemon's own path: its SensorService and detector, which run on the reading thread and
        // cross into Swift concurrency only to report a shake or the sensor's state.
        let logger = Logger(label: "shakectl bench-iio") { StreamLogHandler.standardError(label: $0) }
        let coordinator = UndoCoordinator(
            settings: ServiceSettings(), sensor: .init(description: source.description, detector: "shaked"),
            logger: logger)
        let service = SensorService(
            source: source,
            makeDetector: {
                ContextDetector(signal: coordinator.contextSensitivity) { sensitivity in
                    ShakeDetector(configuration: .init(sensitivity: sensitivity ?? .medium))
                }
            },
            coordinator: coordinator, logger: logger)
        let reading = Task { await service.read() }
        defer { reading.cancel() }
        // A second of samples to warm up (within five seconds), then the measured window, this task asleep.
        let warmUp = ContinuousClock.now + .seconds(5)
        while statistics.samples < Int(sensor.rate) && ContinuousClock.now < warmUp {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard statistics.samples >= Int(sensor.rate) else {
            throw ValidationError(
                "the sensor delivered too few samples to measure: \(await coordinator.status().sensor)")
        }
        // This task then sleeps blocking its thread, not in Task.sleep: a sleeping task's wake-up is a
        // dispatch timer and a worker thread started anew (the idle ones have ended), which would fall
        // inside the window, and the daemon reading in its steady state has neither. Settling, the idle
        // worker threads of start-up end (5 s after their last work), as the daemon's do once.
        sleepBlocking(settle)
        // The reading thread's CPU is read outside the process's window: reading /proc costs too.
        let threadStart = ThreadCPU.seconds(named: "shaked-iio")
        let start = Counts(statistics)
        AllocationCounter.start()
        sleepBlocking(seconds)
        let allocations = AllocationCounter.stop()
        let end = Counts(statistics)
        let threadEnd = ThreadCPU.seconds(named: "shaked-iio")
        let status = await coordinator.status()
        reading.cancel()
        await reading.value
        // The process with nothing to read: the reading thread gone, the tasks that stopped it settled.
        var idleMilliseconds: Double?
        if idle > 0 {
            sleepBlocking(settle)
            let idleStart = Counts(statistics)
            sleepBlocking(idle)
            let idleEnd = Counts(statistics)
            idleMilliseconds = (cpu(idleEnd.usage) - cpu(idleStart.usage)) * 1000 / (idleEnd.clock - idleStart.clock).inSeconds
        }
        let wall = (end.clock - start.clock).inSeconds
        let samples = Double(max(1, end.samples - start.samples))
        let total = (cpu(end.usage) - cpu(start.usage)) * 1000 / wall
        let result = Result(
            mode: status.sensor, seconds: rounded(wall), samplesPerSecond: rounded(samples / wall, 1),
            cpuMillisecondsPerSecond: rounded(total, 2),
            readingThreadCpuMillisecondsPerSecond: rounded((threadEnd - threadStart) * 1000 / wall, 2),
            idleCpuMillisecondsPerSecond: idleMilliseconds.map { rounded($0, 3) },
            readingCpuMillisecondsPerSecond: idleMilliseconds.map { rounded(total - $0, 2) },
            wakeupsPerSecond: rounded(Double(end.wakeups - start.wakeups) / wall, 1),
            contextSwitchesPerSecond: rounded(Double(switches(end.usage) - switches(start.usage)) / wall, 1),
            bytesAllocatedPerSample: rounded(Double(allocations.bytes) / samples, 1),
            allocationsPerSample: rounded(Double(allocations.allocations) / samples, 3))
        if format == .json {
            print(encodeJSONLine(result))
        } else {
            print(
                """
                \(result.mode)
                  samples/s \(result.samplesPerSecond), CPU \(result.cpuMillisecondsPerSecond) ms/s \
                (reading thread \(result.readingThreadCpuMillisecondsPerSecond); \
                with the sensor closed \(result.idleCpuMillisecondsPerSecond.map { "\($0)" } ?? "not measured")), \
                wake-ups \(result.wakeupsPerSecond)/s, context switches \(result.contextSwitchesPerSecond)/s, \
                \(result.bytesAllocatedPerSample) B and \(result.allocationsPerSample) allocations per sample
                """)
        }
    }

    /// Sleeps `seconds`, blocking this thread (`nanosleep`, resumed after a signal).
    private func sleepBlocking(_ seconds: Double) {
        let nanoseconds = Int64((max(seconds, 0) * 1e9).rounded())
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// A umockdev script (`r <delay ms> <bytes>` lines) of le:s16 scans with a timestamp, as the fixture declares.
    private func writeScript(_ path: String) throws {
        let s16 = ChannelFormat(parsing: "le:s16/16>>0")!
        let decoder = ScanDecoder(
            axes: (0..<3).map { ScanChannel(index: $0, format: s16) },
            timestamp: ScanChannel(index: 3, format: ChannelFormat(parsing: "le:s64/64>>0")!),
            converter: SampleConverter(
                calibration: Array(repeating: AxisCalibration(scale: 1), count: 3), mountMatrix: .identity))
        let perWake = max(1, Int((sensor.rate / 10).rounded()))
        let wakes = Int(((seconds + 3) * 10).rounded())
        var scan = [UInt8](repeating: 0, count: decoder.scanBytes)
        var bytes: [UInt8] = []
        for wake in 0..<wakes {
            bytes += Array("r 100 ".utf8)
            for i in 0..<perWake {
                let n = Int64(wake * perWake + i)
                let t = 1_000_000_000 + n * Int64((1e9 / sensor.rate).rounded())
                let wobble = Int64((sin(Double(n) / 7) * 2000).rounded())
                scan.withUnsafeMutableBytes {
                    decoder.encode(x: wobble, y: -wobble / 2, z: 16384, timestamp: t, into: $0)
                }
                for byte in scan {
                    // umockdev's script escapes: bytes below 32 as ^ + (byte + 64), ^ itself as ^`.
                    if byte < 32 {
                        bytes += [UInt8(ascii: "^"), byte + 64]
                    } else if byte == UInt8(ascii: "^") {
                        bytes += [UInt8(ascii: "^"), UInt8(ascii: "`")]
                    } else {
                        bytes.append(byte)
                    }
                }
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        guard let file = fopen(path, "wb") else { throw ValidationError("cannot write \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw ValidationError("cannot write \(path)") }
    }

    /// The process's and the reading thread's counters at one moment.
    private struct Counts {
        var usage = rusage()
        var wakeups: Int
        var samples: Int
        var clock = ContinuousClock.now

        init(_ statistics: ReaderStatistics) {
            wakeups = statistics.wakeups
            samples = statistics.samples
            getrusage(RUSAGE_SELF.rawValue, &usage)
        }
    }

    private func cpu(_ u: rusage) -> Double {
        Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec)
            + Double(u.ru_stime.tv_usec) / 1e6
    }

    private func switches(_ u: rusage) -> Int { u.ru_nvcsw + u.ru_nivcsw }
}
