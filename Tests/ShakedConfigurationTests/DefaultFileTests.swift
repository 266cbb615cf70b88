import Foundation
import ShakeDetection
import ShakedConfiguration
import TestSupport
import Testing

/// The shipped `config/shaked.conf` and the code's defaults cannot drift apart.
@Suite struct DefaultFileTests {
    static let path = TestPaths.packageRoot.appendingPathComponent("config/shaked.conf").path

    @Test("config/shaked.conf loads to exactly the built-in defaults")
    func defaultFileIsTheDefaults() throws {
        let settings = try ShakedSettings.load(configFile: Self.path)
        #expect(settings == ShakedSettings())
        #expect(ShakedSettings.check(configFile: Self.path).report == "\(Self.path): OK")
    }

    @Test("config/shaked.conf shows every key, set or commented out, under its section")
    func everyKeyIsDocumented() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        var table = ""
        var shown = Set<String>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") {
                table = String(line.dropFirst().prefix { $0 != "]" })
            } else {
                let body = line.hasPrefix("#") ? line.dropFirst() : line[...]
                if let match = body.prefixMatch(of: #/([A-Z][A-Za-z]*)=/#) { shown.insert("\(table).\(match.1)") }
            }
        }
        let missing = ShakedSettings.keys.filter { !shown.contains($0) }
        #expect(missing.isEmpty, "not in config/shaked.conf: \(missing)")
        let unknown = shown.subtracting(ShakedSettings.keys)
        #expect(unknown.isEmpty, "in config/shaked.conf but not a setting: \(unknown)")
    }

    @Test("the commented-out detector tunables in config/shaked.conf are the medium preset, and valid")
    func commentedTunablesAreTheDefaults() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.prefixMatch(of: #/#[A-Z][A-Za-z]*=/#) != nil ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        let settings = try ShakedSettings.parse(uncommented, file: "uncommented")
        #expect(settings.detector.hasOverrides)
        // Compared outside #expect: its expansion of a comparison of two structs this large crashed (Swift 6.3.1).
        let asMedium = settings.detector.configuration == ShakeDetectorConfiguration(sensitivity: .medium)
        #expect(asMedium)
    }

    @Test("the defaults are the documented values")
    func defaults() {
        let s = ShakedSettings()
        #expect(s.sensor.device == nil && s.sensor.rate == 100 && s.sensor.mode == .auto && s.sensor.mountMatrix == nil)
        // Compared outside #expect: its expansion of a comparison of two structs this large crashed (Swift 6.3.1).
        let asDefault = s.detector.configuration == ShakeDetectorConfiguration()
        #expect(asDefault)
        #expect(s.prompt.timeout == 30 && s.prompt.cooldown == 1)
        #expect(s.socket.path == "/run/shaked/io.shaked.Undo" && s.socket.modeText == "0666" && s.socket.group == nil)
        #expect(
            s.limits
                == ShakedSettings.Limits(
                    connections: 256, connectionsPerUser: 32, subscriptions: 1024, subscriptionsPerUser: 64,
                    subscriptionsPerConnection: 4, callsPerSecond: 50, callsPerSecondPerUser: 200, idleTimeout: 10))
        #expect(ShakedSettings.Limits.messageSize == 65536)
        #expect(s.log.level == .info)
    }

    @Test("describe() lists every key and reads back to the same behaviour", arguments: [false, true])
    func describeRoundTrips(changed: Bool) throws {
        var settings = ShakedSettings()
        if changed {
            settings.sensor.device = "accel_3d"
            settings.sensor.mountMatrix = [[0, 1, 0], [1, 0, 0], [0, 0, -1]]
            settings.detector.sensitivity = .high
            settings.detector.gapReset = 0.75
            settings.socket.group = "shaked"
            settings.socket.mode = 0o660
            settings.access.monitor = AccessRule(users: ["alice"], groups: ["wheel", "1000"])
            settings.log.level = .debug
        }
        let text = settings.describe()
        for key in ShakedSettings.keys {
            let name = key.split(separator: ".").last!
            #expect(text.contains("\n\(name)="), "\(key)")
        }
        let back = try ShakedSettings.parse(text, file: "described")
        // Compared outside #expect: its expansion of a comparison of two structs this large crashed (Swift 6.3.1).
        let readBack = back.detector.configuration == settings.detector.configuration
        #expect(readBack)
        var withoutDetector = back
        withoutDetector.detector = settings.detector
        #expect(withoutDetector == settings)
    }
}

/// The units in systemd/ and the configuration's defaults describe the same socket and user.
@Suite struct UnitAgreementTests {
    @Test("shaked.socket listens where [Socket] says, with the same mode")
    func socketAgreesWithConfiguration() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("systemd/shaked.socket")
        let lines = Set(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init))
        let defaults = ShakedSettings().socket
        #expect(lines.contains("ListenStream=\(defaults.path)"))
        #expect(lines.contains("SocketMode=\(defaults.modeText)"))
        #expect(lines.contains("FileDescriptorName=varlink"))
    }
}
