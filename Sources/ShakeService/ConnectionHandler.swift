import Logging
import NIOCore
import UndoProtocol

/// One client connection on its event loop: takes the framed calls, runs them in order on a task
/// that exists only while calls wait, and holds reads while too many are queued.
///
/// An idle connection (a subscribed app waiting for a shake) costs its channel, this handler and
/// its ``ConnectionSession``, and no task: a resident task per connection, with its async stream
/// and frames, cost more than half of each subscriber's memory. The queue, the flags and the idle
/// timer belong to the event loop; the session belongs to the one draining task (see
/// ``SessionSlot``).
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What waits in the queue: a call, or the message that broke the size limit.
    enum Inbound {
        case call(ByteBuffer)
        case tooLong(FrameTooLong)
    }

    /// What the draining task does next.
    enum Step {
        case handle(Inbound)
        /// The connection closed and every queued call was handled: end the session.
        case close
        /// Nothing queued: the task ends (a later call starts another).
        case idle
    }

    /// Reads stop at this many queued calls, or ``maximumQueuedBytes`` of them, and resume at
    /// ``lowWatermark``: a client that floods the socket fills its own kernel buffer, not the daemon.
    static let highWatermark = 10
    static let lowWatermark = 2
    /// With the read that crosses it, a connection's queue holds at most twice this (two messages of
    /// the largest size), however large the calls a client sends.
    static let maximumQueuedBytes = 64 * 1024

    private let slot: SessionSlot
    private let idleTimeout: TimeAmount
    private let logger: Logger
    private var queue = CircularBuffer<Inbound>(initialCapacity: 2)
    private var queuedBytes = 0
    private var draining = false
    private var inactive = false
    /// After an oversized message: nothing more can be framed safely, so nothing more is read or queued.
    private var discarding = false
    /// The session's end has been handed to the draining task.
    private var closing = false
    private var readHeld = false
    private var idleTimer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// Creates the handler; `slot` holds the session the calls go to.
    init(slot: SessionSlot, idleTimeout: TimeAmount, logger: Logger) {
        self.slot = slot
        self.idleTimeout = idleTimeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // A connection that completes no call in time is closed: it would only hold a slot.
        let channel = context.channel
        idleTimer = context.eventLoop.scheduleTask(in: idleTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !discarding else { return }
        cancelIdleTimer()
        enqueue(.call(unwrapInboundIn(data)), on: context.eventLoop)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelIdleTimer()
        inactive = true
        startDraining(on: context.eventLoop)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After an oversized message the decoder reports every later read too; the refusal is queued.
        guard !discarding else { return }
        if let error = error as? FrameTooLong {
            // Answered in turn, after the calls before it; then the connection closes. Nothing after
            // it can be framed safely, so no more is read or queued.
            discarding = true
            enqueue(.tooLong(error), on: context.eventLoop)
        } else {
            logger.debug("connection failed", metadata: ["peer": "\(slot.peer)", "error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        guard !discarding else { return }
        if isFull {
            readHeld = true
        } else {
            context.read()
        }
    }

    private var isFull: Bool { queue.count >= Self.highWatermark || queuedBytes >= Self.maximumQueuedBytes }

    private func cancelIdleTimer() {
        idleTimer?.cancel()
        idleTimer = nil
    }

    private func enqueue(_ inbound: Inbound, on loop: any EventLoop) {
        if case .call(let message) = inbound { queuedBytes += message.readableBytes }
        queue.append(inbound)
        startDraining(on: loop)
    }

    /// Starts the draining task unless one runs; the task asks ``next()`` for each step.
    private func startDraining(on loop: any EventLoop) {
        guard !draining, !closing else { return }
        draining = true
        let handler = NIOLoopBound(self, eventLoop: loop)
        let slot = self.slot
        Task {
            while true {
                let step = try? await handler.eventLoop.submit { handler.value.next() }.get()
                switch step {
                case .handle(.call(let message)):
                    await slot.session.handle(message)
                case .handle(.tooLong(let error)):
                    slot.refuse(error)
                case .close:
                    await slot.end()
                    return
                case .idle, nil:
                    return
                }
            }
        }
    }

    /// On the event loop: the next step for the draining task.
    private func next() -> Step {
        if let inbound = queue.popFirst() {
            if case .call(let message) = inbound { queuedBytes -= message.readableBytes }
            if readHeld, !discarding, queue.count <= Self.lowWatermark, queuedBytes < Self.maximumQueuedBytes {
                readHeld = false
                context?.read()
            }
            return .handle(inbound)
        }
        if inactive {
            closing = true
            return .close
        }
        draining = false
        return .idle
    }
}

/// A connection's session, used by one task at a time: the handler starts a draining task only
/// after the previous one has ended (both decided on the event loop), so the session is never
/// touched by two tasks at once.
final class SessionSlot: @unchecked Sendable {
    /// The connection's calls and what they started.
    var session: ConnectionSession
    /// Who is at the other end.
    let peer: Peer
    private let context: ServerContext
    private let logger: Logger

    init(session: ConnectionSession, context: ServerContext, logger: Logger) {
        self.session = session
        self.peer = session.peer
        self.context = context
        self.logger = logger
    }

    /// Answers a message over the size limit, then closes the connection.
    func refuse(_ error: FrameTooLong) {
        logger.notice("message too long, closing", metadata: ["peer": "\(peer)"])
        let outbox = session.outbox
        outbox.yield(VarlinkCodec.shared.reply(error: .limitReached("message-size (\(error.maximumLength) bytes)")))
            .whenComplete { _ in outbox.channel.close(promise: nil) }
    }

    /// Ends what the connection started and gives its place in the ledger back.
    func end() async {
        await session.close()
        context.ledger.close(uid: peer.uid)
        logger.debug("connection closed", metadata: ["peer": "\(peer)"])
    }
}
