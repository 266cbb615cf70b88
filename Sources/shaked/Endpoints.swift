import IIOSensors
import Logging
import ShakeService
import ShakedConfiguration
import Systemd

#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon listens and what it reads, settled before it reports ready.
enum Endpoints {
    /// The socket systemd handed over (LISTEN_FDS, for this pid), else the configured path, whose
    /// directory is created when missing.
    static func listen(_ socket: ShakedSettings.Socket, logger: Logger) throws -> VarlinkServer.Endpoint {
        let activated = try SocketActivation.takeSockets()
        if let first = SocketActivation.socket(named: "varlink", in: activated) ?? activated.first {
            logger.info("using the socket systemd passed", metadata: ["fd": "\(first.fileDescriptor)", "name": "\(first.name)"])
            return .inherited(fd: first.fileDescriptor)
        }
        let directory = String(socket.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        if !directory.isEmpty { try makeDirectories(directory) }
        var group: UInt32?
        if let name = socket.group {
            guard let gid = groupID(name) else {
                throw ServerError(message: "Socket.Group: there is no group \"\(name)\"; create it or change the setting")
            }
            group = gid
        }
        return .path(socket.path, mode: socket.mode, group: group)
    }

    /// The sensor's state for readiness and status: the accelerometer found, or why none is yet.
    static func probe(_ source: ChosenSource, logger: Logger) -> String {
        guard let accelerometer = source.accelerometer else { return source.source.description }
        do {
            let info = try accelerometer.probe()
            logger.info("accelerometer found", metadata: ["sensor": "\(info)"])
            return accelerometer.description
        } catch {
            logger.warning("no accelerometer yet; waiting for one to appear", metadata: ["error": "\(error)"])
            return "\(accelerometer.description), not present: \(error)"
        }
    }

    private static func makeDirectories(_ path: String) throws {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw ServerError(message: "can't create \(built) for the socket: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func groupID(_ name: String) -> UInt32? {
        if let id = UInt32(name) { return id }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}
