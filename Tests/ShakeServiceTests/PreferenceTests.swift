import Foundation
import Logging
import Synchronization
import ShakeDetection
import TestSupport
import Testing
import UndoProtocol

@testable import ShakeService

/// The preferences file: atomic writes, hostile contents set aside, and each user's own entry.
@Suite struct PreferenceFileTests {
    func file() throws -> PreferenceFile {
        PreferenceFile(directory: try TestPaths.temporaryDirectory().appendingPathComponent("state").path)
    }

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("what is saved is read back; the defaults need no entry; no temporary file stays")
    func roundTrip() throws {
        let file = try file()
        #expect(file.load().preferences.isEmpty && file.load().problem == nil, "no file yet: the defaults")
        let saved: [UInt32: UserPreferences] = [
            1000: .init(shakeToUndo: false), 1001: .init(sensitivity: .low), 1002: .init(),
        ]
        try file.saveNow(saved, generation: 1)
        let loaded = file.load()
        #expect(loaded.problem == nil)
        #expect(loaded.preferences == [1000: .init(shakeToUndo: false), 1001: .init(sensitivity: .low)])
        let names = try FileManager.default.contentsOfDirectory(atPath: file.directory)
        #expect(names == ["preferences.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "other users can't read whose switch is off")
    }

    @Test("a write replaces the file by rename (a new inode), and an older generation never replaces a newer one")
    func atomicAndOrdered() throws {
        let file = try file()
        try file.saveNow([1000: .init(shakeToUndo: false)], generation: 2)
        let first = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        // A temporary file left by a crash mid-write is neither read nor in the way.
        try "{\"half".write(toFile: file.path + ".tmp", atomically: false, encoding: .utf8)
        #expect(file.load().preferences == [1000: .init(shakeToUndo: false)])
        try file.saveNow([1000: .init(sensitivity: .high)], generation: 3)
        let second = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        #expect(first != second, "renamed over, not rewritten in place")
        try file.saveNow([1000: .init(shakeToUndo: false)], generation: 1)
        #expect(file.load().preferences == [1000: .init(sensitivity: .high)], "the stale snapshot was skipped")
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
    }

    static let corrupt: [(String, String)] = [
        ("not JSON", "{\"version\": 1, \"users\": {"),
        ("binary", "\u{0}\u{1}\u{FF}garbage"),
        ("wrong type", "{\"version\": 1, \"users\": {\"1000\": {\"shakeToUndo\": \"off\"}}}"),
        ("unknown level", "{\"version\": 1, \"users\": {\"1000\": {\"sensitivity\": \"extreme\"}}}"),
        ("uid not a number", "{\"version\": 1, \"users\": {\"root\": {\"shakeToUndo\": false}}}"),
        ("uid out of range", "{\"version\": 1, \"users\": {\"4294967296\": {\"shakeToUndo\": false}}}"),
        ("uid with a sign", "{\"version\": 1, \"users\": {\"+1000\": {\"shakeToUndo\": false}}}"),
        ("future version", "{\"version\": 2, \"users\": {}}"),
        ("empty", ""),
    ]

    @Test("a corrupt file gives the defaults, says why, and is set aside unchanged", arguments: corrupt)
    func corruptFile(what: String, text: String) throws {
        let file = try file()
        try FileManager.default.createDirectory(atPath: file.directory, withIntermediateDirectories: true)
        try text.write(toFile: file.path, atomically: false, encoding: .utf8)
        let loaded = file.load()
        #expect(loaded.preferences.isEmpty)
        #expect(loaded.problem?.contains(file.path) == true, "\(loaded.problem ?? "no problem reported")")
        let aside = try #require(loaded.setAside)
        #expect(contents(aside) == text, "kept as it was")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a second corrupt file is set aside beside the first, never over it")
    func corruptTwice() throws {
        let file = try file()
        try FileManager.default.createDirectory(atPath: file.directory, withIntermediateDirectories: true)
        try "first".write(toFile: file.path, atomically: false, encoding: .utf8)
        let one = try #require(file.load().setAside)
        try "second".write(toFile: file.path, atomically: false, encoding: .utf8)
        let two = try #require(file.load().setAside)
        #expect(one != two)
        #expect(contents(one) == "first" && contents(two) == "second")
    }

    @Test("a file over the size cap, or not a regular file, is refused")
    func oversizedOrNotAFile() throws {
        let file = try file()
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: true)
        #expect(file.load().problem?.contains("not a regular file") == true)
        let other = try self.file()
        try FileManager.default.createDirectory(atPath: other.directory, withIntermediateDirectories: true)
        let big = "{\"version\": 1, \"users\": {}}" + String(repeating: " ", count: PreferenceFile.maximumSize)
        try big.write(toFile: other.path, atomically: false, encoding: .utf8)
        #expect(other.load().problem?.contains("larger than") == true)
    }

