import Foundation
import TestSupport
import Testing
import Traces

/// Runs the built `shakectl` binary and checks what it prints.
@Suite struct ShakectlTests {
    let shakectl = TestPaths.binary("shakectl")

    func json(_ line: Substring) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("detect --format json prints one object per shake with its onset, end and phase in trace seconds")
    func detectJSON() throws {
        let result = try runProcess(
            shakectl, ["detect", TestPaths.trace("spliced_dev_03_pebble_walk_100_heather_1"), "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let labels = try Labels.read(
            path: Labels.path(forTrace: TestPaths.trace("spliced_dev_03_pebble_walk_100_heather_1")))
        for (line, label) in zip(lines, labels) {
            let object = try json(line)
            let onset = try #require(object["onset"] as? Double)
            let ended = try #require(object["ended"] as? Double)
            #expect(object["phase"] as? String == "ended" && object["time"] as? Double == ended)
            #expect(onset <= ended)
            // Within the product's p95 after the end (0.8 s): the first shake here is answered 0.53 s after its
            // labelled end, once the walking wrist it was spliced into has turned back to where it was held.
            #expect(ended >= label.start && ended <= label.end + 0.8)
            #expect(object["detector"] as? String == "shaked")
        }
    }

    @Test("detect runs every detector by name", arguments: ["shaked", "seismic", "qt-shake", "qt-shake2"])
    func detectors(name: String) throws {
        let result = try runProcess(
            shakectl, ["detect", TestPaths.trace("qt_shake_left"), "--detector", name, "--format", "json"])
        #expect(result.status == 0)
        let first = try json(try #require(result.stdout.split(separator: "\n").first))
        #expect(first["detector"] as? String == name)
    }

    @Test("a bad trace fails with the file and line, and no output")
    func badTrace() throws {
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("bad.csv").path
        try "t,x,y,z\n0,0,0,9.8\n0.02,oops,0,9.8\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runProcess(shakectl, ["detect", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(path):3:"), "\(result.stderr)")
        #expect(result.stderr.contains("x is not a number"))
    }

    @Test("evaluate --all scores every detector side by side, per trace and in total, with progress")
    func evaluate() throws {
        let traces = ["qt_shake_left", "qt_neg_whip", "spliced_dev_04_pebble_run_200"].map(TestPaths.trace)
        let result = try runProcess(shakectl, ["evaluate"] + traces + ["--all", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try result.stdout.split(separator: "\n").map(json)
        #expect(rows.count == 4 * 3 + 4)
        let totals = rows.filter { $0["total"] as? Bool == true }
        #expect(Set(totals.compactMap { $0["detector"] as? String }) == ["shaked", "seismic", "qt-shake", "qt-shake2"])
        let shaked = try #require(totals.first { $0["detector"] as? String == "shaked" })
        #expect(shaked["labelled"] as? Int == 4)
        for key in ["recall", "precision", "f1", "falsePositivesPerHour", "latencyMedian", "latencyP95"] {
            #expect(shaked[key] is Double, "\(key)")
        }
        #expect(result.stderr.contains("[3/3]"), "progress on standard error")
    }

    @Test("evaluate text output has a header, rows and totals")
    func evaluateText() throws {
        let result = try runProcess(
            shakectl, ["evaluate", TestPaths.trace("qt_shake_left"), "--detector", "shaked", "--detector", "seismic"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("recall"))
        #expect(result.stdout.contains("TOTAL (1 traces)"))
        #expect(result.stdout.contains("seismic"))
    }

    @Test("evaluate refuses a folder without traces and a missing path")
    func evaluateErrors() throws {
        let empty = try TestPaths.temporaryDirectory().path
        let a = try runProcess(shakectl, ["evaluate", empty])
        #expect(a.status != 0 && a.stderr.contains("no .csv trace"))
        let b = try runProcess(shakectl, ["evaluate", "/nonexistent/dir"])
        #expect(b.status != 0 && b.stderr.contains("no such file or folder"))
    }

    @Test("evaluate scores each folder below as its own set, and leaves out a trace it cannot read, naming it")
    func evaluateSets() throws {
        let root = try TestPaths.temporaryDirectory().appendingPathComponent("mine")
        let sub = root.appendingPathComponent("walks")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for (name, folder) in [("qt_shake_left", root), ("qt_neg_whip", sub)] {
            for ext in ["csv", "labels"] {
                try FileManager.default.copyItem(
                    atPath: TestPaths.traces.appendingPathComponent("\(name).\(ext)").path,
                    toPath: folder.appendingPathComponent("\(name).\(ext)").path)
            }
        }
        let bad = sub.appendingPathComponent("backwards.csv").path
        try "t,x,y,z\n0,0,0,9.8\n0.02,0,0,9.8\n0.01,0,0,9.8\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try "".write(toFile: sub.appendingPathComponent("backwards.labels").path, atomically: true, encoding: .utf8)

        let text = try runProcess(shakectl, ["evaluate", root.path, "--summary", "--all"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("mine (1 traces)"), "\(text.stdout)")
        #expect(text.stdout.contains("mine/walks (1 of 2 traces)"))
        #expect(text.stdout.contains("all 2 sets (2 of 3 traces)"))
        #expect(text.stdout.contains("Left out 1 trace"))
        #expect(text.stdout.contains("\(bad):4:") && text.stderr.contains("left out: \(bad):4:"))

        let json = try runProcess(shakectl, ["evaluate", root.path, "--format", "json", "--summary"])
        let rows = try json.stdout.split(separator: "\n").map(self.json)
        #expect(rows.compactMap { $0["set"] as? String } == ["mine", "mine/walks"])
        #expect(rows.filter { $0["total"] as? Bool == true }.count == 1)
        #expect(json.stderr.contains("Left out 1 trace"))

        let none = try runProcess(shakectl, ["evaluate", bad])
        #expect(none.status != 0 && none.stderr.contains("No trace could be read"), "\(none.stderr)")
    }

    @Test(
        "--help explains each command",
        arguments: [
            ("detect", "onset"), ("evaluate", "false positive"), ("plot", "SVG"), ("bench", "allocations"),
        ])
    func help(command: String, mentions: String) throws {
        let result = try runProcess(shakectl, [command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(mentions), "\(result.stdout)")
    }

    @Test("--help lists the person's commands apart from the lab's, the person's first")
    func helpGroups() throws {
        let result = try runProcess(shakectl, ["--help"])
        #expect(result.status == 0)
        let parts = result.stdout.components(separatedBy: "LAB SUBCOMMANDS:")
        #expect(parts.count == 2, "\(result.stdout)")
        let person = parts[0].components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let lab = parts.count == 2 ? parts[1] : ""
        for command in ["status", "watch", "request", "preferences", "sensors"] {
            #expect(person.contains("  \(command) "), "\(command) is not among the person's commands")
        }
        for command in ["record", "evaluate", "plot", "detect", "bench", "demo"] {
            #expect(lab.contains("  \(command) "), "\(command) is not among the lab's commands")
        }
    }

    @Test("bench --format json reports ns and allocations per sample for every detector")
    func bench() throws {
        let result = try runProcess(shakectl, ["bench", "--runs", "1", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try result.stdout.split(separator: "\n").map(json)
        #expect(rows.compactMap { $0["detector"] as? String } == ["shaked", "seismic", "qt-shake", "qt-shake2"])
        for row in rows {
            #expect((row["nsPerSample"] as? Double ?? 0) > 0)
            #expect(row["allocationsPerSample"] is Double || row["allocationsPerSample"] is Int)
        }
    }
}
