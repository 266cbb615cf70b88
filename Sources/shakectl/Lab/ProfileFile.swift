import Foundation
import ShakeLearning

/// A ``ShakeProfile`` in a JSON file of its own, for `detect --learn`: read with a size cap and checked
/// field by field, a bad file set aside under a new name (never overwritten), written atomically.
struct ProfileFile {
    /// The file.
    let path: String
    /// The largest file read; a bigger one is not a profile.
    static let maximumSize = 64 * 1024

    /// The profile in the file: an empty one when there is no file. A file that is not a profile is moved
    /// to `PATH.corrupt-N`, said on standard error, and learning starts over.
    func load() -> ShakeProfile {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else { return ShakeProfile() }
        let problem: String
        do {
            let data = try Data(contentsOf: url)
            if data.count > Self.maximumSize {
                problem = "larger than \(Self.maximumSize) bytes"
            } else if let profile = try JSONDecoder().decode(ShakeProfile.self, from: data).checked() {
                return profile
            } else {
                problem = "a profile of another version"
            }
        } catch {
            problem = "not a profile (\(type(of: error)))"
        }
        for n in 1...1000 {
            let aside = "\(path).corrupt-\(n)"
            if link(path, aside) == 0 {
                unlink(path)
                printError("\(path): \(problem); kept as \(aside), learning starts over")
                return ShakeProfile()
            }
            if errno != EEXIST { break }
        }
        printError("\(path): \(problem); it could not be set aside and will be replaced")
        return ShakeProfile()
    }

    /// Writes `profile` atomically: a temporary file beside it, renamed over the old one.
    func save(_ profile: ShakeProfile) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try (encoder.encode(profile) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
