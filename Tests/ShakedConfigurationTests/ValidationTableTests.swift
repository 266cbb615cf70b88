import ShakedConfiguration
import Testing

/// Every kind of mistake in a configuration file, each reported with its key, line, kind and advice.
@Suite struct ValidationTableTests {
    /// A file's text and the one problem it must produce: key, line, kind, and words the message must hold.
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var key: String?
        var line: Int?
        var code: ConfigurationProblem.Code
        var says: String
        var testDescription: String { "\(code): \(says)" }
    }

    static let cases: [Case] = [
        // Unknown keys and sections, with suggestions.
        Case(
            text: "[Prompt]\nTimout=5\n", key: "Prompt.Timout", line: 2, code: .unknownKey,
            says: "did you mean Timeout?"),
        Case(
            text: "[Sensor]\nRate=50\nMode_=auto\n", key: "Sensor.Mode_", line: 3, code: .unknownKey,
            says: "did you mean Mode?"),
        Case(
            text: "[Detector]\nStrokeTreshold=12\n", key: "Detector.StrokeTreshold", line: 2, code: .unknownKey,
            says: "did you mean StrokeThreshold?"),
        Case(
            text: "[Sensor]\nTimeout=5\n", key: "Sensor.Timeout", line: 2, code: .unknownKey,
            says: "belongs in [Prompt]"),
        Case(
            text: "[Log]\nVerbosity=3\n", key: "Log.Verbosity", line: 2, code: .unknownKey,
            says: "its settings are Level"),
        Case(
            text: "# comment\n[Promt]\nTimeout=5\n", key: "Promt", line: 2, code: .unknownTable,
            says: "did you mean [Prompt]?"),
        Case(
            text: "[Network]\nPort=1\n", key: "Network", line: 1, code: .unknownTable, says: "The sections are [Sensor]"
        ),
        Case(
            text: "Timeout=5\n", key: "Timeout", line: 1, code: .unknownKey, says: "did you mean Timeout in [Prompt]?"),
        // Wrong kinds of value.
        Case(
            text: "[Prompt]\nTimeout=thirty\n", key: "Prompt.Timeout", line: 2, code: .wrongType,
            says: "must be a number (seconds)"),
        Case(
            text: "[Limits]\nSubscriptions=10.5\n", key: "Limits.Subscriptions", line: 2, code: .wrongType,
            says: "a whole number"),
        Case(
            text: "[Log]\nLevel=3\n", key: "Log.Level", line: 2, code: .invalidValue, says: "must be one of \"trace\""),
        Case(
            text: "[Detector]\nReversals=3.5\n", key: "Detector.Reversals", line: 2, code: .wrongType,
            says: "a whole number"),
        Case(
            text: "[Detector]\nLinearity=true\n", key: "Detector.Linearity", line: 2, code: .wrongType, says: "a number"
        ),
        // Out of range, checked by the settings' own ranges.
        Case(
            text: "[Sensor]\nRate=5\n", key: "Sensor.Rate", line: 2, code: .outOfRange,
            says: "is 5; it must be from 10 to 1000 Hz"),
        Case(
            text: "[Sensor]\nRate=2000.5\n", key: "Sensor.Rate", line: 2, code: .outOfRange, says: "from 10 to 1000 Hz"),
        Case(
            text: "[Sensor]\nPollingRate=10\n", key: "Sensor.PollingRate", line: 2, code: .outOfRange,
            says: "is 10; it must be from 25 to 200 Hz"),
        Case(
            text: "[Sensor]\nPollingRate=fast\n", key: "Sensor.PollingRate", line: 2, code: .wrongType, says: "a number"),
        Case(
            text: "[Prompt]\nTimeout=0\n", key: "Prompt.Timeout", line: 2, code: .outOfRange,
            says: "from 1 to 600 seconds"),
        Case(
            text: "[Prompt]\nCooldown=-1\n", key: "Prompt.Cooldown", line: 2, code: .outOfRange,
            says: "from 0 to 60 seconds"),
        Case(
            text: "[Limits]\nConnectionsPerUser=0\n", key: "Limits.ConnectionsPerUser", line: 2, code: .outOfRange,
            says: "from 1 to 4096"),
        Case(
            text: "[Limits]\nCallsPerSecond=100000\n", key: "Limits.CallsPerSecond", line: 2, code: .outOfRange,
            says: "from 1 to 10000"),
        // Out of range, checked by the detector's validate().
        Case(
            text: "[Detector]\nReversals=9\n", key: "Detector.Reversals", line: 2, code: .outOfRange,
            says: "is 9; it must be from 2 to 7"),
        Case(
            text: "[Detector]\nStrokeThreshold=-3\n", key: "Detector.StrokeThreshold", line: 2, code: .outOfRange,
            says: "must be above 0 m/s²"),
        Case(
            text: "[Detector]\nLinearity=1.5\n", key: "Detector.Linearity", line: 2, code: .outOfRange,
            says: "is a cosine, from -1 to 1"),
        Case(
            text: "[Detector]\nHalfPeriodMax=2\n", key: "Detector.HalfPeriodMax", line: 2, code: .outOfRange,
            says: "must lie in (0, 1] s"),
        Case(
            text: "[Detector]\nHalfPeriodMin=0.5\n", key: "Detector.HalfPeriodMin", line: 2, code: .outOfRange,
            says: "above HalfPeriodMax"),
        Case(
            text: "[Detector]\n\nSettleTime=3\n", key: "Detector.SettleTime", line: 3, code: .unknownKey,
            says: "is no longer a setting (a shake is answered when the hand stops"),
        Case(
            text: "[Detector]\nMaximumHoldoff=2\n", key: "Detector.MaximumHoldoff", line: 2, code: .unknownKey,
            says: "delete this line"),
        Case(
            text: "[Detector]\nActivityStrokes=0\n", key: "Detector.ActivityStrokes", line: 2, code: .outOfRange,
            says: "must be at least 1"),
        Case(
            text: "[Detector]\nGapReset=1e400\n", key: "Detector.GapReset", line: 2, code: .invalidValue,
            says: "finite"),
        // Bad values of the right kind.
        Case(
            text: "[Detector]\nSensitivity=meduim\n", key: "Detector.Sensitivity", line: 2, code: .invalidValue,
            says: "did you mean medium?"),
        Case(
            text: "[Log]\nLevel=verbose\n", key: "Log.Level", line: 2, code: .invalidValue,
            says: "\"notice\", \"warning\", \"error\" or \"critical\""),
        Case(
            text: "[Sensor]\nMode=interrupt\n", key: "Sensor.Mode", line: 2, code: .invalidValue,
            says: "\"auto\", \"buffered\" or \"polled\""),
        Case(
            text: "[Socket]\nPath=run/shaked.sock\n", key: "Socket.Path", line: 2, code: .invalidValue,
            says: "absolute path"),
        Case(
            text: "[Socket]\nPath=/\(String(repeating: "x", count: 120))\n", key: "Socket.Path", line: 2,
            code: .invalidValue, says: "at most 107 bytes"),
        Case(
            text: "[Socket]\nMode=0999\n", key: "Socket.Mode", line: 2, code: .invalidValue,
            says: "octal permission bits"),
        Case(text: "[Socket]\nMode=4755\n", key: "Socket.Mode", line: 2, code: .invalidValue, says: "0777"),
        Case(
            text: "[Socket]\nGroup=bad/group\n", key: "Socket.Group", line: 2, code: .invalidValue,
            says: "user or group name"),
        Case(
            text: "[Access]\nMonitorUsers=alice b@d\n", key: "Access.MonitorUsers", line: 2, code: .invalidValue,
            says: "name 2"),
        // Mount matrices.
        Case(
            text: "[Sensor]\nMountMatrix=1, 0, 0; 0, 1, 0\n", key: "Sensor.MountMatrix", line: 2, code: .badMountMatrix,
            says: "3 rows of 3 numbers"),
        Case(
            text: "[Sensor]\nMountMatrix=1, 0; 0, 1; 0, 0\n", key: "Sensor.MountMatrix", line: 2, code: .badMountMatrix,
            says: "3 rows of 3 numbers"),
        Case(
            text: "[Sensor]\nMountMatrix=1, 0, 0; 1, 0, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "singular"),
        Case(
            text: "[Sensor]\nMountMatrix=2, 0, 0; 0, 1, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "row 1 has length 2"),
        Case(
            text: "[Sensor]\nMountMatrix=1, 0, 0; 0.6, 0.8, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "rows 1 and 2 are not at right angles"),
        Case(
            text: "[Sensor]\nMountMatrix=1, 0, inf; 0, 1, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "not finite"),
        Case(
            text: "[Sensor]\nMountMatrix=1, 0, x; 0, 1, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "not three rows of numbers"),
        // Spaces inside a number split it, as the sensor's own matrix is read: "1 0" is not 10.
        Case(
            text: "[Sensor]\nMountMatrix=1 0, 0, 0; 0, 1, 0; 0, 0, 1\n", key: "Sensor.MountMatrix", line: 2,
            code: .badMountMatrix, says: "not three rows of numbers"),
        // Syntax.
        Case(
            text: "[Prompt]\nTimeout 5\n", key: nil, line: 2, code: .syntax,
            says: "not a [Section] header or a Key=value"),
        Case(text: "[Prompt\n", key: nil, line: 1, code: .syntax, says: "a name in brackets"),
        Case(text: "[Prompt]\n=5\n", key: nil, line: 2, code: .syntax, says: "needs a name before '='"),
        // The TOML format of earlier versions: each section, key and quoted value says how to write it now.
        Case(
            text: "[prompt]\ntimeout = 5\n", key: "prompt", line: 1, code: .syntax,
            says: "write this section as [Prompt]"),
        Case(
            text: "[Detector]\nstroke-threshold = 12\n", key: "Detector.stroke-threshold", line: 2, code: .syntax,
            says: "not TOML"),
        Case(text: "[Sensor]\nMode=\"auto\"\n", key: "Sensor.Mode", line: 2, code: .syntax, says: "Mode=auto"),
        Case(
            text: "[Access]\nRequestGroups=[\"input\"]\n", key: "Access.RequestGroups", line: 2, code: .syntax,
            says: "names separated by spaces"),
    ]

    @Test(arguments: cases)
    func problemIsReported(_ c: Case) throws {
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.parse(c.text, file: "t.conf")
        }
        let expected = c.testDescription
        let problem = try #require(
            error.problems.first { $0.key == c.key && $0.code == c.code }, "\(error) (\(expected))")
        #expect(problem.line == c.line, "\(problem)")
        #expect(problem.file == "t.conf")
        #expect(problem.message.contains(c.says), "\(problem)")
        #expect(problem.description.hasPrefix("t.conf:\(c.line.map(String.init) ?? "")"), "\(problem)")
        #expect(error.problems.count == 1, "\(error)")
    }

    @Test("every problem in a file is reported, in line order, not only the first")
    func allProblemsCollected() throws {
        let text = """
            [Sensor]
            Rate=5
            Mode=fast

            [Detector]
            Reversals=9
            Linearity=2
            Sensitivty=high

            [Prompt]
            Timeout=long

            [Colours]
            X=1
            """
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.parse(text, file: "f.conf") }
        #expect(
            error.problems.map(\.key) == [
                "Sensor.Rate", "Sensor.Mode", "Detector.Reversals", "Detector.Linearity", "Detector.Sensitivty",
                "Prompt.Timeout", "Colours",
            ])
        #expect(error.problems.map(\.line) == [2, 3, 6, 7, 8, 11, 13])
        #expect(error.description.split(separator: "\n").count == 7)
        #expect(
            error.description.contains(
                "f.conf:8: Detector.Sensitivty: is not a setting of [Detector]; did you mean Sensitivity?"))
    }

    @Test("a whole file in the old TOML format gets one problem per section, each saying how to write it now")
    func oldFormat() throws {
        let text = "[sensor]\nrate = 100\nmode = \"auto\"\n\n[prompt]\ntimeout = 30\n"
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.parse(text, file: "o.conf") }
        #expect(error.problems.map(\.line) == [1, 5])
        #expect(error.problems.allSatisfy { $0.code == .syntax && $0.message.contains("systemd's format") })
        #expect(error.description.contains("o.conf:5: prompt: shaked reads systemd's format now, not TOML"))
        #expect(error.description.contains("write this section as [Prompt] and its settings as Timeout=..."))
    }
}
