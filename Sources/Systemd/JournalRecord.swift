import CSystemd
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One record for the journal's native protocol, sent with libsystemd's `sd_journal_sendv(3)`.
///
/// The message is the daemon's own text. Everything else, client-supplied text above all, goes in
/// fields of its own (`SHAKED_APP=`, `SHAKED_PEER=`), never into `MESSAGE=`: a field is
/// length-delimited, so a NUL, a newline followed by `<0>` or an escape sequence in it can't forge
/// a record, change a priority or reach a terminal that shows the message.
/// `journalctl -o verbose` (or `-o json`) shows the fields.
public struct JournalRecord: Sendable {
    /// `FIELD=value` pairs in order, starting with `MESSAGE`, `PRIORITY` and `SYSLOG_IDENTIFIER`.
    public private(set) var fields: [(name: String, value: String)]

    /// A record of `message` at `level`; `metadata` keys become `SHAKED_<KEY>` fields (upper case,
    /// other characters than letters and digits turned into `_`).
    public init(level: Logger.Level, identifier: String, message: String, metadata: Logger.Metadata) {
        fields = [
            ("MESSAGE", message), ("PRIORITY", String(LogLine.priority(level))), ("SYSLOG_IDENTIFIER", identifier),
        ]
        for key in metadata.keys.sorted() {
            fields.append((Self.fieldName(key), LogLine.plainText(metadata[key]!)))
        }
    }

    /// `SHAKED_` and the key in upper case, with every character but A-Z, 0-9 and `_` made `_`; at
    /// most 64 characters, as journald requires.
    static func fieldName(_ key: String) -> String {
        let body = key.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z": Character(String(scalar).uppercased())
            case "A"..."Z", "0"..."9", "_": Character(scalar)
            default: "_"
            }
        }
        return String(("SHAKED_" + String(body)).prefix(64))
    }

    /// Sends the record; false when the journal can't be reached (then log elsewhere).
    public func send() -> Bool {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes += Array(field.name.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes += Array(field.value.utf8)
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeMutableBytes { raw in
            var vectors = ranges.map { iovec(iov_base: raw.baseAddress! + $0.lowerBound, iov_len: $0.count) }
            return sd_journal_sendv(&vectors, Int32(vectors.count)) >= 0
        }
    }
}
