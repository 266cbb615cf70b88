import CSystemd

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

/// Socket activation through libsystemd's `sd_listen_fds_with_names(3)`.
///
/// systemd passes sockets as descriptors 3, 4, ... and says so in `LISTEN_FDS`, for the process in
/// `LISTEN_PID`, with their names in `LISTEN_FDNAMES`. libsystemd takes them only when `LISTEN_PID` is
/// this process, so a child that inherited the variables takes nothing, and sets `FD_CLOEXEC` on each.
/// Call it once, early.
public enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor = Int32(SD_LISTEN_FDS_START)

    /// Takes the sockets systemd passed to this process, checks that each is a socket, and (by default)
    /// unsets the three variables so that children do not see them. Returns no sockets when the process
    /// was not socket-activated.
    ///
    /// - Throws: ``SystemdError`` with ``SystemdError/Code/invalidEnvironment`` when libsystemd finds
    ///   `LISTEN_PID`, `LISTEN_FDS` or `LISTEN_FDNAMES` malformed, ``SystemdError/Code/notASocket`` when a
    ///   descriptor is something else.
    public static func takeSockets(unsetEnvironment: Bool = true) throws(SystemdError) -> [ActivatedSocket] {
        let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"].map {
            "\($0)=\(ProcessEnvironment.get($0) ?? "")"
        }
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(unsetEnvironment ? 1 : 0, &names)
        defer {
            if let names {
                for index in 0..<Int(max(count, 0)) { free(names[index]) }
                free(names)
            }
        }
        guard count >= 0 else {
            throw SystemdError(
                .invalidEnvironment, call: "sd_listen_fds_with_names", errno: -count,
                "\(variables.joined(separator: " ")) do not describe the sockets passed; check the socket unit")
        }
        let labels = (0..<Int(count)).map { index in names?[index].map { String(cString: $0) } ?? "unknown" }
        return try sockets(named: labels, firstDescriptor: firstDescriptor)
    }

    /// The first socket named `name` (such as `"varlink"`), or else the only socket when there is exactly one
    /// unnamed socket; nil when none fits.
    public static func socket(named name: String, in sockets: [ActivatedSocket]) -> ActivatedSocket? {
        sockets.first { $0.name == name } ?? (sockets.count == 1 && sockets[0].name == "unknown" ? sockets[0] : nil)
    }

    /// The descriptors from `firstDescriptor` on, one for each name, checked with `sd_is_socket(3)`
    /// (3 under systemd; tests use free descriptors higher up).
    static func sockets(named names: [String], firstDescriptor: Int32) throws(SystemdError) -> [ActivatedSocket] {
        var sockets: [ActivatedSocket] = []
        for (index, name) in names.enumerated() {
            let fd = firstDescriptor + Int32(index)
            let isSocket = sd_is_socket(fd, AF_UNSPEC, 0, -1)
            if isSocket < 0 {
                throw SystemdError(
                    .systemCallFailed, call: "sd_is_socket", errno: -isSocket,
                    "descriptor \(fd) (\(name)) from LISTEN_FDS is not open")
            }
            guard isSocket > 0 else {
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
