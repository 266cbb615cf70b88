import Foundation
import ShakeDetection
import Traces

/// Where things are, for tests: the package root, the shared trace corpus, built binaries.
public enum TestPaths {
    /// The package's root folder, found from this source file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/traces` beside the checkout (CI puts `shared/` there).
    public static let traces: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/traces")

    /// A trace in the shared corpus by base name.
    public static func trace(_ name: String) -> String { traces.appendingPathComponent(name + ".csv").path }

    /// Every trace in the corpus, sorted by name.
    public static func allTraces() -> [String] { (try? Corpus.traceFiles([traces.path])) ?? [] }

    /// The Python the suite's Python parts run on: `.build/venv` (made by `scripts/python-env.sh`,
    /// with the third-party varlink client), else whatever `python3` is on `PATH`.
    public static var python: String {
        let venv = packageRoot.appendingPathComponent(".build/venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }

    /// A built product of this package (e.g. `shakectl`), next to the running test bundle.
    public static func binary(_ name: String) -> String {
        if let override = ProcessInfo.processInfo.environment["SHAKED_BIN_DIR"] {
            return URL(fileURLWithPath: override).appendingPathComponent(name).path
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `<bin>/shakedPackageTests.xctest`; on Darwin it sits inside a bundle.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent(name).path
    }

    /// The test process's environment without the variables systemd hands a service, for programs the
    /// tests start: the notifier and socket-activation tests set those for this process alone.
    public static func childEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { name, _ in
            !["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]
                .contains(name)
        }
    }

    /// A fresh temporary folder.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shaked-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program with arguments, without a shell, and waits for it.
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws
    -> ProcessResult
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment ?? TestPaths.childEnvironment()
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes before waiting so a chatty child cannot fill a pipe and block.
    // The semaphore orders the reader's write before the read below (ThreadSanitizer saw polling
    // isFinished as a data race).
    nonisolated(unsafe) var errData = Data()
    let readerDone = DispatchSemaphore(value: 0)
    let reader = Thread {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        readerDone.signal()
    }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    readerDone.wait()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// Synthetic motion for property tests: deterministic, parameterized by physics.
public enum Motion {
    /// A linear-congruential generator: the same seed gives the same numbers everywhere.
    public struct Random {
        var state: UInt64
        public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        /// A uniform number in [0, 1).
        public mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        /// A standard normal number (Box-Muller).
        public mutating func gaussian() -> Double {
            let u = max(next(), 1e-12)
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * next())
        }
    }

    /// A device at rest with gravity along `direction` (normalized here), plus Gaussian noise.
    public static func rest(
        seconds: Double, rate: Double, direction: (Double, Double, Double), noise: Double = 0, seed: UInt64 = 1
    ) -> [Sample] {
        var random = Random(seed: seed)
        let n = (direction.0 * direction.0 + direction.1 * direction.1 + direction.2 * direction.2).squareRoot()
        let g = (
            direction.0 / n * standardGravity, direction.1 / n * standardGravity, direction.2 / n * standardGravity
        )
        return (0..<Int(seconds * rate)).map { i in
            Sample(
                seconds: Double(i) / rate, x: g.0 + noise * random.gaussian(), y: g.1 + noise * random.gaussian(),
                z: g.2 + noise * random.gaussian())
        }
    }

    /// Rest, then a sinusoidal shake along x of `amplitude` m/s² at `frequency` Hz for `duration` s,
    /// optionally clipped per axis, then rest again. Gravity on z.
    public static func shake(
        rate: Double, frequency: Double = 4, amplitude: Double = 30, duration: Double = 1.2, start: Double = 2,
        total: Double = 5, clip: Double = .infinity
    ) -> [Sample] {
        (0..<Int(total * rate)).map { i in
            let t = Double(i) / rate
            let inShake = t >= start && t < start + duration
            let x = inShake ? amplitude * sin(2 * Double.pi * frequency * (t - start)) : 0
            return Sample(seconds: t, x: max(-clip, min(clip, x)), y: 0, z: standardGravity)
        }
    }

    /// Linear interpolation of samples onto a uniform grid at `rate` Hz.
    public static func resample(_ samples: [Sample], rate: Double) -> [Sample] {
        guard let first = samples.first, let last = samples.last else { return [] }
        var out: [Sample] = []
        var j = 0
        var t = first.seconds
        while t <= last.seconds {
            while j + 1 < samples.count && samples[j + 1].seconds < t { j += 1 }
            let a = samples[j]
            let b = samples[min(j + 1, samples.count - 1)]
            let span = b.seconds - a.seconds
            let f = span > 0 ? (t - a.seconds) / span : 0
            out.append(
                Sample(
                    seconds: t, x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, z: a.z + (b.z - a.z) * f))
            t += 1 / rate
        }
        return out
    }

    /// Every sample turned by the rotation matrix `m` (row-major).
    public static func rotate(_ samples: [Sample], by m: [[Double]]) -> [Sample] {
        samples.map { s in
            Sample(
                timestamp: s.timestamp, x: m[0][0] * s.x + m[0][1] * s.y + m[0][2] * s.z,
                y: m[1][0] * s.x + m[1][1] * s.y + m[1][2] * s.z, z: m[2][0] * s.x + m[2][1] * s.y + m[2][2] * s.z)
        }
    }

    /// The rotation by `angle` radians about the axis (ax, ay, az) (Rodrigues' formula).
    public static func rotation(axis: (Double, Double, Double), angle: Double) -> [[Double]] {
        let n = (axis.0 * axis.0 + axis.1 * axis.1 + axis.2 * axis.2).squareRoot()
        let (x, y, z) = (axis.0 / n, axis.1 / n, axis.2 / n)
        let c = cos(angle)
        let s = sin(angle)
        let t = 1 - c
        return [
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ]
    }
}

extension ShakeEvent {
    /// When the shake ended: the events tests take from ``ShakeDetecting/process(_:)`` and ``detect(_:with:)``
    /// all did; one that only began reads as ending when it began.
    public var endedAt: Int64 { ended ?? began }
}

/// Runs a detector over samples and returns its events: the shakes that ended, to act on.
public func detect(_ samples: [Sample], with detector: some ShakeDetecting) -> [ShakeEvent] {
    var detector = detector
    return samples.compactMap { detector.process($0) }
}

/// Runs a detector over samples and returns every shake that began (its strokes looked like a shake),
/// whether it ended or was dropped.
public func beginnings(_ samples: [Sample], with detector: some ShakeDetecting) -> [ShakeEvent] {
    var detector = detector
    return samples.compactMap {
        if case .began(let event)? = detector.advance($0) { return event }
        return nil
    }
}
