import Foundation
import ShakeDetection
import ShakeLearning
import ShakeService
import TestSupport
import Testing

/// Each user's shake profile on disk: kept beside the preferences, written whole, a bad file kept aside,
/// forgotten on request.
@Suite struct ProfileStoreTests {
    static func store() throws -> ProfileStore {
        ProfileStore(stateDirectory: try TestPaths.temporaryDirectory().path)
    }

    static func learned() -> ShakeProfile {
        var learner = ShakeLearner()
        let shake = ShakeEvent(
            onset: 0, began: 500_000_000, ended: 1_200_000_000, peak: 30, reversals: 4, axis: .y, direction: .positive)
        learner.answered(.undo, to: shake)
        learner.answered(.cancel, to: shake)
        return learner.profile
    }

    @Test func aProfileComesBackAsWritten() throws {
        let store = try Self.store()
        #expect(store.load(uid: 1000).profile == ShakeProfile(), "none yet: nothing learned")
        try store.save(Self.learned(), uid: 1000)
        let loaded = store.load(uid: 1000)
        #expect(loaded.profile == Self.learned() && loaded.problem == nil)
        #expect(store.load(uid: 1001).profile == ShakeProfile(), "each user their own")
        let mode = try FileManager.default.attributesOfItem(atPath: store.directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func forgetClearsIt() throws {
        let store = try Self.store()
        try store.save(Self.learned(), uid: 1000)
        try store.forget(uid: 1000)
        #expect(!FileManager.default.fileExists(atPath: store.path(uid: 1000)))
        #expect(store.load(uid: 1000).profile == ShakeProfile())
        try store.forget(uid: 1000)
    }

    @Test(arguments: ["{not json", "{\"version\": 9}", String(repeating: " ", count: 70_000)])
    func aBadFileIsKeptAsideAndLearningStartsOver(contents: String) throws {
        let store = try Self.store()
        try store.save(Self.learned(), uid: 1000)
        try contents.write(toFile: store.path(uid: 1000), atomically: true, encoding: .utf8)
        let loaded = store.load(uid: 1000)
        #expect(loaded.profile == ShakeProfile())
        let problem = try #require(loaded.problem)
        #expect(problem.contains("kept as \(store.path(uid: 1000)).corrupt-1"), "\(problem)")
        #expect(try String(contentsOfFile: store.path(uid: 1000) + ".corrupt-1", encoding: .utf8) == contents)
    }
}