    @Test("a directory that can't be written gives an error naming the call and the path")
    func unwritable() throws {
        let file = PreferenceFile(directory: "/proc/shaked-test-state")
        #expect(throws: PreferenceFileError.self) { try file.saveNow([1000: .init(shakeToUndo: false)], generation: 1) }
        do {
            try file.saveNow([1000: .init(shakeToUndo: false)], generation: 1)
        } catch {
            #expect(error.description.hasPrefix("mkdir /proc/shaked-test-state: "), "\(error)")
        }
    }

    @Test("$STATE_DIRECTORY's first entry is the directory, else /var/lib/shaked")
    func stateDirectory() {
        #expect(PreferenceFile.stateDirectory(environment: "/var/lib/shaked") == "/var/lib/shaked")
        #expect(PreferenceFile.stateDirectory(environment: "/a:/b") == "/a")
        #expect(PreferenceFile.stateDirectory(environment: nil) == "/var/lib/shaked")
        #expect(PreferenceFile.stateDirectory(environment: "relative") == "/var/lib/shaked")
    }
}

/// Preferences in the coordinator: per user, and what they do to the sensor and the detector.
@Suite struct UserPreferenceTests {
    static let peerA = Peer(pid: 1, uid: 1000, groups: [1000])
    static let peerB = Peer(pid: 2, uid: 1001, groups: [1001])

    @Test("each user sets and reads only their own; a user's change leaves another's alone")
    func perUser() async throws {
        let coordinator = UndoCoordinator(
            settings: .init(sensitivity: .medium), sensor: .init(description: "test", detector: "test"),
            logger: Logger(label: "test"))
        let change = try await coordinator.setPreferences(
            SetPreferencesParameters(shakeToUndo: false, sensitivity: "low"), peer: Self.peerA)
        #expect(change.preferences == Preferences(shakeToUndo: false, sensitivity: "low"))
        #expect(change.save?.all == [1000: UserPreferences(shakeToUndo: false, sensitivity: .low)])
        #expect(await coordinator.preferences(for: Self.peerB) == Preferences(shakeToUndo: true, sensitivity: "medium"))
        _ = try await coordinator.setPreferences(SetPreferencesParameters(shakeToUndo: true), peer: Self.peerB)
        #expect(await coordinator.preferences(for: Self.peerA) == Preferences(shakeToUndo: false, sensitivity: "low"))
        let same = try await coordinator.setPreferences(SetPreferencesParameters(shakeToUndo: false), peer: Self.peerA)
        #expect(same.save == nil, "nothing changed, nothing to write")
    }

    @Test("the context user's switch decides the sensor demand; their sensitivity goes to the detector")
    func demandAndSensitivity() throws {
        var machine = IntentMachine()
        machine.subscribe(token: "a", app: "org.example.A", name: "A", uid: 1000)
        machine.subscribe(token: "b", app: "org.example.B", name: "B", uid: 1001)
        machine.setPreferences(UserPreferences(shakeToUndo: false), uid: 1000)
        machine.setPreferences(UserPreferences(sensitivity: .high), uid: 1001)
        _ = try machine.setContext(token: "a", uid: 1000, focused: true, undo: "Typing", redo: nil, now: .now)
        #expect(!machine.wantsSensor, "A's user has Shake to Undo off: no reads")
        #expect(machine.shake(now: .now) == [.outcome(.ignored, intent: nil, detail: "shake-to-undo-off")])
        #expect(try machine.request(operation: nil, now: .now).reply.app == "org.example.A", "requests still work")
        var other = IntentMachine()
        other.subscribe(token: "b", app: "org.example.B", name: "B", uid: 1001)
        other.setPreferences(UserPreferences(sensitivity: .high), uid: 1001)
        _ = try other.setContext(token: "b", uid: 1001, focused: true, undo: "Typing", redo: nil, now: .now)
        #expect(other.wantsSensor && other.contextSensitivity == .high)
        other.setPreferences(UserPreferences(), uid: 1001)
        #expect(other.preferences.isEmpty && other.contextSensitivity == nil, "the defaults need no entry")
    }

    @Test("the context detector makes a new inner detector when the signal changes")
    func contextDetector() {
        let signal = SensitivitySignal()
        let made = Mutex<[Sensitivity?]>([])
        var detector = ContextDetector(signal: signal) { sensitivity in
            made.withLock { $0.append(sensitivity) }
            return ShakeDetector(configuration: .init(sensitivity: sensitivity ?? .medium))
        }
        let sample = Sample(seconds: 0, x: 0, y: 0, z: 9.81)
        _ = detector.process(sample)
        signal.set(.low)
        _ = detector.process(sample)
        _ = detector.process(sample)
        #expect(made.withLock { $0 } == [nil, .low])
        #expect(detector.currentSensitivity == .low)
    }
}
