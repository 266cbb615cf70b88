#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import NIOCore

/// Turns varlink messages into JSON bytes and back, naming the parameter at fault on failure.
public struct VarlinkCodec: Sendable {
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    /// One codec for a whole process: coding keeps no state between calls, and each codec holds a
    /// `JSONEncoder` and a `JSONDecoder`, which a codec per connection would pay for every time.
    public static let shared = VarlinkCodec()

    /// Creates a codec; keys are written sorted so output is stable.
    public init() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// Reads the method and flags of a call; throws `InvalidParameter(message)` when the bytes
    /// aren't a JSON object with a string `method`, or aren't all UTF-8 (JSONDecoder alone let
    /// invalid bytes through in fields it skipped, and repaired them in the ones it read).
    public func header(of message: ByteBuffer) throws(VarlinkError) -> VarlinkCallHeader {
        guard String(validating: message.readableBytesView, as: UTF8.self) != nil else {
            throw .invalidParameter("message")
        }
        do {
            return try decoder.decode(VarlinkCallHeader.self, from: Data(message.readableBytesView))
        } catch {
            throw .invalidParameter("message")
        }
    }

    /// Reads a call's parameters as `P` (omitted or null parameters read as `{}`), then checks
    /// every field against its ``FieldRule``: nothing unchecked gets past here.
    public func parameters<P: CheckedParameters>(_ type: P.Type, of message: ByteBuffer) throws(VarlinkError) -> P {
        let parameters = try decodeParameters(type, of: message)
        try parameters.check()
        return parameters
    }

    private func decodeParameters<P: Decodable>(_ type: P.Type, of message: ByteBuffer) throws(VarlinkError) -> P {
        do {
            let envelope = try decoder.decode(ParametersEnvelope<P>.self, from: Data(message.readableBytesView))
            if let parameters = envelope.parameters { return parameters }
            return try decoder.decode(P.self, from: Data("{}".utf8))
        } catch let error as DecodingError {
            throw .invalidParameter(Self.parameterName(error))
        } catch {
            throw .invalidParameter("parameters")
        }
    }

    /// Writes a reply.
    public func reply<P: Encodable>(_ parameters: P, continues: Bool = false) -> ByteBuffer {
        encode(ReplyOut(parameters: parameters, continues: continues ? true : nil, error: nil))
    }

    /// Writes an error reply.
    public func reply(error: VarlinkError) -> ByteBuffer {
        encode(ReplyOut(parameters: error.parameters, continues: nil, error: error.name))
    }

    /// Writes a call.
    public func call<P: Encodable>(_ method: String, _ parameters: P, more: Bool = false) -> ByteBuffer {
        encode(CallOut(method: method, parameters: parameters, more: more ? true : nil))
    }

    /// Reads a reply: its parameters as `P`, whether more follow, or the error it carries.
    public func decodeReply<P: Decodable>(_ type: P.Type, from message: ByteBuffer) throws -> (P, continues: Bool) {
        let data = Data(message.readableBytesView)
        let head = try decoder.decode(ReplyHead.self, from: data)
        if let name = head.error {
            let fields = (try? decoder.decode(ErrorEnvelope.self, from: data))?.parameters ?? [:]
            throw VarlinkError(name, fields)
        }
        let envelope = try decoder.decode(ParametersEnvelope<P>.self, from: data)
        let parameters = try envelope.parameters ?? decoder.decode(P.self, from: Data("{}".utf8))
        return (parameters, head.continues ?? false)
    }

    private func encode<T: Encodable>(_ value: T) -> ByteBuffer {
        // Encoding our own Codable types can't fail: no floats are non-finite, no keys are odd.
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"org.varlink.service.InvalidParameter"}"#.utf8)
        return ByteBuffer(bytes: data)
    }

    /// The dotted path of the field a decoding error is about, such as `prompt.actions`.
    static func parameterName(_ error: DecodingError) -> String {
        func name(_ path: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            var keys = path.map(\.stringValue)
            if let key { keys.append(key.stringValue) }
            if keys.first == "parameters" { keys.removeFirst() }
            let joined = keys.filter { Int($0) == nil && !$0.hasPrefix("Index ") }.joined(separator: ".")
            return joined.isEmpty ? "parameters" : joined
        }
        switch error {
        case .keyNotFound(let key, let context): return name(context.codingPath, key)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return name(context.codingPath)
        @unknown default: return "parameters"
        }
    }
}

private struct ParametersEnvelope<P: Decodable>: Decodable {
    var parameters: P?
}

private struct ErrorEnvelope: Decodable {
    var parameters: [String: String]?
}

private struct ReplyHead: Decodable {
    var continues: Bool?
    var error: String?
}

private struct ReplyOut<P: Encodable>: Encodable {
    var parameters: P
    var continues: Bool?
    var error: String?
}

private struct CallOut<P: Encodable>: Encodable {
    var method: String
    var parameters: P
    var more: Bool?
}
