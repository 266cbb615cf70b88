import Foundation
import TestSupport
import Testing

@testable import Systemd

/// Socket activation: libsystemd reading the process environment, our checks on real descriptors
/// (listening sockets moved to free descriptors, as systemd would place them at 3, 4, ...; the test
/// process's own 3 is taken, so they start higher up), and the daemon under `systemd-socket-activate`.
@Suite(.serialized) final class SocketActivationTests {
    static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// Each test leaves the process environment as it found it.
    deinit {
        for name in Self.variables { unsetenv(name) }
    }

    /// Sets the three variables to `environment` (unset where missing) and takes the sockets.
    static func take(_ environment: [String: String]) throws(SystemdError) -> [ActivatedSocket] {
        for name in variables {
            if let value = environment[name] { setenv(name, value, 1) } else { unsetenv(name) }
        }
        return try SocketActivation.takeSockets()
    }

    /// Listening Unix sockets placed on consecutive descriptors from `first`, FD_CLOEXEC cleared.
    static func listeningSockets(_ count: Int, from first: Int32) throws -> [Int32] {
        let dir = try TestPaths.temporaryDirectory()
        var placed: [Int32] = []
        for i in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let path = Array(dir.appendingPathComponent("s\(i).sock").path.utf8) + [0]
            withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: path) }
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0 && listen(fd, 4) == 0)
            let target = first + Int32(i)
            try #require(fcntl(target, F_GETFD) == -1, "descriptor \(target) is free")
            try #require(dup2(fd, target) == target)
            close(fd)
            placed.append(target)
        }
        return placed
    }

    static func closeAll(_ fds: [Int32]) { for fd in fds { close(fd) } }

    @Test("each descriptor is checked to be a socket and carries its name")
    func namedSockets() throws {
        let fds = try Self.listeningSockets(2, from: 700)
        defer { Self.closeAll(fds) }
        let sockets = try SocketActivation.sockets(named: ["varlink", "other"], firstDescriptor: 700)
        #expect(
            sockets == [
                ActivatedSocket(fileDescriptor: 700, name: "varlink"),
                ActivatedSocket(fileDescriptor: 701, name: "other"),
            ])
        #expect(SocketActivation.socket(named: "varlink", in: sockets)?.fileDescriptor == 700)
        #expect(SocketActivation.socket(named: "missing", in: sockets) == nil)
        let unknown = [ActivatedSocket(fileDescriptor: 720, name: "unknown")]
        #expect(SocketActivation.socket(named: "varlink", in: unknown)?.fileDescriptor == 720)
    }

    /// Variables that mean "not for us" or "nothing passed".
    static let ignored: [[String: String]] = [
        [:],
        ["LISTEN_PID": "1", "LISTEN_FDS": "1"],
        ["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "varlink"],
        ["LISTEN_PID": "\(getpid())"],
    ]

    @Test(arguments: ignored)
    func takesNothing(environment: [String: String]) throws {
        #expect(try Self.take(environment).isEmpty)
    }

    /// Malformed variables, as libsystemd finds them, and the words the error must hold.
    static let malformed: [([String: String], String)] = [
        (["LISTEN_PID": "abc", "LISTEN_FDS": "1"], "LISTEN_PID=abc"),
        (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "many"], "LISTEN_FDS=many"),
        (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "0"], "LISTEN_FDS=0"),
        (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "-1"], "LISTEN_FDS=-1"),
    ]

    @Test(arguments: malformed)
    func malformedEnvironment(environment: [String: String], says: String) {
        let error = #expect(throws: SystemdError.self) { try Self.take(environment) }
        #expect(error?.code == .invalidEnvironment)
        #expect(error?.call == "sd_listen_fds_with_names")
        #expect(error?.description.contains(says) == true, "\(String(describing: error))")
    }

    @Test("a descriptor that is not a socket, or not open, is a clear error")
    func notASocket() throws {
        let file = try TestPaths.temporaryDirectory().appendingPathComponent("plain").path
        let fd = open(file, O_CREAT | O_RDWR, 0o600)
        try #require(fd >= 0 && fcntl(740, F_GETFD) == -1 && dup2(fd, 740) == 740)
        close(fd)
        defer { close(740) }
        let error = #expect(throws: SystemdError.self) {
            try SocketActivation.sockets(named: ["varlink"], firstDescriptor: 740)
        }
        #expect(error?.code == .notASocket)
        #expect(error?.description.contains("descriptor 740 (varlink)") == true)
        let closed = #expect(throws: SystemdError.self) {
            try SocketActivation.sockets(named: ["varlink"], firstDescriptor: 750)
        }
        #expect(closed?.code == .systemCallFailed)
    }

    @Test("takeSockets unsets the variables")
    func unsetsEnvironment() throws {
        #expect(
            try Self.take(["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "varlink"]).isEmpty)
        #expect(getenv("LISTEN_PID") == nil && getenv("LISTEN_FDS") == nil && getenv("LISTEN_FDNAMES") == nil)
    }

    /// `--fdname=` given to `systemd-socket-activate`, and the name the daemon logs for the socket.
    static let activations: [(String?, String)] = [("varlink", "varlink"), (nil, "unknown")]

    @Test(
        "shaked under systemd-socket-activate serves the socket passed as descriptor 3, and binds none itself",
        arguments: activations)
    func daemonTakesThePassedSocket(fdname: String?, logged: String) throws {
        let activate = "/usr/bin/systemd-socket-activate"
        try #require(FileManager.default.isExecutableFile(atPath: activate), "systemd-socket-activate is installed")
        let folder = try TestPaths.temporaryDirectory()
        let socket = folder.appendingPathComponent("io.shaked.Undo").path
        let unused = folder.appendingPathComponent("not-this-one").path
        let logPath = folder.appendingPathComponent("shaked.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: activate)
        process.arguments =
            ["-l", socket] + (fdname.map { ["--fdname=\($0)"] } ?? []) + [
                TestPaths.binary("shaked"), "--socket", unused, "--demo",
            ]
        var environment = TestPaths.childEnvironment()
        environment["STATE_DIRECTORY"] = folder.appendingPathComponent("state").path
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let text = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        // systemd-socket-activate binds at once and starts shaked on the first connection.
        #expect(waitUntil(.seconds(10)) { canConnect(toUnixSocket: socket) })
        #expect(waitUntil(.seconds(20)) { text().contains("using the socket systemd passed") }, "\(text())")
        #expect(text().contains("fd=3"), "\(text())")
        #expect(text().contains("name=\(logged)"), "\(text())")
        #expect(!FileManager.default.fileExists(atPath: unused))
    }
}
