import Foundation
import TestSupport
import Testing
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile bytes on the socket: each row is what a client sends and the named varlink error the
/// real daemon must answer with. After any error but an oversized message the same connection
/// still works; an oversized message ends it. Framing, the codec and message decoding are all
/// crossed, as a client crosses them (`scripts/fuzz.sh varlink-framing` covers the same layers).
@Suite(.timeLimit(.minutes(2))) struct ProtocolBadInputTests {
    /// Bytes sent (the NUL that ends the message is added), the error expected, and one field it must carry.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var error: String
        var field: (key: String, value: String)?
        var closes = false
        var testDescription: String { name }
    }

    static let status = #"{"method":"io.shaked.Undo.GetStatus"}"#
    static let invalidParameter = "org.varlink.service.InvalidParameter"

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let rows: [Row] = [
        // Framing.
        Row(
            name: "a message longer than 64 KiB",
            bytes: json(#"{"method":"io.shaked.Undo.GetStatus","x":""#)
                + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000) + json(#""}"#),
            error: "io.shaked.Undo.LimitReached", field: ("limit", "message-size (65536 bytes)"), closes: true),
        Row(name: "an empty message", bytes: [], error: invalidParameter, field: ("parameter", "message")),
        // Not JSON, or not a call.
        Row(
            name: "invalid UTF-8",
            bytes: json(#"{"method":"io.shaked.Undo.GetStatus","x":""#) + [0xFF, 0xFE]
                + json(#""}"#), error: invalidParameter, field: ("parameter", "message")),
        Row(
            name: "invalid UTF-8 in a field that is read",
            bytes: json(#"{"method":"io.shaked.Undo.Subscribe","more":true,"parameters":{"app":"a.b","name":""#)
                + [0xC0, 0x80] + json(#""}}"#), error: invalidParameter, field: ("parameter", "message")),
        Row(
            name: "not JSON", bytes: json("GET / HTTP/1.1\r\n"), error: invalidParameter,
            field: ("parameter", "message")),
        Row(
            name: "an array", bytes: json(#"["io.shaked.Undo.GetStatus"]"#), error: invalidParameter,
            field: ("parameter", "message")),
        Row(
            name: "a string", bytes: json(#""io.shaked.Undo.GetStatus""#), error: invalidParameter,
            field: ("parameter", "message")),
        Row(name: "null", bytes: json("null"), error: invalidParameter, field: ("parameter", "message")),
        Row(
            name: "no method", bytes: json(#"{"parameters":{}}"#), error: invalidParameter,
            field: ("parameter", "message")),
        Row(
            name: "a method that is a number", bytes: json(#"{"method":7}"#), error: invalidParameter,
            field: ("parameter", "message")),
        Row(
            name: "JSON nested 10,000 deep",
            bytes: json(#"{"method":"io.shaked.Undo.GetStatus","parameters":{"a":"#)
                + [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
                + [UInt8](repeating: UInt8(ascii: "]"), count: 10_000)
                + json("}}"), error: invalidParameter, field: ("parameter", "message")),
        Row(
            name: "a trailing second document", bytes: json(Self.status + "{}"), error: invalidParameter,
            field: ("parameter", "message")),
        // Methods.
        Row(
            name: "an unknown method", bytes: json(#"{"method":"io.shaked.Undo.Nope"}"#),
            error: "org.varlink.service.MethodNotFound", field: ("method", "io.shaked.Undo.Nope")),
        Row(
            name: "an unknown interface", bytes: json(#"{"method":"com.example.Evil.Do"}"#),
            error: "org.varlink.service.InterfaceNotFound", field: ("interface", "com.example.Evil")),
        Row(
            name: "a method with no interface", bytes: json(#"{"method":""}"#),
            error: "org.varlink.service.InterfaceNotFound", field: ("interface", "")),
        Row(
            name: "a stream without more", bytes: json(#"{"method":"io.shaked.Undo.Monitor"}"#),
            error: "org.varlink.service.ExpectedMore", field: nil),
        Row(
            name: "an upgrade", bytes: json(#"{"method":"io.shaked.Undo.GetStatus","upgrade":true}"#),
            error: invalidParameter, field: ("parameter", "upgrade")),
        Row(
            name: "more that is a string", bytes: json(#"{"method":"io.shaked.Undo.GetStatus","more":"yes"}"#),
            error: invalidParameter, field: ("parameter", "message")),
        // Parameters.
        Row(
            name: "a parameter of the wrong type",
            bytes: json(#"{"method":"io.shaked.Undo.Subscribe","more":true,"parameters":{"app":5,"name":"N"}}"#),
            error: invalidParameter, field: ("parameter", "app")),
        Row(
            name: "a missing parameter",
            bytes: json(#"{"method":"io.shaked.Undo.SetContext","parameters":{"focused":true}}"#),
            error: invalidParameter, field: ("parameter", "token")),
        Row(
            name: "parameters that are a list",
            bytes: json(#"{"method":"io.shaked.Undo.SetContext","parameters":["t",true]}"#),
            error: invalidParameter, field: ("parameter", "parameters")),
        Row(
            name: "an enum value that does not exist",
            bytes: json(#"{"method":"io.shaked.Undo.RequestIntent","parameters":{"operation":"sideways"}}"#),
            error: invalidParameter, field: ("parameter", "operation")),
        Row(
            name: "a nested field of the wrong type",
            bytes: json(
                #"{"method":"io.shaked.Undo.AnswerIntent","parameters":{"token":"t","intent":"i","prompt":"#
                    + #"{"title":"Undo X","actions":[{"role":"undo","label":1,"destructive":false,"preferred":true}]}}}"#
            ), error: invalidParameter, field: ("parameter", "prompt.actions.label")),
        Row(
            name: "a number too large for any type, where a string belongs",
            bytes: json(
                #"{"method":"io.shaked.Undo.Choose","parameters":{"token":1e999,"intent":"i","choice":"undo"}}"#),
            error: invalidParameter, field: ("parameter", "token")),
    ]

    @Test(
        "hostile bytes get a named error, and the connection carries on unless the frame was too long", arguments: rows)
    func badInput(_ row: Row) throws {
        let daemon = try RunningDaemon(arguments: ["--demo", "--config", "/dev/null"])
        let connection = try RawConnection(path: daemon.socket)
        try connection.send(row.bytes + [0])
        let reply = try #require(try connection.receive(), "no reply to \(row.name)\n\(daemon.log)")
        #expect(reply["error"] as? String == row.error, "\(reply)")
        if let field = row.field {
            let parameters = reply["parameters"] as? [String: Any]
            #expect(parameters?[field.key] as? String == field.value, "\(reply)")
        }
        if row.closes {
            #expect(try connection.receive() == nil, "the connection stays open after an oversized message")
        } else {
            try connection.send(Self.json(Self.status) + [0])
            let next = try #require(try connection.receive(), "the connection closed after \(row.name)")
            #expect(next["error"] == nil, "\(next)")
            #expect((next["parameters"] as? [String: Any])?["status"] != nil, "\(next)")
        }
        #expect(daemon.isRunning, "\(daemon.log)")
    }
}

/// A Unix stream socket speaking raw varlink bytes, with a 10 s receive timeout.
final class RawConnection {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            offset += written
        }
    }

    /// The next message as a JSON object, or nil when the daemon closed the connection.
    func receive() throws -> [String: Any]? {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeFirst(end + 1)
                return try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any]
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == ECONNRESET { return nil }
            guard count >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            if count == 0 { return nil }
            pending += chunk[..<count]
        }
    }
}
