import Foundation
import ShakedConfiguration
import TestSupport
import Testing

/// `/etc/shaked/shaked.conf`, its drop-ins and `--config FILE`, read from real files.
@Suite struct LayeringTests {
    /// Writes files under a fresh directory standing for /etc/shaked.
    func etc(_ files: [String: String]) throws -> URL {
        let dir = try TestPaths.temporaryDirectory()
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
        return dir
    }

    @Test("no file at all: the defaults, and check says so")
    func nothing() throws {
        let dir = try etc([:])
        #expect(try ShakedSettings.load(configFile: nil, etcDirectory: dir.path) == ShakedSettings())
        let check = ShakedSettings.check(configFile: nil, etcDirectory: dir.path)
        #expect(check.files.isEmpty && check.isValid)
        #expect(check.report == "no configuration file; using the defaults")
    }

    @Test("drop-ins are read in lexical order after the main file, each overriding single keys")
    func dropInsOverrideKeys() throws {
        let dir = try etc([
            "shaked.conf": "[Prompt]\nTimeout=10\nCooldown=2\n[Log]\nLevel=debug\n",
            "shaked.conf.d/20-b.conf": "[Prompt]\nTimeout=40\n",
            "shaked.conf.d/10-a.conf": "[Prompt]\nTimeout=20\n[Access]\nRequestUsers=alice\n",
            "shaked.conf.d/30-c.conf.disabled": "[Prompt]\nTimeout=99\n",
            "shaked.conf.d/.50-hidden.conf": "[Prompt]\nTimeout=98\n",
        ])
        let settings = try ShakedSettings.load(configFile: nil, etcDirectory: dir.path)
        #expect(settings.prompt.timeout == 40)
        #expect(settings.prompt.cooldown == 2)
        #expect(settings.log.level == .debug)
        #expect(settings.access.request == AccessRule(users: ["alice"], groups: ["input"]))
        let check = ShakedSettings.check(configFile: nil, etcDirectory: dir.path)
        #expect(
            check.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["shaked.conf", "10-a.conf", "20-b.conf"])
        #expect(check.report.split(separator: "\n").allSatisfy { $0.hasSuffix(": OK") })
    }

    @Test("drop-ins apply without a main file; a drop-in linked to /dev/null changes nothing")
    func dropInsAlone() throws {
        let dir = try etc(["shaked.conf.d/10-rate.conf": "[Sensor]\nRate=200\n"])
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("shaked.conf.d/20-masked.conf").path, withDestinationPath: "/dev/null")
        let settings = try ShakedSettings.load(configFile: nil, etcDirectory: dir.path)
        #expect(settings.sensor.rate == 200)
    }

    @Test("--config FILE reads only that file")
    func configFileAlone() throws {
        let dir = try etc([
            "shaked.conf": "[Prompt]\nTimeout=10\n", "shaked.conf.d/10-a.conf": "[Prompt]\nCooldown=5\n",
            "mine.conf": "[Sensor]\nMode=polled\n",
        ])
        let settings = try ShakedSettings.load(
            configFile: dir.appendingPathComponent("mine.conf").path, etcDirectory: dir.path)
        #expect(settings.sensor.mode == .polled)
        #expect(settings.prompt == ShakedSettings.Prompt())
    }

    @Test("problems in several files are all reported, each naming its file")
    func problemsAcrossFiles() throws {
        let dir = try etc([
            "shaked.conf": "[Prompt]\nTimeout=-1\n", "shaked.conf.d/10-a.conf": "[Sensor]\n\nRat=100\n",
        ])
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.load(configFile: nil, etcDirectory: dir.path)
        }
        #expect(error.problems.count == 2)
        #expect(
            error.problems[0].description
                == "\(dir.path)/shaked.conf:2: Prompt.Timeout: is -1; it must be from 1 to 600 seconds")
        #expect(error.problems[1].description.hasPrefix("\(dir.path)/shaked.conf.d/10-a.conf:3: Sensor.Rat: "))
        let report = ShakedSettings.check(configFile: nil, etcDirectory: dir.path).report
        #expect(!report.contains(": OK"))
    }

    @Test("a detector rule spanning two files blames the file that set the key")
    func crossFileDetectorRule() throws {
        let dir = try etc([
            "shaked.conf": "[Detector]\nHalfPeriodMax=0.05\n",
            "shaked.conf.d/10-a.conf": "[Detector]\n\nHalfPeriodMin=0.1\n",
        ])
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.load(configFile: nil, etcDirectory: dir.path)
        }
        // Each value is allowed alone; together the shortest half period exceeds the longest. The key
        // most to blame is the one that made it so, set last, in the drop-in.
        #expect(error.problems.count == 1)
        #expect(error.problems[0].file == "\(dir.path)/shaked.conf.d/10-a.conf")
        #expect(error.problems[0].key == "Detector.HalfPeriodMin")
        #expect(error.problems[0].line == 3)
    }

    /// A file that cannot be read, made for real, and the words its error must hold.
    static let unreadable: [(String, String)] = [
        ("missing", "No such file or directory"),
        ("directory", "is a directory"),
        ("fifo", "not a regular file"),
        ("latin1", "not valid UTF-8"),
        ("nul", "NUL byte"),
        ("huge", "at most 1048576 bytes"),
    ]

    @Test(arguments: unreadable)
    func unreadableFile(kind: String, says: String) throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("shaked.conf").path
        switch kind {
        case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "fifo": #expect(mkfifo(path, 0o644) == 0)
        case "latin1":
            try Data("[Prompt]\n# caf\u{E9}\n".utf8 + [0x23, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: path))
        case "nul": try Data("[Prompt]\n\n".utf8 + [0]).write(to: URL(fileURLWithPath: path))
        case "huge": try Data(repeating: 0x23, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
        default: break
        }
        for configFile in [path, nil] where kind != "missing" || configFile != nil {
            let error = try #require(throws: ConfigurationFileError.self) {
                try ShakedSettings.load(configFile: configFile, etcDirectory: dir.path)
            }
            #expect(error.problems.count == 1)
            #expect(error.problems[0].code == .unreadable)
            #expect(error.problems[0].file == path)
            #expect(error.problems[0].message.contains(says), "\(error)")
            if kind == "latin1" || kind == "nul" { #expect(error.problems[0].line == 3, "\(error)") }
        }
    }

    @Test("a file without read permission is an error naming it", .enabled(if: geteuid() != 0, "root reads any file"))
    func noPermission() throws {
        let dir = try etc(["shaked.conf": "[Log]\nLevel=info\n"])
        let path = dir.appendingPathComponent("shaked.conf").path
        #expect(chmod(path, 0) == 0)
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.load(configFile: path) }
        #expect(error.problems[0].message.contains("Permission denied"))
    }

    @Test("a drop-in directory that is a file is an error naming it")
    func dropInDirectoryIsAFile() throws {
        let dir = try etc(["shaked.conf.d": "not a directory\n"])
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.load(configFile: nil, etcDirectory: dir.path)
        }
        #expect(error.problems.map(\.file) == ["\(dir.path)/shaked.conf.d"])
        #expect(error.problems[0].message.contains("Not a directory"))
    }
}
