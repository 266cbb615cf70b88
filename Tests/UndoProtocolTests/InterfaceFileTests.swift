import Foundation
import TestSupport
import Testing
import UndoProtocol

/// The interface file parses with a real third-party varlink implementation (Python `varlink`).
@Suite struct InterfaceFileTests {
    static let path = TestPaths.packageRoot.appendingPathComponent("Sources/UndoProtocol/io.shaked.Undo.varlink").path

    @Test("io.shaked.Undo parses with Python varlink and declares the methods external tests use")
    func parsesWithPythonVarlink() throws {
        let script = """
            import sys, varlink
            i = varlink.Interface(open(sys.argv[1]).read())
            print(i.name)
            print(" ".join(sorted(i.members)))
            """
        let result = try runProcess("/usr/bin/env", [TestPaths.python, "-c", script, Self.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0] == "io.shaked.Undo")
        let members = Set(lines[1].split(separator: " ").map(String.init))
        for method in [
            "Subscribe", "SetContext", "AnswerIntent", "Choose", "ReportResult", "RequestIntent", "GetStatus",
            "Monitor", "RegisterAgent", "PromptRejected",
        ] {
            #expect(members.contains(method), "\(method)")
        }
    }

    @Test("every rule the rules check is documented in the interface file")
    func rulesDocumented() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        for rule in [
            "title-prefix", "title-words", "title-capitalization", "title-punctuation", "title-length",
            "message-sentences", "message-length", "cancel-missing", "cancel-label", "cancel-position",
            "button-count", "yes-no-label", "destructive-default", "operation-missing",
        ] {
            #expect(text.contains(rule), "\(rule)")
        }
    }

    @Test(
        "the daemon serves the interface files verbatim (the embedded copy is regenerated)",
        arguments: [("io.shaked.Undo", InterfaceDescriptions.undo), ("io.shaked.Demo", InterfaceDescriptions.demo)])
    func embeddedCopyIsCurrent(name: String, embedded: String) throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Sources/UndoProtocol/\(name).varlink").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            embedded.trimmingCharacters(in: .whitespacesAndNewlines) == text.trimmingCharacters(in: .whitespacesAndNewlines),
            "run scripts/generate-interfaces.sh")
        #expect(InterfaceDescriptions.all[name] == embedded)
    }
}
