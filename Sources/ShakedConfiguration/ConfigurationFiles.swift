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
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { return failure("cannot open: \(reason(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return failure("cannot stat: \(reason(errno))") }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { return failure("is a directory, not a configuration file") }
        var null = stat()
        if type == S_IFCHR, stat("/dev/null", &null) == 0, info.st_rdev == null.st_rdev {
            return .success("")  // a file linked to /dev/null is masked, as with systemd's drop-ins
        }
        guard type == S_IFREG else { return failure("is not a regular file") }
        guard Int(info.st_size) <= maximumSize else {
            return failure("is \(info.st_size) bytes; a configuration file may be at most \(maximumSize) bytes")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
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
        var index = 0
        var line = 1
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var minimum: UInt32 = 0
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF:
                length = 2
                minimum = 0x80
            case 0xE0...0xEF:
                length = 3
                minimum = 0x800
            case 0xF0...0xF4:
                length = 4
                minimum = 0x10000
            default: return (index, line)
            }
            guard index + length <= bytes.count else { return (index, line) }
            var scalar = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
            for k in 1..<length {
                let byte = bytes[index + k]
                guard byte & 0xC0 == 0x80 else { return (index, line) }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return (index, line) }
            if lead == 10 { line += 1 }
            index += length
        }
        return nil
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
