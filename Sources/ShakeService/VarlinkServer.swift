import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import ShakedConfiguration
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The varlink server on a Unix stream socket, as a `Service`.
///
/// Each connection is a ``ConnectionHandler`` behind the ``NULFrameDecoder``: calls run in order
/// on a task that exists only while calls wait, so an idle subscriber costs no task (see the
/// handler). Each connection catches its own errors. On graceful shutdown the coordinator cancels
/// the open prompt (the app is told), the replies already queued are flushed, and the socket closes.
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
        // Serves until the daemon stops (or the socket fails); then the open prompt is cancelled: its
        // app and agent are told, on their own connections, and those writes are awaited.
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await server.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            server.close(promise: nil)
        }
        await coordinator.shutdown()
        if case .path(let path, _, _) = endpoint { unlink(path) }
    }

    /// The first SwiftNIO event loop (by index) that doesn't run a task within `timeout`; nil when
    /// every one does. For the watchdog.
    public static func stuckEventLoop(timeout: Duration) async -> Int? {
        for (index, loop) in MultiThreadedEventLoopGroup.singleton.makeIterator().enumerated() {
            let answered = await withTimeout(timeout) { (try? await loop.submit { true }.get()) == true }
            guard answered == true else { return index }
        }
        return nil
    }

    private func bind() async throws -> any Channel {
        let (context, coordinator, logger) = (self.context, self.coordinator, self.logger)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            // Calls are a few hundred bytes: start reads small, so a thousand idle subscribers
            // don't each hold a 2 KiB receive buffer. Reads still grow up to 64 KiB when needed.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536))
            .childChannelInitializer { channel in
                Connection.setUp(channel, coordinator: coordinator, context: context, logger: logger)
            }
        switch endpoint {
        case .path(let path, let mode, let group):
            let server: any Channel
            do {
                server = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
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
            return try await bootstrap.withBoundSocket(fd).get()
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

/// Setting up an accepted connection.
enum Connection {
    /// Reads the peer's credentials (SO_PEERCRED) and groups (SO_PEERGROUPS), counts the connection
    /// in the ledger (or refuses it: an error reply, then close), and installs the framing and the
    /// ``ConnectionHandler``.
    static func setUp(
        _ channel: any Channel, coordinator: UndoCoordinator, context: ServerContext, logger: Logger
    ) -> EventLoopFuture<Void> {
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
            let peer = Peer(
                pid: credentials.pid, uid: credentials.uid, groups: Set(supplementary).union([credentials.gid]))
            let limits = context.limits()
            // No MessageToByteHandler: Outbox appends the NUL, so no encoder buffer stays per connection.
            let outbox = Outbox(channel: channel)
            if let limit = context.ledger.open(uid: peer.uid, limits: limits) {
                logger.notice("connection refused: limit reached", metadata: ["peer": "\(peer)", "limit": "\(limit)"])
                outbox.yield(VarlinkCodec.shared.reply(error: .limitReached(limit))).whenComplete { _ in
                    channel.close(promise: nil)
                }
                return
            }
            let session = ConnectionSession(peer: peer, outbox: outbox, coordinator: coordinator, server: context)
            try channel.pipeline.syncOperations.addHandlers(
                ByteToMessageHandler(NULFrameDecoder(maximumLength: ShakedSettings.Limits.messageSize)),
                ConnectionHandler(
                    slot: SessionSlot(session: session, context: context, logger: logger),
                    idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9)), logger: logger))
        }
    }
}
