import Foundation
import TestSupport
import Testing

/// scripts/install.sh into temporary trees, with fake executables so that no release build is needed.
@Suite struct InstallTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/install.sh").path

    /// A folder with executable `shaked` and `shakectl` scripts standing in for the built binaries.
    static func fakeBinaries() throws -> URL {
        let dir = try TestPaths.temporaryDirectory().appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["shaked", "shakectl"] {
            let path = dir.appendingPathComponent(name).path
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data("#!/bin/sh\necho \(name)\n".utf8),
                    attributes: [.posixPermissions: 0o755]))
        }
        return dir
    }

    /// Every file and symlink under a folder, as paths relative to it, sorted.
    static func files(under root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.append(path)
            }
        }
        return found.sorted()
    }

    static let expected = [
        "etc/shaked/shaked.conf",
        "etc/xdg/autostart/shake-agent.desktop",
        "usr/bin/shake-agent",
        "usr/bin/shakectl",
        "usr/lib/systemd/system/shaked.service",
        "usr/lib/systemd/system/shaked.socket",
        "usr/lib/systemd/user/shake-agent.service",
        "usr/lib/sysusers.d/shaked.conf",
        "usr/lib/udev/rules.d/60-shaked.rules",
        "usr/share/shaked/agent/shake-agent",
        "usr/sbin/shaked",
        "usr/share/man/man1/shake-agent.1",
        "usr/share/man/man1/shakectl.1",
        "usr/share/man/man5/shaked.conf.5",
        "usr/share/man/man8/shaked.8",
        "usr/share/shaked/install-manifest",
        "usr/share/varlink/io.shaked.Demo.varlink",
        "usr/share/varlink/io.shaked.Undo.varlink",
    ] + agentModules

    /// The agent's Python modules and its Kirigami prompt's QML, as the repository has them
    /// (clients/shake-agent/shakeagent).
    static var agentModules: [String] {
        let folder = TestPaths.packageRoot.appendingPathComponent("clients/shake-agent/shakeagent")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".py") || $0.hasSuffix(".qml") }
            .map { "usr/share/shaked/agent/shakeagent/\($0)" }
    }

    func run(_ arguments: [String]) throws -> ProcessResult {
        var environment = TestPaths.childEnvironment()
        environment["DESTDIR"] = nil
        environment["PREFIX"] = nil
        return try runProcess("/bin/bash", [Self.script] + arguments, environment: environment)
    }

    @Test("install into DESTDIR puts the expected files there, and uninstall takes exactly them away")
    func installAndUninstall() throws {
        let bin = try Self.fakeBinaries()
        let destdir = try TestPaths.temporaryDirectory()
        let install = try run(["--destdir", destdir.path, "--bin-dir", bin.path])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(Self.files(under: destdir) == Self.expected.sorted())

        let service = try String(
            contentsOf: destdir.appendingPathComponent("usr/lib/systemd/system/shaked.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/sbin/shaked\n"))
        let installed = destdir.appendingPathComponent("usr/sbin/shaked").path
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        #expect(try String(contentsOfFile: installed, encoding: .utf8) == "#!/bin/sh\necho shaked\n")
        let config = try String(contentsOf: destdir.appendingPathComponent("etc/shaked/shaked.conf"), encoding: .utf8)
        let shipped = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("config/shaked.conf"), encoding: .utf8)
        #expect(config == shipped)

        let again = try run(["--destdir", destdir.path, "--bin-dir", bin.path])
        #expect(again.status != 0 && again.stderr.contains("already installed"))

        // A file of someone else's in a directory the install created keeps that directory.
        let foreign = destdir.appendingPathComponent("usr/share/varlink/org.example.Other.varlink")
        #expect(FileManager.default.createFile(atPath: foreign.path, contents: Data("x".utf8)))
        let uninstall = try run(["uninstall", "--destdir", destdir.path])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(Self.files(under: destdir) == ["usr/share/varlink/org.example.Other.varlink"])
        try FileManager.default.removeItem(at: foreign)
        let second = try run(["uninstall", "--destdir", destdir.path])
        #expect(second.status != 0 && second.stderr.contains("no install manifest"))
        let left = try FileManager.default.contentsOfDirectory(atPath: destdir.path)
        #expect(left == ["usr"], "directories the install created are gone, except those still holding files")
    }

    @Test("installed units under a real prefix pass systemd-analyze verify, ExecStart at the installed binary")
    func installedUnitsVerify() throws {
        let bin = try Self.fakeBinaries()
        let root = try TestPaths.temporaryDirectory()
        let prefix = root.appendingPathComponent("usr").path
        let install = try run([
            "--prefix", prefix, "--sysconfdir", root.appendingPathComponent("etc").path, "--bin-dir", bin.path,
            "--no-activate",
        ])
        #expect(install.status == 0, "\(install.stderr)")
        let units = root.appendingPathComponent("usr/lib/systemd/system")
        let service = try String(contentsOf: units.appendingPathComponent("shaked.service"), encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/sbin/shaked\n"))
        #expect(service.contains("file://\(prefix)/share/varlink/io.shaked.Undo.varlink"))
        // The unit's Documentation= names the installed man pages; verify runs man on them.
        var environment = ProcessInfo.processInfo.environment
        environment["MANPATH"] = "\(prefix)/share/man"
        let verify = try runProcess(
            "/usr/bin/systemd-analyze",
            [
                "verify", units.appendingPathComponent("shaked.service").path,
                units.appendingPathComponent("shaked.socket").path,
            ], environment: environment)
        #expect(verify.status == 0)
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")

        let sysusers = try runProcess(
            "/usr/bin/systemd-sysusers",
            ["--root", root.path, "--dry-run", root.appendingPathComponent("usr/lib/sysusers.d/shaked.conf").path])
        #expect(sysusers.status == 0, "\(sysusers.stderr)")
        #expect((sysusers.stdout + sysusers.stderr).contains("Creating group 'shaked'"))
        #expect((sysusers.stdout + sysusers.stderr).contains("Creating user 'shaked'"))

        let uninstall = try run([
            "uninstall", "--prefix", prefix, "--sysconfdir", root.appendingPathComponent("etc").path,
        ])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test("an edited configuration survives uninstall; an existing one is never overwritten")
    func configurationIsKept() throws {
        let bin = try Self.fakeBinaries()
        let destdir = try TestPaths.temporaryDirectory()
        #expect(try run(["--destdir", destdir.path, "--bin-dir", bin.path]).status == 0)
        let config = destdir.appendingPathComponent("etc/shaked/shaked.conf")
        try "[Log]\nLevel=debug\n".write(to: config, atomically: false, encoding: .utf8)
        let uninstall = try run(["uninstall", "--destdir", destdir.path])
        #expect(uninstall.status == 0)
        #expect(uninstall.stdout.contains("kept"))
        #expect(Self.files(under: destdir) == ["etc/shaked/shaked.conf"])
        let reinstall = try run(["--destdir", destdir.path, "--bin-dir", bin.path])
        #expect(reinstall.status == 0)
        #expect(try String(contentsOf: config, encoding: .utf8) == "[Log]\nLevel=debug\n")
        #expect(try run(["uninstall", "--destdir", destdir.path]).status == 0)
        #expect(Self.files(under: destdir) == ["etc/shaked/shaked.conf"])
    }

    /// The GNU build ID of an ELF file, as `readelf -n` prints it.
    static func buildID(_ path: String) throws -> String {
        let notes = try runProcess("/usr/bin/readelf", ["-n", path])
        let match = try #require(notes.stdout.firstMatch(of: /Build ID: ([0-9a-f]+)/))
        return String(match.1)
    }

    @Test("--unitdir and --udevdir place units and rule as Debian 12 does; --strip splits the debug information")
    func debianDirectoriesAndStrip() throws {
        // Two real, different ELF executables: --strip names each debug file by the executable's build ID.
        let bin = try TestPaths.temporaryDirectory().appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: bin.appendingPathComponent("shaked").path)
        try FileManager.default.copyItem(atPath: "/bin/false", toPath: bin.appendingPathComponent("shakectl").path)
        let ids = try ["shaked", "shakectl"].map { try Self.buildID(bin.appendingPathComponent($0).path) }
        #expect(ids[0] != ids[1])

        let destdir = try TestPaths.temporaryDirectory().appendingPathComponent("stage")  // the install makes it
        let install = try run([
            "--destdir", destdir.path, "--bin-dir", bin.path, "--unitdir", "/lib/systemd/system",
            "--udevdir", "/lib/udev", "--strip",
        ])
        #expect(install.status == 0, "\(install.stderr)")
        let debugFiles = ids.map { "usr/lib/debug/.build-id/\($0.prefix(2))/\($0.dropFirst(2)).debug" }
        let expected = Self.expected.map {
            $0.replacingOccurrences(of: "usr/lib/systemd/system/", with: "lib/systemd/system/")
                .replacingOccurrences(of: "usr/lib/udev/", with: "lib/udev/")
        }
        #expect(Self.files(under: destdir) == (expected + debugFiles).sorted())
        for (path, id) in zip(["usr/sbin/shaked", "usr/bin/shakectl"], ids) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let installed = destdir.appendingPathComponent(path).path
            #expect(try Self.buildID(installed) == id, "stripping keeps the build ID")
            let link = try runProcess("/usr/bin/readelf", ["--string-dump=.gnu_debuglink", installed])
            #expect(link.stdout.contains("\(id.dropFirst(2)).debug"), "\(name) links to its debug file")
        }

        let uninstall = try run(["uninstall", "--destdir", destdir.path])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(Self.files(under: destdir).isEmpty)
    }

    /// Arguments the script must refuse, and words its error must hold.
    static let refused: [([String], String)] = [
        (["--frobnicate"], "unknown argument"),
        (["--prefix", "usr"], "must be absolute"),
        (["--bin-dir", "/nonexistent-shaked-bin"], "missing or not executable"),
    ]

    @Test(arguments: refused)
    func badArguments(arguments: [String], says: String) throws {
        let destdir = try TestPaths.temporaryDirectory()
        let result = try run(arguments + ["--destdir", destdir.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(Self.files(under: destdir).isEmpty)
    }

    @Test("--help documents install, uninstall, DESTDIR, PREFIX and --bin-dir")
    func help() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        for word in ["uninstall", "--destdir", "--prefix", "--bin-dir", "DESTDIR", "install-manifest"] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }
}
