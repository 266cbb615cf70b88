#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ShakeLearning

#if canImport(Glibc)
    import Glibc
#endif

/// Each user's shake profile (issue 44) in a file of its own beside the preferences: `profiles/UID.json` in
/// the daemon's state directory, with the preferences' care (``PreferenceFile``): read with a size cap and
/// checked field by field (``ShakeProfile/checked()``), a file that fails set aside as `UID.json.corrupt-N`
/// (never overwritten) and learning started over, writes atomic. What a profile holds is never logged: a
/// problem names the file and what was wrong with it, not its contents.
public struct ProfileStore: Sendable {
    /// The folder of the profiles.
    public let directory: String
    /// The largest profile read; a bigger file is not a profile.
    public static let maximumSize = 64 * 1024

    /// The profiles in `profiles/` under the state directory (``PreferenceFile/stateDirectory(environment:)``).
    public init(stateDirectory: String) {
        directory = stateDirectory + "/profiles"
    }

    /// The file of user `uid`'s profile.
    public func path(uid: UInt32) -> String { "\(directory)/\(uid).json" }

    /// What reading a profile gave.
    public struct Loaded: Sendable {
        /// The profile: empty when there was none, or the file was set aside.
        public var profile = ShakeProfile()
        /// Why the file could not be used, for a logged warning; nil when it was fine or absent.
        public var problem: String?
    }

    /// User `uid`'s profile. A file that cannot be read, or is not a profile of this version, is set aside
    /// and named in ``Loaded/problem``.
    public func load(uid: UInt32) -> Loaded {
        let path = path(uid: uid)
        let bytes: [UInt8]
        do {
            guard let read = try PreferenceFile.readFile(path, limit: Self.maximumSize) else { return Loaded() }
            bytes = read
        } catch {
            return setAside(path, because: error.description)
        }
        guard let decoded = try? JSONDecoder().decode(ShakeProfile.self, from: Data(bytes)) else {
            return setAside(path, because: "\(path): not a shake profile")
        }
        guard let profile = decoded.checked() else {
            return setAside(path, because: "\(path): version \(decoded.version) is unknown")
        }
        return Loaded(profile: profile)
    }

    /// Writes user `uid`'s profile atomically. Blocks on disk I/O.
    public func save(_ profile: ShakeProfile, uid: UInt32) throws(PreferenceFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Counts, doubles that checked() keeps finite, and string keys: encoding cannot fail.
        let data = (try? encoder.encode(profile)) ?? Data("{}".utf8)
        try PreferenceFile.writeAtomically(Array(data) + [0x0A], path: path(uid: uid), directory: directory)
    }

    /// Forgets what was learned of user `uid`: their profile file is removed (a missing one is fine).
    public func forget(uid: UInt32) throws(PreferenceFileError) {
        let path = path(uid: uid)
        guard unlink(path) == 0 || errno == ENOENT else { throw PreferenceFileError(call: "unlink", path: path, errno: errno) }
    }

    private func setAside(_ path: String, because problem: String) -> Loaded {
        guard let aside = PreferenceFile.setAside(path) else {
            return Loaded(problem: problem + " (it could not be set aside; the next answer replaces it)")
        }
        return Loaded(problem: problem + "; kept as \(aside), learning starts over")
    }
}
