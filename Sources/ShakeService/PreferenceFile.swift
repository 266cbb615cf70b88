#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import NIOPosix
import ShakeDetection
import Synchronization
import SystemPackage
import UndoProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Every user's Shake to Undo settings in one JSON file in the daemon's state directory
/// (`$STATE_DIRECTORY`, else `/var/lib/shaked`), keyed by user id:
/// `{"version": 1, "users": {"1000": {"shakeToUndo": false, "sensitivity": "low"}}}`.
///
/// Writes are atomic: a temporary file beside it, fsync, rename over the old one, fsync of the
/// directory; a crash leaves the old file or the new one, never half of one. The file is hostile
/// like everything else: it is read with a size cap and every key and value is checked. One that
/// fails is set aside under a new name (never overwritten) and the defaults apply.
public final class PreferenceFile: Sendable {
    /// The directory holding the file.
    public let directory: String
    /// The file.
    public var path: String { directory + "/preferences.json" }
    /// The largest file read; a bigger one is corrupt.
    public static let maximumSize = 1 << 20
    /// The most users with preferences of their own.
    public static let maximumUsers = 4096
    /// The newest generation written, so an older snapshot never replaces a newer one.
    private let written = Mutex<UInt64>(0)

    /// Creates a file in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The state directory: the first entry of `$STATE_DIRECTORY` (systemd's `StateDirectory=shaked`),
    /// else `/var/lib/shaked`.
    public static func stateDirectory(environment value: String?) -> String {
        let first = value?.split(separator: ":").first.map(String.init)
        guard let first, first.hasPrefix("/") else { return "/var/lib/shaked" }
        return first
    }

    /// What reading the file at start gave.
    public struct Loaded: Sendable {
        /// Each user's preferences (empty when the file is missing or was set aside).
        public var preferences: [UInt32: UserPreferences] = [:]
        /// Why the file could not be used, for a logged warning; nil when it was fine or absent.
        public var problem: String?
        /// Where a bad file was moved to, if it could be moved.
        public var setAside: String?
    }

    /// Reads the file. A missing file gives the defaults; an unreadable or invalid one gives the
    /// defaults too, is renamed to `preferences.json.corrupt-N` and is named in ``Loaded/problem``.
    public func load() -> Loaded {
        let bytes: [UInt8]
        do {
            guard let read = try Self.readFile(path, limit: Self.maximumSize) else { return Loaded() }
            bytes = read
        } catch {
            return setAside(because: "\(error)")
        }
        do {
            return Loaded(preferences: try Self.decode(bytes))
        } catch {
            return setAside(because: "\(path): \(error.description)")
        }
    }

    /// Writes `preferences` atomically, unless a newer generation is already written. Blocks on disk
    /// I/O: call it from a thread that may block (``save(_:generation:)`` does).
    public func saveNow(_ preferences: [UInt32: UserPreferences], generation: UInt64) throws(PreferenceFileError) {
        let data = Self.encode(preferences)
        try written.withLock { (last: inout UInt64) throws(PreferenceFileError) in
            guard generation > last else { return }
            try writeAtomically(data)
            last = generation
        }
    }

