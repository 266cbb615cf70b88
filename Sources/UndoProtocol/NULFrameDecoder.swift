import NIOCore

/// Splits a varlink byte stream into messages: each is the bytes before a NUL.
///
/// A message longer than ``maximumLength`` without its NUL is a protocol error:
/// ``FrameTooLong`` is thrown and the connection is closed by its owner, since the stream
/// can't be resynchronized safely. Bytes left without a NUL when the peer closes are dropped.
public struct NULFrameDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = ByteBuffer

    /// The largest message accepted, in bytes (64 KiB by default).
    public let maximumLength: Int

    /// Creates a decoder accepting messages up to `maximumLength` bytes.
    public init(maximumLength: Int = 64 * 1024) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let end = buffer.readableBytesView.firstIndex(of: 0) else {
            if buffer.readableBytes > maximumLength { throw FrameTooLong(maximumLength: maximumLength) }
            return .needMoreData
        }
        let length = end - buffer.readerIndex
        if length > maximumLength {
            throw FrameTooLong(maximumLength: maximumLength)
        }
        let frame = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.clear()
        return .needMoreData
    }
}

/// A message exceeded the size limit before its terminating NUL.
public struct FrameTooLong: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit, in bytes.
    public let maximumLength: Int
    /// Names the limit.
    public var description: String { "varlink message longer than \(maximumLength) bytes" }
}

/// Appends the NUL that ends a varlink message.
public struct NULFrameEncoder: MessageToByteEncoder, Sendable {
    public typealias OutboundIn = ByteBuffer

    /// Creates the encoder.
    public init() {}

    public func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        var data = data
        out.writeBuffer(&data)
        out.writeInteger(UInt8(0))
    }
}
