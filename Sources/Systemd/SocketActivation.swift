#if canImport(Glibc)
    import Glibc
#endif

/// A socket handed over by systemd (`shaked.socket`), already bound and listening.
public struct ActivatedSocket: Sendable, Hashable {
    /// The descriptor, from 3 on, with `FD_CLOEXEC` set.
    public let fileDescriptor: Int32
    /// Its name from `LISTEN_FDNAMES` (`FileDescriptorName=` in the socket unit), or `"unknown"`.
    public let name: String
}

/// Socket activation (`sd_listen_fds_with_names` without libsystemd).
///
/// systemd passes sockets as descriptors 3, 4, ... and says so in `LISTEN_FDS`, for the process in
/// `LISTEN_PID`, with their names in `LISTEN_FDNAMES` (colon-separated). The sockets are taken only when
/// `LISTEN_PID` is this process, so a child that inherited the variables takes nothing. Call it once, early.
public enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// Takes the sockets systemd passed to this process: checks `LISTEN_PID`, sets `FD_CLOEXEC` on each
    /// descriptor, checks that each is a socket, and (by default) unsets the three variables so that
    /// children do not see them. Returns no sockets when the process was not socket-activated.
    ///
    /// - Throws: ``SystemdError`` with ``SystemdError/Code/invalidEnvironment`` for a malformed `LISTEN_FDS`
    ///   or `LISTEN_PID`, ``SystemdError/Code/notASocket`` when a descriptor is something else.
    public static func takeSockets(unsetEnvironment: Bool = true) throws(SystemdError) -> [ActivatedSocket] {
        let environment = ProcessEnvironment.systemd
        defer {
            if unsetEnvironment {
                unsetenv("LISTEN_PID")
                unsetenv("LISTEN_FDS")
                unsetenv("LISTEN_FDNAMES")
            }
        }
        return try sockets(environment: environment, pid: getpid(), firstDescriptor: firstDescriptor)
    }

    /// The first socket named `name` (such as `"varlink"`), or else the only socket when there is exactly one
    /// unnamed socket; nil when none fits.
    public static func socket(named name: String, in sockets: [ActivatedSocket]) -> ActivatedSocket? {
        sockets.first { $0.name == name } ?? (sockets.count == 1 && sockets[0].name == "unknown" ? sockets[0] : nil)
    }

    /// The work of ``takeSockets(unsetEnvironment:)`` on given variables, for process `pid`, with the
    /// descriptors starting at `firstDescriptor` (3 under systemd; tests use free descriptors higher up).
    static func sockets(environment: [String: String], pid: Int32, firstDescriptor: Int32) throws(SystemdError)
        -> [ActivatedSocket]
    {
        guard let listenPID = environment["LISTEN_PID"] else { return [] }
        guard let owner = Int32(listenPID), owner > 0 else {
            throw SystemdError(.invalidEnvironment, "LISTEN_PID=\(listenPID) is not a process id")
        }
        guard owner == pid else { return [] }
        let countText = environment["LISTEN_FDS"] ?? ""
        guard let count = Int32(countText), count >= 0, count <= 4096 else {
            throw SystemdError(
                .invalidEnvironment, "LISTEN_FDS=\(countText) is not a count of descriptors; check the socket unit")
        }
        let names = (environment["LISTEN_FDNAMES"] ?? "").split(separator: ":", omittingEmptySubsequences: false)
            .map(String.init)
        var sockets: [ActivatedSocket] = []
        for index in 0..<count {
            let fd = firstDescriptor + index
            let name = names.count == Int(count) && !names[Int(index)].isEmpty ? names[Int(index)] : "unknown"
            let flags = try checkErrno("fcntl", "descriptor \(fd) (\(name)) from LISTEN_FDS is not open") {
                fcntl(fd, F_GETFD)
            }
            _ = try checkErrno("fcntl", "cannot set FD_CLOEXEC on descriptor \(fd) (\(name))") {
                fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
            }
            var info = stat()
            _ = try checkErrno("fstat", "cannot inspect descriptor \(fd) (\(name))") { fstat(fd, &info) }
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemdError(
                    .notASocket,
                    "descriptor \(fd) (\(name)) passed by systemd is not a socket; the socket unit must use "
                        + "ListenStream= (not ListenFIFO= or ListenSpecial=)")
            }
            sockets.append(ActivatedSocket(fileDescriptor: fd, name: name))
        }
        return sockets
    }
}
