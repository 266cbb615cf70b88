import Foundation
import Logging
import Systemd
import TestSupport
import Testing

/// Journal-style log lines: detection from JOURNAL_STREAM, priorities, formatting, whole-line writes.
@Suite struct JournalLogHandlerTests {
    /// A real file and its device and inode as another implementation (Foundation) reads them.
    static func fileWithIdentity() throws -> (fd: Int32, identity: String, path: String) {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("stream").path
        let fd = open(path, O_CREAT | O_RDWR | O_APPEND | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let device = try #require(attributes[.systemNumber] as? Int)
        let inode = try #require(attributes[.systemFileNumber] as? Int)
        return (fd, "\(device):\(inode)", path)
    }

    @Test("JOURNAL_STREAM selects the journal format only for the very file it names")
    func detection() throws {
        let (fd, identity, _) = try Self.fileWithIdentity()
        defer { close(fd) }
        let (other, otherIdentity, _) = try Self.fileWithIdentity()
        defer { close(other) }
        #expect(LogLine.format(for: fd, journalStream: identity) == .journal)
        #expect(LogLine.format(for: other, journalStream: otherIdentity) == .journal)
        #expect(LogLine.format(for: fd, journalStream: otherIdentity) == .plain)
        #expect(LogLine.format(for: fd, journalStream: nil) == .plain)
        for malformed in ["", "12", "a:b", "1:2:3", identity + "x"] {
            #expect(LogLine.format(for: fd, journalStream: malformed) == .plain, "\(malformed)")
        }
        #expect(LogLine.format(for: 987, journalStream: identity) == .plain)
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func priority(level: Logger.Level, expected: Int) {
        #expect(LogLine.priority(level) == expected)
        let line = LogLine.render(format: .journal, level: level, label: "shaked", message: "m", metadata: [:])
        #expect(line == "<\(expected)>m\n")
    }

    /// A record and its line in each format (the plain timestamp fixed to T).
    static let lines: [(Logger.Level, String, Logger.Metadata, String, String)] = [
        (.info, "sensor found", [:], "<6>sensor found\n", "T info shaked: sensor found\n"),
        (
            .warning, "client refused", ["uid": "1000", "action": "monitor"],
            "<4>client refused action=monitor uid=1000\n", "T warning shaked: client refused action=monitor uid=1000\n"
        ),
        (
            .error, "bad file", ["path": "/etc/my conf", "why": "a \"quote\"", "empty": ""],
            "<3>bad file empty=\"\" path=\"/etc/my conf\" why=\"a \\\"quote\\\"\"\n",
            "T error shaked: bad file empty=\"\" path=\"/etc/my conf\" why=\"a \\\"quote\\\"\"\n"
        ),
        (
            .notice, "two\nlines", ["k": .array(["a", "b c"])], "<5>two\n<5>lines k=\"[a, b c]\"\n",
            "T notice shaked: two\n    lines k=\"[a, b c]\"\n"
        ),
        (
            .debug, "map", ["d": .dictionary(["y": "2", "x": "1"])], "<7>map d=\"{x: 1, y: 2}\"\n",
            "T debug shaked: map d=\"{x: 1, y: 2}\"\n"
        ),
    ]

    @Test(arguments: lines)
    func render(level: Logger.Level, message: String, metadata: Logger.Metadata, journal: String, plain: String) {
        #expect(
            LogLine.render(format: .journal, level: level, label: "shaked", message: message, metadata: metadata)
                == journal)
        #expect(
            LogLine.render(
                format: .plain, level: level, label: "shaked", message: message, metadata: metadata, timestamp: "T")
                == plain)
    }

    @Test("plain timestamps are local time with milliseconds")
    func timestamp() {
        let moment = timespec(tv_sec: 1_795_255_200, tv_nsec: 123_456_789)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let expected = formatter.string(from: Date(timeIntervalSince1970: 1_795_255_200)) + ".123"
        #expect(LogLine.timestamp(moment) == expected)
        #expect(LogLine.timestamp().count == expected.count)
    }

    @Test("a Logger with the handler writes filtered, merged, escaped records to its descriptor")
    func handlerWrites() throws {
        let (fd, _, path) = try Self.fileWithIdentity()
        defer { close(fd) }
        var logger = Logger(label: "shaked") { label in
            JournalLogHandler(label: label, format: .plain, fileDescriptor: fd, logLevel: .info)
        }
        logger[metadataKey: "unit"] = "test"
        logger.debug("hidden")
        logger.info("shown", metadata: ["n": "1", "unit": "override", "app": "evil\r\u{1B}[2J\u{202E}\0"])
        logger.error("failed")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(#"info shaked: shown app="evil\u{d}\u{1b}[2J\u{202e}\u{0}" n=1 unit=override"#))
        #expect(lines[1].hasSuffix("error shaked: failed unit=test"))
    }

    @Test("a journal record keeps client text out of MESSAGE, in fields of its own")
    func journalRecordFields() {
        let record = JournalRecord(
            level: .notice, identifier: "shaked", message: "subscribed",
            metadata: ["app": "x\n<0>forged", "peer-pid": "uid 1000 pid 7"])
        #expect(record.fields.map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "SHAKED_APP", "SHAKED_PEER_PID"])
        #expect(record.fields.map(\.value) == ["subscribed", "5", "shaked", "x\n<0>forged", "uid 1000 pid 7"])
    }

    @Test("records from many threads stay whole lines (one write each)")
    func lineAtomic() throws {
        let (fd, _, path) = try Self.fileWithIdentity()
        defer { close(fd) }
        let handler = JournalLogHandler(label: "shaked", format: .plain, fileDescriptor: fd, logLevel: .trace)
        let payload = String(repeating: "x", count: 300)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            let logger = Logger(label: "shaked") { _ in handler }
            for i in 0..<200 { logger.info("\(payload)", metadata: ["t": "\(t)", "i": "\(i)"]) }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1600)
        let pattern = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} info shaked: x{300} i=\d+ t=\d$/
        #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil })
    }
}
