import Foundation
import TestSupport
import Testing

@testable import Systemd

/// Socket activation on real descriptors: listening sockets moved to free descriptors, as systemd
/// would place them at 3, 4, ... (the test process's own 3 is taken, so they start higher up).
@Suite(.serialized) struct SocketActivationTests {
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

    @Test("sockets for this pid are taken with their names, and FD_CLOEXEC is set")
    func takesNamedSockets() throws {
        let fds = try Self.listeningSockets(2, from: 700)
        defer { Self.closeAll(fds) }
        #expect(fds.allSatisfy { fcntl($0, F_GETFD) & FD_CLOEXEC == 0 })
        let sockets = try SocketActivation.sockets(
            environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "varlink:other"],
            pid: getpid(), firstDescriptor: 700)
        #expect(
            sockets == [
                ActivatedSocket(fileDescriptor: 700, name: "varlink"),
                ActivatedSocket(fileDescriptor: 701, name: "other"),
            ])
        #expect(fds.allSatisfy { fcntl($0, F_GETFD) & FD_CLOEXEC != 0 })
        #expect(SocketActivation.socket(named: "varlink", in: sockets)?.fileDescriptor == 700)
        #expect(SocketActivation.socket(named: "missing", in: sockets) == nil)
    }

    /// Variables that mean "not for us" or "nothing passed".
    static let ignored: [[String: String]] = [
        [:],
        ["LISTEN_PID": "1", "LISTEN_FDS": "1"],
        ["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "varlink"],
        ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "0"],
    ]

    @Test(arguments: ignored)
    func takesNothing(environment: [String: String]) throws {
        #expect(try SocketActivation.sockets(environment: environment, pid: getpid(), firstDescriptor: 710).isEmpty)
    }

    @Test("names missing or of the wrong count read as unknown; one unknown socket still serves")
    func unknownNames() throws {
        let fds = try Self.listeningSockets(1, from: 720)
        defer { Self.closeAll(fds) }
        for names in [nil, "", "a:b"] {
            var environment = ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "1"]
            environment["LISTEN_FDNAMES"] = names
            let sockets = try SocketActivation.sockets(environment: environment, pid: getpid(), firstDescriptor: 720)
            #expect(sockets.map(\.name) == ["unknown"])
            #expect(SocketActivation.socket(named: "varlink", in: sockets)?.fileDescriptor == 720)
        }
    }

    /// Malformed variables and the words the error must hold.
    static let malformed: [([String: String], String)] = [
        (["LISTEN_PID": "abc", "LISTEN_FDS": "1"], "LISTEN_PID=abc"),
        (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "many"], "LISTEN_FDS=many"),
        (["LISTEN_PID": "\(getpid())"], "LISTEN_FDS="),
        (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "-1"], "LISTEN_FDS=-1"),
    ]

    @Test(arguments: malformed)
    func malformedEnvironment(environment: [String: String], says: String) {
        let error = #expect(throws: SystemdError.self) {
            try SocketActivation.sockets(environment: environment, pid: getpid(), firstDescriptor: 730)
        }
        #expect(error?.code == .invalidEnvironment)
        #expect(error?.description.contains(says) == true, "\(String(describing: error))")
    }

    @Test("a descriptor that is not a socket, or not open, is a clear error")
    func notASocket() throws {
        let file = try TestPaths.temporaryDirectory().appendingPathComponent("plain").path
        let fd = open(file, O_CREAT | O_RDWR, 0o600)
        try #require(fd >= 0 && fcntl(740, F_GETFD) == -1 && dup2(fd, 740) == 740)
        close(fd)
        defer { close(740) }
        let environment = ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "varlink"]
        let error = #expect(throws: SystemdError.self) {
            try SocketActivation.sockets(environment: environment, pid: getpid(), firstDescriptor: 740)
        }
        #expect(error?.code == .notASocket)
        #expect(error?.description.contains("descriptor 740 (varlink)") == true)
        let closed = #expect(throws: SystemdError.self) {
            try SocketActivation.sockets(environment: environment, pid: getpid(), firstDescriptor: 750)
        }
        #expect(closed?.code == .systemCallFailed)
    }

    @Test("takeSockets reads the process environment and unsets the variables")
    func unsetsEnvironment() throws {
        setenv("LISTEN_PID", "\(getpid())", 1)
        setenv("LISTEN_FDS", "0", 1)
        setenv("LISTEN_FDNAMES", "", 1)
        #expect(try SocketActivation.takeSockets().isEmpty)
        #expect(getenv("LISTEN_PID") == nil && getenv("LISTEN_FDS") == nil && getenv("LISTEN_FDNAMES") == nil)
    }
}
