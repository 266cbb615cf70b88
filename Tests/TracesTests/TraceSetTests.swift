import Foundation
import TestSupport
import Testing
import Traces

/// `Corpus.traceSets`: a folder's own traces, and each folder below it that holds traces, are sets.
@Suite struct TraceSetTests {
    /// Writes an empty-labelled one-sample trace NAME.csv into `folder`, creating the folder.
    static func writeTrace(_ name: String, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "t,x,y,z\n0,0,0,9.8\n".write(to: folder.appendingPathComponent(name + ".csv"), atomically: true, encoding: .utf8)
        try "".write(to: folder.appendingPathComponent(name + ".labels"), atomically: true, encoding: .utf8)
    }

    @Test("a folder's own traces and each subfolder's are separate sets, in name order")
    func nestedFolders() throws {
        let root = try TestPaths.temporaryDirectory().appendingPathComponent("traces")
        try Self.writeTrace("b", in: root)
        try Self.writeTrace("a", in: root)
        try Self.writeTrace("m1", in: root.appendingPathComponent("many"))
        try Self.writeTrace("x1", in: root.appendingPathComponent("empty-above/deeper"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("nothing"), withIntermediateDirectories: true)
        let sets = try Corpus.traceSets([root.path])
        #expect(sets.map(\.name) == ["traces", "traces/empty-above/deeper", "traces/many"])
        #expect(sets[0].files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.csv", "b.csv"])
        #expect(sets[2].files.count == 1)
    }

    @Test("files named on their own are one set; folders keep theirs")
    func filesGiven() throws {
        let root = try TestPaths.temporaryDirectory()
        try Self.writeTrace("one", in: root)
        try Self.writeTrace("two", in: root.appendingPathComponent("sub"))
        let sets = try Corpus.traceSets([root.appendingPathComponent("one.csv").path, root.appendingPathComponent("sub").path])
        #expect(sets.map(\.name) == ["files given", "sub"])
    }

    @Test("a folder with no trace at any depth, and a missing path, are errors naming them")
    func errors() throws {
        let root = try TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        #expect(throws: TraceError.self) { try Corpus.traceSets([root.path]) }
        do { _ = try Corpus.traceSets([root.path]) } catch {
            #expect(error.path == root.path && error.message.contains("no .csv trace"))
        }
        do { _ = try Corpus.traceSets([root.path + "/missing"]) } catch {
            #expect(error.message.contains("no such file or folder"))
        }
    }

    @Test("the shared traces hold the four development sets, and issue 36's everyday sets where present")
    func sharedSets() throws {
        let sets = try Corpus.traceSets([TestPaths.traces.path])
        let found = Dictionary(
            uniqueKeysWithValues: sets.map { ($0.name.split(separator: "/").dropFirst().joined(separator: "/"), $0.files.count) })
        let required = ["": 51, "everyday-ku-har": 599, "many-hands": 8, "other-hands": 139]
        for (name, count) in required { #expect(found[name] == count, "\(name.isEmpty ? "the corpus" : name)") }
        // Newer sets: a copy of the corpus may not have them yet (OtherHandsTests says so).
        let newer = ["everyday-himu": 12, "everyday-ipin2023": 50, "everyday-umafall": 457]
        for (name, count) in newer where found[name] != nil { #expect(found[name] == count, "\(name)") }
        #expect(Set(found.keys).isSubset(of: Set(required.keys).union(newer.keys)), "\(found.keys.sorted())")
    }
}
