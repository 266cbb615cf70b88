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
        // Unknown keys and tables, with suggestions.
        Case(
            text: "[prompt]\ntimout = 5\n", key: "prompt.timout", line: 2, code: .unknownKey,
            says: "did you mean timeout?"),
        Case(
            text: "[sensor]\nrate = 50\nmode_ = \"auto\"\n", key: "sensor.mode_", line: 3, code: .unknownKey,
            says: "did you mean mode?"),
        Case(
            text: "[detector]\nstroke_threshold = 12\n", key: "detector.stroke_threshold", line: 2, code: .unknownKey,
            says: "did you mean stroke-threshold?"),
        Case(
            text: "[sensor]\ntimeout = 5\n", key: "sensor.timeout", line: 2, code: .unknownKey,
            says: "belongs in [prompt]"),
        Case(
            text: "[log]\nverbosity = 3\n", key: "log.verbosity", line: 2, code: .unknownKey,
            says: "its settings are level"),
        Case(
            text: "# comment\n[promt]\ntimeout = 5\n", key: "promt", line: 2, code: .unknownTable,
            says: "did you mean [prompt]?"),
        Case(
            text: "[network]\nport = 1\n", key: "network", line: 1, code: .unknownTable, says: "The tables are [sensor]"
        ),
        Case(
            text: "timeout = 5\n", key: "timeout", line: 1, code: .unknownKey, says: "did you mean timeout in [prompt]?"
        ),
        Case(
            text: "[sensor.extra]\nx = 1\n", key: "sensor.extra", line: 1, code: .unknownKey,
            says: "not a setting of [sensor]"),
        // Wrong types.
        Case(
            text: "[prompt]\ntimeout = \"30\"\n", key: "prompt.timeout", line: 2, code: .wrongType,
            says: "must be a number (seconds), not a string"),
        Case(
            text: "[limits]\nsubscriptions = 10.5\n", key: "limits.subscriptions", line: 2, code: .wrongType,
            says: "a whole number, not a floating-point number"),
        Case(text: "[log]\nlevel = 3\n", key: "log.level", line: 2, code: .wrongType, says: "must be one of \"trace\""),
        Case(
            text: "[access]\nsubscribe-users = \"*\"\n", key: "access.subscribe-users", line: 2, code: .wrongType,
            says: "a list of names"),
        Case(
            text: "[access]\nrequest-groups = [\"input\", 7.5]\n", key: "access.request-groups", line: 2,
            code: .wrongType, says: "item 2"),
        Case(
            text: "[socket]\nmode = 0o660\n", key: "socket.mode", line: 2, code: .wrongType,
            says: "octal mode in quotes"),
        Case(text: "sensor = 5\n", key: "sensor", line: 1, code: .wrongType, says: "must be a table"),
        Case(
            text: "[detector]\nreversals = 3.5\n", key: "detector.reversals", line: 2, code: .wrongType,
            says: "a whole number"),
        Case(
            text: "[detector]\nlinearity = true\n", key: "detector.linearity", line: 2, code: .wrongType,
            says: "not a bool"),
        // Out of range, checked by the settings' own ranges.
        Case(
            text: "[sensor]\nrate = 5\n", key: "sensor.rate", line: 2, code: .outOfRange,
            says: "is 5; it must be from 10 to 1000 Hz"),
        Case(
            text: "[sensor]\nrate = 2000.5\n", key: "sensor.rate", line: 2, code: .outOfRange,
            says: "from 10 to 1000 Hz"),
        Case(
            text: "[prompt]\ntimeout = 0\n", key: "prompt.timeout", line: 2, code: .outOfRange,
            says: "from 1 to 600 seconds"),
        Case(
            text: "[prompt]\ncooldown = -1\n", key: "prompt.cooldown", line: 2, code: .outOfRange,
            says: "from 0 to 60 seconds"),
        Case(
            text: "[limits]\nconnections-per-user = 0\n", key: "limits.connections-per-user", line: 2,
            code: .outOfRange, says: "from 1 to 4096"),
        Case(
            text: "[limits]\ncalls-per-second = 100000\n", key: "limits.calls-per-second", line: 2, code: .outOfRange,
            says: "from 1 to 10000"),
        // Out of range, checked by the detector's validate().
        Case(
            text: "[detector]\nreversals = 9\n", key: "detector.reversals", line: 2, code: .outOfRange,
            says: "is 9; it must be from 2 to 7"),
        Case(
            text: "[detector]\nstroke-threshold = -3\n", key: "detector.stroke-threshold", line: 2, code: .outOfRange,
            says: "must be above 0 m/s²"),
        Case(
            text: "[detector]\nlinearity = 1.5\n", key: "detector.linearity", line: 2, code: .outOfRange,
            says: "is a cosine, from -1 to 1"),
        Case(
            text: "[detector]\nhalf-period-max = 2\n", key: "detector.half-period-max", line: 2, code: .outOfRange,
            says: "must lie in (0, 1] s"),
        Case(
            text: "[detector]\nhalf-period-min = 0.5\n", key: "detector.half-period-min", line: 2, code: .outOfRange,
            says: "above half-period-max"),
        Case(
            text: "[detector]\n\nsettle-time = 3\n", key: "detector.settle-time", line: 3, code: .outOfRange,
            says: "raise maximum-holdoff or lower settle-time"),
        Case(
            text: "[detector]\nsettle-time = 1\nmaximum-holdoff = 0.8\n", key: "detector.maximum-holdoff", line: 3,
            code: .outOfRange, says: "maximum-holdoff (0.8 s) must be at least settle-time (1 s)"),
        Case(
            text: "[detector]\nactivity-strokes = 0\n", key: "detector.activity-strokes", line: 2, code: .outOfRange,
            says: "must be at least 1"),
        Case(
            text: "[detector]\ngap-reset = nan\n", key: "detector.gap-reset", line: 2, code: .invalidValue,
            says: "finite"),
        // Bad values of the right type.
        Case(
            text: "[detector]\nsensitivity = \"meduim\"\n", key: "detector.sensitivity", line: 2, code: .invalidValue,
            says: "did you mean \"medium\"?"),
        Case(
            text: "[log]\nlevel = \"verbose\"\n", key: "log.level", line: 2, code: .invalidValue,
            says: "\"notice\", \"warning\", \"error\" or \"critical\""),
        Case(
            text: "[sensor]\nmode = \"interrupt\"\n", key: "sensor.mode", line: 2, code: .invalidValue,
            says: "\"auto\", \"buffered\" or \"polled\""),
        Case(
            text: "[socket]\npath = \"run/shaked.sock\"\n", key: "socket.path", line: 2, code: .invalidValue,
            says: "absolute path"),
        Case(
            text: "[socket]\npath = \"/\(String(repeating: "x", count: 120))\"\n", key: "socket.path", line: 2,
            code: .invalidValue, says: "at most 107 bytes"),
        Case(
            text: "[socket]\nmode = \"0999\"\n", key: "socket.mode", line: 2, code: .invalidValue,
            says: "octal permission bits"),
        Case(text: "[socket]\nmode = \"4755\"\n", key: "socket.mode", line: 2, code: .invalidValue, says: "\"0777\""),
        Case(
            text: "[socket]\ngroup = \"bad group\"\n", key: "socket.group", line: 2, code: .invalidValue,
            says: "user or group name"),
        Case(
            text: "[access]\nmonitor-users = [\"\"]\n", key: "access.monitor-users", line: 2, code: .invalidValue,
            says: "item 1"),
        // Mount matrices.
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0, 0], [0, 1, 0]]\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "3 rows of 3 numbers"),
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0], [0, 1], [0, 0]]\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "3 rows of 3 numbers"),
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0, 0], [1, 0, 0], [0, 0, 1]]\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "singular"),
        Case(
            text: "[sensor]\nmount-matrix = [[2, 0, 0], [0, 1, 0], [0, 0, 1]]\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "row 1 has length 2"),
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1]]\n", key: "sensor.mount-matrix",
            line: 2, code: .badMountMatrix, says: "rows 1 and 2 are not at right angles"),
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0, inf], [0, 1, 0], [0, 0, 1]]\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "not finite"),
        Case(
            text: "[sensor]\nmount-matrix = [[1, 0, \"0\"], [0, 1, 0], [0, 0, 1]]\n", key: "sensor.mount-matrix",
            line: 2, code: .badMountMatrix, says: "row 1 must be a list of numbers"),
        Case(
            text: "[sensor]\nmount-matrix = \"1, 0, 0; 0, 1, 0\"\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "3 rows of 3 numbers"),
        Case(
            text: "[sensor]\nmount-matrix = \"1, 0, x; 0, 1, 0; 0, 0, 1\"\n", key: "sensor.mount-matrix", line: 2,
            code: .badMountMatrix, says: "not three rows of numbers"),
        Case(
            text: "[sensor]\nmount-matrix = 1\n", key: "sensor.mount-matrix", line: 2, code: .wrongType,
            says: "three rows of numbers"),
        Case(
            text: "[sensor]\nmount-matrix = [\n  [0, 1, 0],\n  [1, 0, 0],\n  [0, 0, 2]\n]\nrate = 1\n",
            key: "sensor.rate", line: 7,
            code: .outOfRange, says: "from 10 to 1000"),
        // Syntax.
        Case(text: "[prompt]\ntimeout = = 5\n", key: nil, line: 2, code: .syntax, says: "not valid TOML"),
        Case(text: "[prompt]\ntimeout = 5\ntimeout = 6\n", key: nil, line: 3, code: .syntax, says: "not valid TOML"),
    ]

    @Test(arguments: cases)
    func problemIsReported(_ c: Case) throws {
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.parse(c.text, file: "t.conf")
        }
        let expected = c.testDescription
        // The multi-line matrix case has two problems (the matrix and the rate); the others exactly one.
        let problem = try #require(
            error.problems.first { $0.key == c.key && $0.code == c.code }, "\(error) (\(expected))")
        #expect(problem.line == c.line, "\(problem)")
        #expect(problem.file == "t.conf")
        #expect(problem.message.contains(c.says), "\(problem)")
        #expect(problem.description.hasPrefix("t.conf:\(c.line.map(String.init) ?? "")"), "\(problem)")
        if !c.text.contains("[0, 0, 2]") { #expect(error.problems.count == 1, "\(error)") }
    }

    @Test("every problem in a file is reported, in line order, not only the first")
    func allProblemsCollected() throws {
        let text = """
            [sensor]
            rate = 5
            mode = "fast"

            [detector]
            reversals = 9
            linearity = 2
            sensitivty = "high"

            [prompt]
            timeout = "long"

            [colours]
            x = 1
            """
        let error = try #require(throws: ConfigurationFileError.self) { try ShakedSettings.parse(text, file: "f.conf") }
        #expect(
            error.problems.map(\.key) == [
                "sensor.rate", "sensor.mode", "detector.reversals", "detector.linearity", "detector.sensitivty",
                "prompt.timeout", "colours",
            ])
        #expect(error.problems.map(\.line) == [2, 3, 6, 7, 8, 11, 13])
        #expect(error.description.split(separator: "\n").count == 7)
        #expect(
            error.description.contains(
                "f.conf:8: detector.sensitivty: is not a setting of [detector]; did you mean sensitivity?"))
    }

    @Test("a syntax error gives the line and column from the TOML parser")
    func syntaxPosition() throws {
        let error = try #require(throws: ConfigurationFileError.self) {
            try ShakedSettings.parse("[log]\nlevel = \"info\n", file: "s.conf")
        }
        let problem = try #require(error.problems.first)
        #expect(problem.code == .syntax)
        #expect(problem.line == 2)
        #expect(problem.column != nil)
        #expect(problem.description.hasPrefix("s.conf:2:"))
    }
}
