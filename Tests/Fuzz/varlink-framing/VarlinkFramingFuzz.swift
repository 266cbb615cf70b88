// Fuzz target: the varlink NUL framing and codec, as the daemon and the client meet them.
//
// Like systemd's src/fuzz/fuzz-varlink.c, the input is a raw byte stream that arrives in
// short, partial reads: the first byte chooses the read size (1-16 bytes), the rest is the
// stream. Every frame is decoded as a call (header, then the parameters of every method) and
// as a reply; whatever decodes is encoded again and must decode to the same value. A trap,
// an ASan report or a broken round trip is a finding. Built by scripts/fuzz.sh.
import Foundation
import NIOCore
import NIOEmbedded
import UndoProtocol

/// The daemon's and the client's decoder limit is 64 KiB; a small one here reaches the
/// too-long path with libFuzzer's default input sizes.
let maximumLength = 512
let codec = VarlinkCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let readSize = Int(input[0] % 16) + 1
    let stream = input.dropFirst()

    let channel = EmbeddedChannel()
    defer { _ = try? channel.finish() }
    do {
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(NULFrameDecoder(maximumLength: maximumLength)))
    } catch {
        fatalError("cannot set up the pipeline: \(error)")
    }
    var offset = stream.startIndex
    var closed = false
    while offset < stream.endIndex, !closed {
        let end = min(offset + readSize, stream.endIndex)
        let chunk = ByteBuffer(bytes: stream[offset..<end])
        offset = end
        do {
            try channel.writeInbound(chunk)
        } catch is FrameTooLong {
            closed = true  // the server answers LimitReached and closes; nothing more is read
        } catch {
            fatalError("the decoder threw something other than FrameTooLong: \(error)")
        }
        while let frame = try? channel.readInbound(as: ByteBuffer.self) {
            require(frame.readableBytes <= maximumLength, "a frame longer than the limit got through")
            require(!frame.readableBytesView.contains(0), "a frame holds a NUL")
            check(frame)
        }
    }
    return 0
}

/// Decodes one frame every way a peer can, and round-trips whatever decodes.
func check(_ frame: ByteBuffer) {
    if let header = try? codec.header(of: frame) {
        require(String(validating: frame.readableBytesView, as: UTF8.self) != nil, "a call that is not UTF-8 decoded")
        // Re-encoding the header through a call with no parameters must keep the method.
        let again = codec.call(header.method, NoParameters(), more: header.more == true)
        guard let reread = try? codec.header(of: again) else { fatalError("re-encoded call does not decode") }
        require(reread.method == header.method, "method changed in a round trip")
    }
    roundTrip(SubscribeParameters.self, frame)
    roundTrip(SetContextParameters.self, frame)
    roundTrip(ChooseParameters.self, frame)
    roundTrip(ReportResultParameters.self, frame)
    roundTrip(RequestIntentParameters.self, frame)
    roundTrip(RegisterAgentParameters.self, frame)
    roundTrip(InterfaceDescriptionParameters.self, frame)
    roundTrip(SetPreferencesParameters.self, frame)
    if let answer = roundTrip(AnswerIntentParameters.self, frame) {
        for operation in Operation.allCases {
            for language in PromptLanguage.allCases {
                _ = try? PromptRules.check(answer.prompt, operation: operation, language: language)
            }
        }
    }
    // The client side: the same bytes as a reply (or an error reply) from the daemon.
    _ = try? codec.decodeReply(SubscribeReply.self, from: frame)
    _ = try? codec.decodeReply(GetStatusReply.self, from: frame)
    _ = try? codec.decodeReply(RegisterAgentReply.self, from: frame)
    _ = try? codec.decodeReply(MonitorReply.self, from: frame)
}

/// Decodes `P` from the frame (its field rules checked); if it decodes, it must survive
/// encode-then-decode unchanged.
@discardableResult
func roundTrip<P: CheckedParameters & Codable & Equatable>(_ type: P.Type, _ frame: ByteBuffer) -> P? {
    let parameters: P
    do {
        parameters = try codec.parameters(P.self, of: frame)
    } catch {
        require(error.name == "org.varlink.service.InvalidParameter", "unexpected error \(error)")
        require(!(error.parameters["parameter"] ?? "").isEmpty, "InvalidParameter names no parameter")
        return nil
    }
    let encoded = codec.call("io.shaked.Fuzz.Method", parameters)
    guard let decoded = try? codec.parameters(P.self, of: encoded) else {
        fatalError("\(P.self) decoded, but its own encoding does not: \(String(buffer: encoded))")
    }
    require(decoded == parameters, "\(P.self) changed in a round trip")
    // The reply form goes through the client's decoder.
    let reply = codec.reply(parameters)
    guard let (fromReply, _) = try? codec.decodeReply(P.self, from: reply), fromReply == parameters else {
        fatalError("\(P.self) does not round-trip as a reply")
    }
    return parameters
}

/// A broken promise: unlike `precondition`, keeps its message in an optimized build.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
