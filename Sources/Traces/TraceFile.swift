import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open trace or labels file: swift-system's `FileDescriptor` (whose `open`, `read` and `write` retry
/// `EINTR`), closed when the last reference goes. No Foundation, so the daemon that replays traces loads none.
final class TraceFile {
    /// The file, for errors.
    let path: String
    private var descriptor: FileDescriptor?

    /// Opens a file for reading; the error says whether it is missing, a folder or forbidden.
    init(reading path: String, what: String = "the file") throws(TraceError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw TraceError(.unreadable, path: path, "\(what) \(Self.reason(Self.code(error)))")
        }
        if (try? fd.stat())?.type == .directory {
            try? fd.close()
            throw TraceError(.unreadable, path: path, "\(what) is a folder, not a file")
        }
        self.path = path
        descriptor = fd
    }

    /// Creates or truncates a file for writing (mode 0644 before the umask).
    init(creating path: String) throws(TraceError) {
        do {
            descriptor = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw TraceError(
                .unwritable, path: path,
                "cannot create the file: \(Self.message(Self.code(error))) (check the folder exists and is writable)")
        }
        self.path = path
    }

    deinit { closeFile() }

    /// Closes the file now; later reads and writes fail with `EBADF`.
    func closeFile() {
        try? descriptor?.close()
        descriptor = nil
    }

    /// Appends up to `count` bytes to `buffer`; false at the end of the file.
    func readMore(into buffer: inout [UInt8], upTo count: Int) throws(TraceError) -> Bool {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        do {
            let n = try buffer.withUnsafeMutableBytes { bytes in
                try handle().read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[old...]))
            }
            buffer.removeLast(count - n)
            return n > 0
        } catch {
            buffer.removeLast(count)
            throw TraceError(.unreadable, path: path, "read failed: \(Self.message(Self.code(error)))")
        }
    }

    /// Writes all of `bytes`.
    func writeAll(_ bytes: [UInt8]) throws(TraceError) {
        do {
            _ = try handle().writeAll(bytes)
        } catch {
            throw TraceError(.unwritable, path: path, "write failed: \(Self.message(Self.code(error)))")
        }
    }

    /// The descriptor, or `EBADF` once closed.
    private func handle() throws(Errno) -> FileDescriptor {
        guard let descriptor else { throw .badFileDescriptor }
        return descriptor
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

    /// The errno of a failed swift-system call (which throws only `Errno`).
    static func code(_ error: any Error) -> Int32 { (error as? Errno)?.rawValue ?? EIO }

    /// The C library's text for an errno value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) + " (errno \(code))" }
}
