import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Something wrong with a varlink connection itself, as opposed to a varlink error reply.
///
/// The ``description`` says what was wrong and what to do, naming the socket.
public struct VarlinkConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Nothing exists at the socket path (`ENOENT`): the daemon isn't running, or listens elsewhere.
        case socketMissing
        /// The path exists but nothing accepts connections on it (`ECONNREFUSED`): a stale socket.
        case refused
        /// The socket's mode or group keeps this user out (`EACCES`, `EPERM`).
        case permissionDenied
        /// The connection could not be made for another reason.
        case connectFailed
        /// The service closed the connection before answering.
        case closed
        /// The service sent something that is not a varlink reply of the expected shape.
        case protocolViolation
        /// A call was made while a streaming call still had replies to come on this connection.
        case busy
    }

    /// What went wrong.
    public var code: Code
    /// The socket path.
    public var path: String
    /// The method being called, if the failure happened during a call.
    public var method: String?
    /// The error underneath, in words (an errno name, a decoding failure).
    public var underlying: String?

    /// Creates an error.
    public init(_ code: Code, path: String, method: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.method = method
        self.underlying = underlying.map { String(describing: $0) }
    }

    /// Classifies a failure of `connect(2)` by its errno.
    init(connecting path: String, _ error: any Error) {
        let code: Code
        switch (error as? IOError)?.errnoCode {
        case ENOENT?, ENOTDIR?: code = .socketMissing
        case ECONNREFUSED?: code = .refused
        case EACCES?, EPERM?: code = .permissionDenied
        default: code = .connectFailed
        }
        self.init(code, path: path, underlying: error)
    }

    /// What was wrong and what to do.
    public var description: String {
        let call = method.map { " during \($0)" } ?? ""
        let detail = underlying.map { " (\($0))" } ?? ""
        switch code {
        case .socketMissing:
            return "no shaked socket at \(path): start the daemon (shaked --socket \(path)), "
                + "or point --socket or SHAKED_SOCKET at the socket it listens on"
        case .refused:
            return "nothing is listening on \(path): shaked is not running (a stale socket file); start it again"
        case .permissionDenied:
            return "permission denied on \(path): this user may not connect; "
                + "add it to the socket's group (see the daemon's configuration)"
        case .connectFailed:
            return "cannot connect to \(path)\(detail)"
        case .closed:
            return "shaked closed the connection on \(path)\(call): the daemon stopped or refused the connection"
        case .protocolViolation:
            return "shaked sent a reply that is not valid varlink\(call)\(detail)"
        case .busy:
            return "a streaming call is still open on this connection\(call): use a second connection"
        }
    }
}
