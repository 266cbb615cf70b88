import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The varlink server on a Unix stream socket, as a `Service`.
///
/// One task per connection in a discarding task group; each connection catches its own
/// errors. Framing is ``NULFrameDecoder``; calls go to ``ConnectionSession``. On graceful
/// shutdown the coordinator cancels the open prompt (the app is told), the replies already
/// queued are flushed, and the socket closes.
public struct VarlinkServer: Service {
    /// Where to listen.
    public enum Endpoint: Sendable, Equatable {
        /// Bind this path (replacing a stale socket), then set its mode and group.
        case path(String, mode: UInt32?, group: UInt32?)
        /// A listening socket handed over by systemd (`LISTEN_FDS`).
        case inherited(fd: Int32)
    }

    let endpoint: Endpoint
    let coordinator: UndoCoordinator
    let context: ServerContext
    let limits: ServiceLimits
    let logger: Logger
    let onListening: @Sendable () -> Void
    private let connections = ConnectionCounter()

    /// Creates the server; `onListening` runs once the socket accepts connections.
    public init(
        endpoint: Endpoint, coordinator: UndoCoordinator, context: ServerContext, limits: ServiceLimits,
        logger: Logger, onListening: @escaping @Sendable () -> Void = {}
    ) {
        self.endpoint = endpoint
        self.coordinator = coordinator
        self.context = context
        self.limits = limits
        self.logger = logger
        self.onListening = onListening
    }

    /// Serves until graceful shutdown or cancellation.
    public func run() async throws {
        let server = try await bind()
        if case .path(let path, _, _) = endpoint { logger.info("listening", metadata: ["socket": "\(path)"]) }
        onListening()
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try? await gracefulShutdown()
                    await coordinator.shutdown()
                    // Let the connections' writers flush the cancellations just queued.
                    try? await Task.sleep(for: .milliseconds(50))
                    throw Stopping()
                }
                group.addTask {
                    try await server.executeThenClose { inbound in
                        try await withThrowingDiscardingTaskGroup { connections in
                            for try await accepted in inbound {
                                connections.addTask { await serve(accepted) }
                            }
                        }
                    }
                }
            }
        } catch is Stopping {
            // Graceful shutdown: the listening socket is closed by executeThenClose.
        }
        if case .path(let path, _, _) = endpoint { unlink(path) }
    }

    private struct Stopping: Error {}

    /// Whether every SwiftNIO event loop runs a task within a second (for the watchdog).
    public static func eventLoopsRespond() async -> Bool {
        for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
            let answered = loop.submit { true }
            let timeout = loop.scheduleTask(in: .seconds(1)) {}
            defer { timeout.cancel() }
            guard (try? await answered.get()) == true else { return false }
        }
        return true
    }

    private func bind() async throws -> NIOAsyncChannel<Accepted, Never> {
        let maximumLength = limits.messageSize
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            // Calls are a few hundred bytes: start reads small, so a thousand idle subscribers
            // don't each hold a 2 KiB receive buffer. Reads still grow up to 64 KiB when needed.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536))
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Accepted> = { channel in
            Accepted.make(channel, maximumLength: maximumLength)
        }
        switch endpoint {
        case .path(let path, let mode, let group):
            let server = try await bootstrap.bind(
                unixDomainSocketPath: path, cleanupExistingSocketFile: true, childChannelInitializer: initializer)
            if let mode, chmod(path, mode_t(mode)) != 0 {
                throw ServerError(message: "can't set mode \(String(mode, radix: 8)) on \(path): errno \(errno)")
            }
            if let group, chown(path, uid_t.max, gid_t(group)) != 0 {
                throw ServerError(message: "can't set group \(group) on \(path): errno \(errno)")
            }
            return server
        case .inherited(let fd):
            return try await bootstrap.bind(fd, childChannelInitializer: initializer)
        }
    }

    private func serve(_ accepted: Accepted) async {
        let peer = accepted.peer
        let codec = VarlinkCodec()
        guard connections.acquire(uid: peer.uid, limit: limits.connectionsPerUser) else {
            logger.notice("connection refused: limit per user", metadata: ["peer": "\(peer)"])
            try? await accepted.channel.executeThenClose { _, outbound in
                try await outbound.write(codec.reply(error: .limitReached("connections-per-user")))
            }
            return
        }
        defer { connections.release(uid: peer.uid) }
        let outbox = Outbox(channel: accepted.channel.channel)
        var session = ConnectionSession(
            peer: peer, outbox: outbox, coordinator: coordinator, server: context,
            callsPerSecond: limits.callsPerSecond)
        do {
            // One task per connection: replies are written straight to the channel (see Outbox).
            try await accepted.channel.executeThenClose { inbound, _ in
                do {
                    for try await message in inbound { await session.handle(message) }
                } catch let error as FrameTooLong {
                    logger.notice("message too long, closing", metadata: ["peer": "\(peer)"])
                    outbox.yield(codec.reply(error: .limitReached("message-size (\(error.maximumLength) bytes)")))
                } catch {
                    logger.debug("connection ended", metadata: ["peer": "\(peer)", "error": "\(error)"])
                }
                await session.close()
            }
        } catch {
            await session.close()
            logger.debug("connection closed", metadata: ["peer": "\(peer)", "error": "\(error)"])
        }
    }
}

/// A failure to set up the listening socket.
public struct ServerError: Error, CustomStringConvertible {
    /// What went wrong and where.
    public let message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// A connection accepted, with who is at the other end.
struct Accepted: Sendable {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let peer: Peer

    /// Sets up framing and reads the peer's credentials (SO_PEERCRED).
    static func make(_ channel: any Channel, maximumLength: Int) -> EventLoopFuture<Accepted> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ServerError(message: "connection has no socket options"))
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.flatMapThrowing { credentials in
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(NULFrameDecoder(maximumLength: maximumLength)))
            try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(NULFrameEncoder()))
            let wrapped = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            return Accepted(channel: wrapped, peer: .of(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid))
        }
    }
}

/// `struct ucred` from SO_PEERCRED, laid out the same.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// Open connections per user, for the per-user limit.
final class ConnectionCounter: Sendable {
    private let counts = Mutex<[UInt32: Int]>([:])

    func acquire(uid: UInt32, limit: Int) -> Bool {
        counts.withLock { counts in
            let current = counts[uid, default: 0]
            guard current < limit else { return false }
            counts[uid] = current + 1
            return true
        }
    }

    func release(uid: UInt32) {
        counts.withLock { counts in
            counts[uid, default: 1] -= 1
            if counts[uid] == 0 { counts[uid] = nil }
        }
    }
}
