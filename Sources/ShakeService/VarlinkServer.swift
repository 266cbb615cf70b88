import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
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
    let logger: Logger
    let onListening: @Sendable () -> Void

    /// Creates the server; `onListening` runs once the socket accepts connections. The limits are the
    /// context's, read for each new connection and call, so a reload applies them.
    public init(
        endpoint: Endpoint, coordinator: UndoCoordinator, context: ServerContext,
        logger: Logger, onListening: @escaping @Sendable () -> Void = {}
    ) {
        self.endpoint = endpoint
        self.coordinator = coordinator
        self.context = context
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
                    // Cancels the open prompt and waits until its app and agent have been sent that.
                    await coordinator.shutdown()
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

    /// The first SwiftNIO event loop (by index) that doesn't run a task within `timeout`; nil when
    /// every one does. For the watchdog.
    public static func stuckEventLoop(timeout: Duration) async -> Int? {
        for (index, loop) in MultiThreadedEventLoopGroup.singleton.makeIterator().enumerated() {
            let answered = await withTimeout(timeout) { (try? await loop.submit { true }.get()) == true }
            guard answered == true else { return index }
        }
        return nil
    }

    private func bind() async throws -> NIOAsyncChannel<Accepted, Never> {
        let context = self.context
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            // Calls are a few hundred bytes: start reads small, so a thousand idle subscribers
            // don't each hold a 2 KiB receive buffer. Reads still grow up to 64 KiB when needed.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536))
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Accepted> = { channel in
            Accepted.make(channel, maximumLength: context.limits().messageSize)
        }
        switch endpoint {
        case .path(let path, let mode, let group):
            let server: NIOAsyncChannel<Accepted, Never>
            do {
                server = try await bootstrap.bind(
                    unixDomainSocketPath: path, cleanupExistingSocketFile: true, childChannelInitializer: initializer)
            } catch {
                throw ServerError(message: "can't listen on \(path): \(error); check socket.path or --socket")
            }
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
        let limits = context.limits()
        if let limit = context.ledger.open(uid: peer.uid, limits: limits) {
            logger.notice("connection refused: limit reached", metadata: ["peer": "\(peer)", "limit": "\(limit)"])
            let outbox = Outbox(channel: accepted.channel.channel)
            try? await accepted.channel.executeThenClose { _ in
                try await outbox.yield(codec.reply(error: .limitReached(limit))).get()
            }
            return
        }
        defer { context.ledger.close(uid: peer.uid) }
        let channel = accepted.channel.channel
        let outbox = Outbox(channel: channel)
        var session = ConnectionSession(peer: peer, outbox: outbox, coordinator: coordinator, server: context)
        // A connection that completes no call in time is closed: it would only hold a slot.
        let idle = channel.eventLoop.scheduleTask(in: TimeAmount(limits.idleTimeout)) {
            channel.close(promise: nil)
        }
        do {
            // One task per connection: replies are written straight to the channel (see Outbox).
            try await accepted.channel.executeThenClose { inbound in
                do {
                    for try await message in inbound {
                        idle.cancel()
                        await session.handle(message)
                    }
                } catch let error as FrameTooLong {
                    logger.notice("message too long, closing", metadata: ["peer": "\(peer)"])
                    outbox.yield(codec.reply(error: .limitReached("message-size (\(error.maximumLength) bytes)")))
                } catch {
                    logger.debug("connection ended", metadata: ["peer": "\(peer)", "error": "\(error)"])
                }
                idle.cancel()
                await session.close()
            }
        } catch {
            idle.cancel()
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
    /// Inbound messages only: replies go straight to the channel through ``Outbox``, so no
    /// outbound writer is kept per connection.
    let channel: NIOAsyncChannel<ByteBuffer, Never>
    let peer: Peer

    /// Sets up framing and reads the peer's credentials (SO_PEERCRED) and groups (SO_PEERGROUPS).
    static func make(_ channel: any Channel, maximumLength: Int) -> EventLoopFuture<Accepted> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ServerError(message: "connection has no socket options"))
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        let groups: EventLoopFuture<PeerGroups> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
        // More groups than the buffer holds (ERANGE): only the primary group counts.
        let supplementary = groups.map(\.groups).recover { _ in [] }
        return credentials.and(supplementary).flatMapThrowing { credentials, supplementary in
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(NULFrameDecoder(maximumLength: maximumLength)))
            // No MessageToByteHandler: Outbox appends the NUL, so no encoder buffer stays per connection.
            let wrapped = try NIOAsyncChannel<ByteBuffer, Never>(wrappingChannelSynchronously: channel)
            let peer = Peer(
                pid: credentials.pid, uid: credentials.uid, groups: Set(supplementary).union([credentials.gid]))
            return Accepted(channel: wrapped, peer: peer)
        }
    }
}
