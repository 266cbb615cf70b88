import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Reading configuration files and listing drop-ins, with errors that name the file and say what to do.
enum ConfigurationFiles {
    /// Files larger than this are refused: a configuration file is a few kilobytes.
    static let maximumSize = 1 << 20

    /// The files to read without `--config`: the main file if it exists, then each `*.conf` in the drop-in
    /// directory in lexical (byte) order. Names starting with `.` are skipped (editors' temporary files).
    static func chain(etcDirectory: String) -> (files: [String], problems: [ConfigurationProblem]) {
        var files: [String] = []
        let main = "\(etcDirectory)/\(ShakedSettings.mainFileName)"
        if access(main, F_OK) == 0 || errno != ENOENT { files.append(main) }
        let directory = "\(etcDirectory)/\(ShakedSettings.dropInDirectoryName)"
        guard let handle = opendir(directory) else {
            let err = errno
            if err == ENOENT { return (files, []) }
            return (files, [ConfigurationProblem(.unreadable, file: directory, "cannot list drop-ins: \(reason(err))")])
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".conf"), !name.hasPrefix(".") { names.append(name) }
        }
        names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return (files + names.map { "\(directory)/\($0)" }, [])
    }

    /// The text of a file, or the problem that kept it from being read.
    static func read(_ path: String) -> Result<String, ConfigurationProblem> {
        func failure(_ message: String, line: Int? = nil) -> Result<String, ConfigurationProblem> {
            .failure(ConfigurationProblem(.unreadable, file: path, line: line, message))
        }
        let fd: FileDescriptor
        let info: Stat
        do {
            fd = try FileDescriptor.open(
                path, .readOnly, options: [.closeOnExec, .nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
        } catch { return failure("cannot open: \(reason((error as? Errno)?.rawValue ?? EIO))") }
        defer { try? fd.close() }
        do throws(Errno) { info = try fd.stat() } catch { return failure("cannot stat: \(reason(error.rawValue))") }
        if info.type == .directory { return failure("is a directory, not a configuration file") }
        if info.type == .characterSpecial, info.specialDeviceID == (try? FilePath("/dev/null").stat())?.specialDeviceID
        {
            return .success("")  // a file linked to /dev/null is masked, as with systemd's drop-ins
        }
        guard info.type == .regular else { return failure("is not a regular file") }
        guard info.size <= maximumSize else {
            return failure("is \(info.size) bytes; a configuration file may be at most \(maximumSize) bytes")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            // FileDescriptor.read retries EINTR.
            guard let count = try? chunk.withUnsafeMutableBytes({ try fd.read(into: $0) }) else {
                return failure("cannot read: \(reason(errno))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > maximumSize { return failure("is larger than \(maximumSize) bytes") }
        }
        if let bad = firstInvalidUTF8(bytes) {
            return failure("is not valid UTF-8 (byte \(bad.offset + 1)); save it as UTF-8", line: bad.line)
        }
        if let nul = bytes.firstIndex(of: 0) {
            return failure("holds a NUL byte; is it a binary file?", line: bytes[..<nul].count(where: { $0 == 10 }) + 1)
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// The offset and line of the first byte that breaks UTF-8, or nil when all of it is valid.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int)? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1 }
            case .emptyInput: return nil
            case .error: return (offset, line)
            }
        }
    }

    /// `strerror` with a hint for the usual cases.
    static func reason(_ err: Int32) -> String {
        let text = String(cString: strerror(err))
        switch err {
        case ENOENT: return "\(text); check the path"
        case EACCES, EPERM: return "\(text); make it readable by the user shaked runs as"
        default: return text
        }
    }
}
