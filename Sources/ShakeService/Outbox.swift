import NIOCore

/// Where replies for one connection go: written to its channel at once, in order, without waiting.
///
/// Nothing waits on a client: a write is queued on the connection's event loop and the caller goes
/// on. A client that stops reading until more than the channel's write-buffer high-water mark is
/// queued is disconnected, so it can't hold memory without bound (or anyone up).
public struct Outbox: Sendable {
    let channel: any Channel

    /// Sends one reply (already encoded, without its NUL, which is appended here: the server's
    /// pipeline has no encoder); the returned future completes when the kernel has taken it (or the
    /// connection failed), for a shutdown that waits for the last replies.
    @discardableResult
    public func yield(_ reply: ByteBuffer) -> EventLoopFuture<Void> {
        guard channel.isWritable else {
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        var framed = reply
        framed.writeInteger(UInt8(0))
        return channel.writeAndFlush(framed)
    }
}