    /// ``saveNow(_:generation:)`` on NIO's blocking thread pool, away from the event loops and the coordinator.
    public func save(_ preferences: [UInt32: UserPreferences], generation: UInt64) async throws(PreferenceFileError) {
        let result: Result<Void, PreferenceFileError>
        do {
            result = try await NIOThreadPool.singleton.runIfActive {
                do throws(PreferenceFileError) {
                    try self.saveNow(preferences, generation: generation)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw PreferenceFileError(call: "write", path: path, reason: "the daemon is stopping")
        }
        try result.get()
    }

    // MARK: Format

    private struct Contents: Codable {
        var version: Int
        var users: [String: Entry]
    }

    private struct Entry: Codable {
        var shakeToUndo: Bool?
        var sensitivity: String?
        /// Written only when off (the default is on), so files from before it read the same.
        var standIn: Bool?
    }

    static func encode(_ preferences: [UInt32: UserPreferences]) -> [UInt8] {
        var users: [String: Entry] = [:]
        for (uid, p) in preferences where !p.isDefault {
            users[String(uid)] = Entry(
                shakeToUndo: p.shakeToUndo, sensitivity: p.sensitivity?.rawValue, standIn: p.standIn ? nil : false)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Encoding strings, booleans and integers can't fail.
        let data = (try? encoder.encode(Contents(version: 1, users: users))) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    /// Checks every key and value; the error names the first that is wrong.
    static func decode(_ bytes: [UInt8]) throws(PreferenceFileProblem) -> [UInt32: UserPreferences] {
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
        } catch {
            throw PreferenceFileProblem("not the expected JSON (an object with \"version\": 1 and \"users\")")
        }
        guard contents.version == 1 else { throw PreferenceFileProblem("version \(contents.version) is unknown") }
        guard contents.users.count <= maximumUsers else {
            throw PreferenceFileProblem("\(contents.users.count) users, more than \(maximumUsers)")
        }
        var result: [UInt32: UserPreferences] = [:]
        for (key, entry) in contents.users {
            // Named in a log line: printable ASCII only.
            let shown = String(
                key.unicodeScalars.prefix(20).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            guard let uid = UInt32(key), String(uid) == key else {
                throw PreferenceFileProblem("users: key \"\(shown)\" is not a user id")
            }
            var p = UserPreferences()
            if let on = entry.shakeToUndo { p.shakeToUndo = on }
            if let on = entry.standIn { p.standIn = on }
            if let level = entry.sensitivity {
                guard let sensitivity = Sensitivity(rawValue: level) else {
                    throw PreferenceFileProblem("users.\(key).sensitivity is not low, medium or high")
                }
                p.sensitivity = sensitivity
            }
            result[uid] = p
        }
        return result
    }

    // MARK: Disk

    private func setAside(because problem: String) -> Loaded {
        if let candidate = Self.setAside(path) { return Loaded(problem: problem, setAside: candidate) }
        return Loaded(problem: problem + " (it could not be set aside; the next change replaces it)")
    }

    /// Moves the file at `path` to `PATH.corrupt-N`, the first N free; the new name, nil when it could not.
    static func setAside(_ path: String) -> String? {
        for n in 1...1000 {
            let candidate = "\(path).corrupt-\(n)"
            // link() never replaces an existing file, so an earlier bad copy is never lost.
            if link(path, candidate) == 0 {
                unlink(path)
                return candidate
            }
            if errno != EEXIST { break }
        }
        return nil
    }

    private func writeAtomically(_ data: [UInt8]) throws(PreferenceFileError) {
        try Self.writeAtomically(data, path: path, directory: directory)
    }

    /// Writes `data` to `path` in `directory` (made if missing, mode 0700): a temporary file beside it,
    /// fsync, rename over the old one, fsync of the directory.
    static func writeAtomically(_ data: [UInt8], path: String, directory: String) throws(PreferenceFileError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw .init(call: "mkdir", path: directory, errno: errno) }
        let temporary = path + ".tmp"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                temporary, .writeOnly, options: [.create, .truncate, .closeOnExec, .noFollow],
                permissions: .ownerReadWrite)
        } catch { throw .init(call: "open", path: temporary, error) }
        var failure: PreferenceFileError?
        do { _ = try fd.writeAll(data) } catch { failure = .init(call: "write", path: temporary, error) }
        if failure == nil && fsync(fd.rawValue) != 0 { failure = .init(call: "fsync", path: temporary, errno: errno) }
        try? fd.close()
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw .init(call: "rename", path: path, errno: error)
        }
        // The rename itself is durable only once the directory is synced.
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw .init(call: "open", path: directory, errno: errno) }
        defer { close(dir) }
        guard fsync(dir) == 0 else { throw .init(call: "fsync", path: directory, errno: errno) }
    }

    /// The file's bytes; nil when it does not exist. Refuses more than `limit` bytes and anything
    /// that is not a regular file.
    static func readFile(_ path: String, limit: Int) throws(PreferenceFileError) -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking])
        } catch let error as Errno where error == .noSuchFileOrDirectory {
            return nil
        } catch { throw .init(call: "open", path: path, error) }
        defer { try? fd.close() }
        let info: Stat
        do { info = try fd.stat() } catch { throw .init(call: "fstat", path: path, error) }
        guard info.type == .regular else {
            throw PreferenceFileError(call: "open", path: path, reason: "not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // FileDescriptor.read retries EINTR.
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) } } catch {
                throw .init(call: "read", path: path, error)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            guard bytes.count <= limit else {
                throw PreferenceFileError(call: "read", path: path, reason: "larger than \(limit) bytes")
            }
        }
    }
}

/// A system call on the preferences file failed; names the call, the path and why.
public struct PreferenceFileError: Error, Sendable, CustomStringConvertible {
    /// The call, such as `rename`.
    public var call: String
    /// The file or directory.
    public var path: String
    /// Why, such as `Permission denied`.
    public var reason: String

    init(call: String, path: String, errno: Int32) {
        self.init(call: call, path: path, reason: String(cString: strerror(errno)))
    }

    /// From a failed swift-system call, which throws only `Errno`.
    init(call: String, path: String, _ error: any Error) {
        self.init(call: call, path: path, errno: (error as? Errno)?.rawValue ?? EIO)
    }

    init(call: String, path: String, reason: String) {
        self.call = call
        self.path = path
        self.reason = reason
    }

    /// `rename /var/lib/shaked/preferences.json: Permission denied`.
    public var description: String { "\(call) \(path): \(reason)" }
}

/// What is wrong with the contents of a preferences file.
public struct PreferenceFileProblem: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the key.
    public var description: String
    init(_ description: String) { self.description = description }
}
