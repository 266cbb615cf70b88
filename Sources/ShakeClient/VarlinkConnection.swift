import NIOCore
import NIOPosix
import UndoProtocol

/// One varlink connection to a Unix socket: calls are sent and answered in order.
///
/// A connection is scoped: ``withConnection(to:eventLoopGroup:isolation:_:)`` opens it, hands
/// it to a closure, and closes it when the closure returns or throws. It is deliberately not
/// `Sendable`: varlink answers calls on one connection in the order they were made, so one
/// task owns it and makes one call at a time. A client that holds a streaming call open
/// (``stream(_:_:of:)``) makes its other calls on a second connection, as the protocol requires.
///
/// ```swift
/// try await VarlinkConnection.withConnection(to: "/run/shaked/io.shaked.Undo") { connection in
///     let reply = try await connection.call(.getStatus, NoParameters(), returning: GetStatusReply.self)
///     print(reply.status.subscribers)
///     for try await reply in try await connection.stream(.monitor, NoParameters(), of: MonitorReply.self) {
///         print(reply.event)
///     }
/// }
/// ```
///
/// Errors: a reply carrying a varlink error throws that ``VarlinkError`` (such as
/// `io.shaked.Undo.NoContext`); anything wrong with the connection itself throws a
/// ``VarlinkConnectionError``.
public final class VarlinkConnection {
    /// The largest reply accepted, in bytes.
    public static let maximumReplyLength = 1024 * 1024

    /// The socket this connection goes to.
    public let path: String
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let codec = VarlinkCodec()
    /// Set while a streaming call has replies still to come; no other call may be made then.
    private var streaming = false

    private init(
        path: String, inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.path = path
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Connects to the varlink service listening on the Unix socket at `path` (`connect(2)`),
    /// runs `body` with the connection, and closes it afterwards.
    ///
    /// Throws ``VarlinkConnectionError`` with code `socketMissing` when nothing is at the path,
    /// `refused` when nothing listens there, `permissionDenied` when the socket's mode or group
    /// keeps this user out; otherwise whatever `body` throws. The connection must not be used
    /// after `body` returns.
    public static func withConnection<Result>(
        to path: String, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (VarlinkConnection) async throws -> sending Result
    ) async throws -> sending Result {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: eventLoopGroup)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(
                            ByteToMessageHandler(NULFrameDecoder(maximumLength: maximumReplyLength)))
                        try pipeline.addHandler(MessageToByteHandler(NULFrameEncoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw VarlinkConnectionError(connecting: path, error)
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(VarlinkConnection(path: path, inbound: inbound, outbound: outbound))
        }
    }

    /// Calls `method` and returns its one reply, decoded as `R`.
    ///
    /// Throws the ``VarlinkError`` the service answered with, or ``VarlinkConnectionError``
    /// when the connection closed or the reply was not what the interface promises.
    nonisolated(nonsending) public func call<R: Decodable>(
        _ method: String, _ parameters: some Encodable, returning type: R.Type = NoParameters.self
    ) async throws -> R {
        try await send(codec.call(method, parameters), method: method)
        let (reply, _) = try await receive(type, method: method)
        return reply
    }

    /// Calls a method of `io.shaked.Undo` (or `io.shaked.Demo`) and returns its one reply.
    nonisolated(nonsending) public func call<R: Decodable>(
        _ method: UndoInterface.Method, _ parameters: some Encodable, returning type: R.Type = NoParameters.self
    ) async throws -> R {
        try await call(method.rawValue, parameters, returning: type)
    }

    /// Calls `method` with `more` and returns its replies as they come, each decoded as `R`.
    ///
    /// The sequence ends after the reply without `continues`, and throws the ``VarlinkError``
    /// the service answers with. While it runs, this connection can make no other call.
    nonisolated(nonsending) public func stream<R: Decodable>(
        _ method: String, _ parameters: some Encodable, of type: R.Type
    ) async throws -> VarlinkReplies<R> {
        try await send(codec.call(method, parameters, more: true), method: method)
        streaming = true
        return VarlinkReplies(connection: self, method: method)
    }

    /// Calls a streaming method of `io.shaked.Undo` (`Subscribe`, `Monitor`, `RegisterAgent`).
    nonisolated(nonsending) public func stream<R: Decodable>(
        _ method: UndoInterface.Method, _ parameters: some Encodable, of type: R.Type
    ) async throws -> VarlinkReplies<R> {
        try await stream(method.rawValue, parameters, of: type)
    }

    nonisolated(nonsending) private func send(_ message: ByteBuffer, method: String) async throws {
        guard !streaming else { throw VarlinkConnectionError(.busy, path: path, method: method) }
        do {
            try await outbound.write(message)
        } catch {
            throw VarlinkConnectionError(.closed, path: path, method: method, underlying: error)
        }
    }

    /// Reads the next reply; throws the varlink error it carries.
    nonisolated(nonsending) fileprivate func receive<R: Decodable>(
        _ type: R.Type, method: String
    ) async throws -> (R, continues: Bool) {
        let message: ByteBuffer?
        do {
            message = try await inbound.next(isolation: #isolation)
        } catch let error as CancellationError {
            throw error
        } catch let error as FrameTooLong {
            throw VarlinkConnectionError(.protocolViolation, path: path, method: method, underlying: error)
        } catch {
            throw VarlinkConnectionError(.closed, path: path, method: method, underlying: error)
        }
        guard let message else { throw VarlinkConnectionError(.closed, path: path, method: method) }
        do {
            let (reply, continues) = try codec.decodeReply(type, from: message)
            streaming = continues
            return (reply, continues)
        } catch let error as VarlinkError {
            streaming = false
            throw error
        } catch {
            streaming = false
            throw VarlinkConnectionError(.protocolViolation, path: path, method: method, underlying: error)
        }
    }
}

/// The replies of a streaming call, in order; ends after the last one.
///
/// Like its ``VarlinkConnection``, it belongs to one task.
public struct VarlinkReplies<Reply: Decodable>: AsyncSequence {
    /// Each reply's parameters.
    public typealias Element = Reply

    fileprivate let connection: VarlinkConnection
    fileprivate let method: String

    /// Reads replies until the one without `continues`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let connection: VarlinkConnection
        fileprivate let method: String
        fileprivate var finished = false

        /// The next reply, or nil after the last one.
        nonisolated(nonsending) public mutating func next() async throws -> Reply? {
            guard !finished else { return nil }
            do {
                let (reply, continues) = try await connection.receive(Reply.self, method: method)
                finished = !continues
                return reply
            } catch {
                finished = true
                throw error
            }
        }
    }

    /// Starts reading replies.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(connection: connection, method: method)
    }
}

@available(*, unavailable)
extension VarlinkReplies: Sendable {}

@available(*, unavailable)
extension VarlinkConnection: Sendable {}
