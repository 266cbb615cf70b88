import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A `shaked` process started for a test on a socket in a temporary folder, stopped when
/// the test lets go of it. Its output goes to ``logPath``, for failure messages.
public final class RunningDaemon: @unchecked Sendable {
    /// The socket it serves.
    public let socket: String
    /// Where its standard output and error go.
    public let logPath: String
    private let process: Process

    /// Starts `shaked --socket SOCKET` plus `arguments` (`--demo` by default) and waits until
    /// the socket accepts connections. `socket` defaults to `s` in a fresh temporary folder.
    /// `environment` is added to the test's own.
    public init(
        arguments: [String] = ["--demo"], socket: String? = nil, environment extra: [String: String] = [:],
        timeout: Duration = .seconds(20)
    ) throws {
        let folder = try TestPaths.temporaryDirectory()
        self.socket = socket ?? folder.appendingPathComponent("s").path
        logPath = folder.appendingPathComponent("shaked.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.binary("shaked"))
        process.arguments = ["--socket", self.socket] + arguments
        // Users' preferences go to the test's folder, never the host's /var/lib/shaked; and the host's
        // logind (a screen that locks while the tests run) is not asked unless a test gives a bus.
        var environment = TestPaths.childEnvironment()
        environment["STATE_DIRECTORY"] = folder.appendingPathComponent("state").path
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + folder.appendingPathComponent("no-system-bus").path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let socketPath = self.socket
        let ready = waitUntil(timeout) { [process] in
            !process.isRunning || canConnect(toUnixSocket: socketPath)
        }
        guard ready, process.isRunning else {
            stop()
            throw DaemonDidNotStart(log: self.log)
        }
    }

    deinit { stop() }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// What the daemon printed so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops it with SIGTERM (SIGKILL after 5 s) and waits until it has exited.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if !waitUntil(.seconds(5), { [process] in !process.isRunning }) {
            Glibc.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// Kills it with SIGKILL, as a crash would, and waits until it has exited. The socket
    /// file stays behind, as it would after a crash.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The daemon exited or never opened its socket.
public struct DaemonDidNotStart: Error, CustomStringConvertible {
    /// What it printed.
    public var log: String
    /// The log, for the test report.
    public var description: String { "shaked did not start listening:\n\(log)" }
}

/// Whether something accepts connections on the Unix stream socket at `path`.
public func canConnect(toUnixSocket path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    }
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; says whether it held.
@discardableResult
public func waitUntil(_ timeout: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(20_000)
    }
}
