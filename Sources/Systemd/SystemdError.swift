#if canImport(Glibc)
    import Glibc
#endif

/// A problem talking to systemd: a malformed variable it set, a descriptor that is not a socket, a
/// failed system call. Names the variable or call, and says what to do.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problems, for callers that branch on them.
    public enum Code: String, Sendable, Hashable {
        /// An environment variable from systemd (`NOTIFY_SOCKET`, `LISTEN_FDS`, `WATCHDOG_USEC`...) is malformed.
        case invalidEnvironment
        /// A descriptor passed by socket activation is not a socket.
        case notASocket
        /// A system call failed; the call and errno are named.
        case systemCallFailed
    }

    /// What kind of problem this is.
    public var code: Code
    /// The system call that failed, when one did.
    public var call: String?
    /// The errno value behind the failure, when there is one.
    public var errno: Int32?
    /// What is wrong and what to do about it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, call: String? = nil, errno: Int32? = nil, _ message: String) {
        self.code = code
        self.call = call
        self.errno = errno
        self.message = message
    }

    /// `message (call: strerror)`, one line for logs.
    public var description: String {
        guard let call else { return message }
        guard let errno else { return "\(message) (\(call))" }
        return "\(message) (\(call): \(String(cString: strerror(errno))))"
    }
}

/// The process environment, read with `getenv` (not cached, unlike Foundation's `ProcessInfo`).
public enum ProcessEnvironment {
    /// The value of a variable, nil when unset.
    public static func get(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
