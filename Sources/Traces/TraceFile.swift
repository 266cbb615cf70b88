#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open trace or labels file: POSIX `open`, `read` and `write` (retrying `EINTR`), closed when
/// the last reference goes. The standard library only, so the daemon that replays traces loads
/// no Foundation.
final class TraceFile {
    /// The file, for errors.
    let path: String
    private var descriptor: Int32

    /// Opens a file for reading; the error says whether it is missing, a folder or forbidden.
    init(reading path: String, what: String = "the file") throws(TraceError) {
        let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw TraceError(.unreadable, path: path, "\(what) \(Self.reason(errno))") }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw TraceError(.unreadable, path: path, "\(what) is a folder, not a file")
        }
        self.path = path
        descriptor = fd
    }

    /// Creates or truncates a file for writing (mode 0644 before the umask).
    init(creating path: String) throws(TraceError) {
        let fd = retryingInterrupts { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            throw TraceError(
                .unwritable, path: path,
                "cannot create the file: \(Self.message(errno)) (check the folder exists and is writable)")
        }
        self.path = path
        descriptor = fd
    }

    deinit { closeFile() }

    /// Closes the file now; later reads and writes fail with `EBADF`.
    func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Appends up to `count` bytes to `buffer`; false at the end of the file.
    func readMore(into buffer: inout [UInt8], upTo count: Int) throws(TraceError) -> Bool {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let n = buffer.withUnsafeMutableBytes { bytes in
            retryingInterrupts { read(descriptor, bytes.baseAddress! + old, count) }
        }
        guard n >= 0 else {
            buffer.removeLast(count)
            throw TraceError(.unreadable, path: path, "read failed: \(Self.message(errno))")
        }
        buffer.removeLast(count - n)
        return n > 0
    }

    /// Writes all of `bytes`.
    func writeAll(_ bytes: [UInt8]) throws(TraceError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                retryingInterrupts { write(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            guard n > 0 else { throw TraceError(.unwritable, path: path, "write failed: \(Self.message(errno))") }
            written += n
        }
    }

    /// The whole file.
    static func contents(of path: String, what: String) throws(TraceError) -> [UInt8] {
        let file = try TraceFile(reading: path, what: what)
        var bytes: [UInt8] = []
        while try file.readMore(into: &bytes, upTo: 65536) {}
        return bytes
    }

    /// Whether `path` exists, and whether it is a folder (following links).
    static func kind(of path: String) -> (exists: Bool, isFolder: Bool) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (false, false) }
        return (true, info.st_mode & S_IFMT == S_IFDIR)
    }

    /// The names in a folder, without `.` and `..`.
    static func names(inFolder path: String) throws(TraceError) -> [String] {
        guard let folder = opendir(path) else {
            throw TraceError(.unreadable, path: path, "cannot list the folder: \(message(errno))")
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What an `open` failure means for a file to be read.
    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "does not exist"
        case EACCES, EPERM: "cannot be read (check its permissions)"
        default: "cannot be opened: \(message(code))"
        }
    }

    /// The C library's text for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) + " (errno \(code))" }
}

/// Runs a system call again while it fails with `EINTR`.
private func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
