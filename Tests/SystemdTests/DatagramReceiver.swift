import Foundation
import Testing

/// A real AF_UNIX datagram socket bound where a test points `NOTIFY_SOCKET`, standing in for systemd.
final class DatagramReceiver: Sendable {
    let fd: Int32
    /// The `NOTIFY_SOCKET` value: a path, or `@name` for the abstract namespace.
    let address: String

    /// Binds at a path in `directory`, or at an abstract name when `directory` is nil.
    init(in directory: URL?) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes: [UInt8]
        if let directory {
            address = directory.appendingPathComponent("notify.sock").path
            bytes = Array(address.utf8) + [0]
        } else {
            address = "@shaked-test-\(UUID().uuidString)"
            bytes = Array(address.utf8)
            bytes[0] = 0
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let status = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(status == 0, "bind: \(String(cString: strerror(errno)))")
    }

    deinit { close(fd) }

    /// The next datagram, or nil after `timeout` seconds without one.
    func receive(timeout: Double = 2) -> String? {
        var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pending, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
