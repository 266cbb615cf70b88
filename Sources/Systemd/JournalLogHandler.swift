import Logging
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler for a system service: structured journal records, or escaped lines on stderr.
///
/// Under systemd (stderr connected to the journal, as `JOURNAL_STREAM` shows) each record goes to the
/// journal with `sd_journal_sendv(3)` (``JournalRecord``): the message in `MESSAGE=` with its priority,
/// and each metadata value, such as an app's name, in a field of its own (`SHAKED_APP=`), so nothing a
/// client sent can forge a record. Should the journal socket fail, the record falls back to a
/// `<6>message key=value` line on stderr. Elsewhere lines are plain and timestamped (see ``LogLine``),
/// with control and bidi characters escaped. Each line is written with a single `write(2)`, so lines
/// from different threads never interleave.
///
/// ```swift
/// let format = LogLine.format()
/// LoggingSystem.bootstrap { label in JournalLogHandler(label: label, format: format) }
/// ```
public struct JournalLogHandler: LogHandler {
    /// The logger's label, shown in plain lines.
    public let label: String
    /// The shape of the lines.
    public let format: LogLine.Format
    /// Where lines go; stderr by default.
    public let fileDescriptor: Int32
    /// The least severe level written.
    public var logLevel: Logger.Level
    /// Metadata added to every record of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Supplies metadata at each log call, such as task-local values.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler; the format is detected from `JOURNAL_STREAM` and stderr when not given.
    public init(
        label: String, format: LogLine.Format? = nil, fileDescriptor: Int32 = STDERR_FILENO,
        logLevel: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.format = format ?? LogLine.format(for: fileDescriptor)
        self.fileDescriptor = fileDescriptor
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one record: handler metadata, then the provider's, then the call's, later ones winning.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error { merged["error"] = .string("\(error)") }
        if format == .journal {
            let record = JournalRecord(
                level: event.level, identifier: label, message: event.message.description, metadata: merged)
            if record.send() { return }
        }
        let text = LogLine.render(
            format: format, level: event.level, label: label, message: event.message.description, metadata: merged)
        Self.write(text, to: fileDescriptor)
    }

    /// Writes all of `text` with one `write(2)` (more only if the kernel takes part of it); swift-system
    /// retries EINTR, and a full pipe gets 100 ms to drain.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            do {
                let written = try bytes.withUnsafeBytes { try FileDescriptor(rawValue: fd).write($0) }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            } catch let error as Errno where error == .wouldBlock {
                var pending = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                if pollRetryingInterrupts(&pending, timeoutMilliseconds: 100) <= 0 { return }
            } catch {
                return  // Nowhere left to report a failing log; dropping the line is all that can be done.
            }
        }
    }
}
