import ShakeDetection
import TextSafety

extension SettingKey {
    /// The tables of the file, in the order they are documented and described.
    static let tables = ["sensor", "detector", "prompt", "socket", "access", "limits", "log"]

    /// Every key of the file, table by table.
    static var all: [SettingKey] {
        var keys: [SettingKey] = [
            optionalText("sensor", "device", \.sensor.device),
            number("sensor", "rate", \.sensor.rate, ShakedSettings.Sensor.rates, unit: "Hz"),
            choice("sensor", "mode", \.sensor.mode),
            mountMatrix,
            choice("detector", "sensitivity", \.detector.sensitivity),
            override("stroke-threshold", \.strokeThreshold) { $0.strokeThreshold },
            override("reversals", \.reversals) { $0.reversals },
            override("half-period-min", \.halfPeriodMin) { $0.halfPeriod.lowerBound },
            override("half-period-max", \.halfPeriodMax) { $0.halfPeriod.upperBound },
            override("linearity", \.linearity) { $0.linearity },
            override("maximum-zigzag", \.maximumZigzag) { $0.maximumZigzag },
            override("maximum-rhythm-ratio", \.maximumRhythmRatio) { $0.maximumRhythmRatio },
            override("gravity-time-constant", \.gravityTimeConstant) { $0.gravityTimeConstant },
            override("settle-time", \.settleTime) { $0.settleTime },
            override("maximum-holdoff", \.maximumHoldoff) { $0.maximumHoldoff },
            override("gap-reset", \.gapReset) { $0.gapReset },
            override("activity-window", \.activityWindow) { $0.activityWindow },
            override("activity-strokes", \.activityStrokes) { $0.activityStrokes },
            number("prompt", "timeout", \.prompt.timeout, ShakedSettings.Prompt.timeouts, unit: "seconds"),
            number("prompt", "cooldown", \.prompt.cooldown, ShakedSettings.Prompt.cooldowns, unit: "seconds"),
            socketPath, socketMode,
            optionalText("socket", "group", \.socket.group) { $0.isEmpty ? nil : accountNameProblem($0) },
        ]
        for action in AccessAction.allCases {
            keys.append(names("access", "\(action.rawValue)-users", \.access[action].users))
            keys.append(names("access", "\(action.rawValue)-groups", \.access[action].groups))
        }
        keys += [
            integer("limits", "connections", \.limits.connections, ShakedSettings.Limits.connectionsRange),
            integer(
                "limits", "connections-per-user", \.limits.connectionsPerUser,
                ShakedSettings.Limits.connectionsPerUserRange),
            integer("limits", "subscriptions", \.limits.subscriptions, ShakedSettings.Limits.subscriptionsRange),
            integer(
                "limits", "subscriptions-per-user", \.limits.subscriptionsPerUser,
                ShakedSettings.Limits.subscriptionsPerUserRange),
            integer(
                "limits", "subscriptions-per-connection", \.limits.subscriptionsPerConnection,
                ShakedSettings.Limits.subscriptionsPerConnectionRange),
            integer("limits", "calls-per-second", \.limits.callsPerSecond, ShakedSettings.Limits.callsPerSecondRange),
            integer(
                "limits", "calls-per-second-per-user", \.limits.callsPerSecondPerUser,
                ShakedSettings.Limits.callsPerSecondPerUserRange),
            number("limits", "idle-timeout", \.limits.idleTimeout, ShakedSettings.Limits.idleTimeouts, unit: "seconds"),
            choice("log", "level", \.log.level),
        ]
        return keys
    }

    /// `sensor.mount-matrix`: three rows of three numbers, or the udev text form; empty for none.
    static var mountMatrix: SettingKey {
        SettingKey(
            table: "sensor", name: "mount-matrix",
            read: { value, settings throws(Failure) in
                let rows: [[Double]]
                if let text = value.string {
                    if text.allSatisfy({ $0 == " " }) {
                        settings.sensor.mountMatrix = nil
                        return
                    }
                    guard let parsed = MountMatrixCheck.parse(text) else {
                        throw Failure(
                            code: .badMountMatrix,
                            message:
                                "\(tomlString(text)) is not three rows of numbers such as \"0, 1, 0; 1, 0, 0; 0, 0, 1\""
                        )
                    }
                    rows = parsed
                } else if let array = value.array {
                    if array.isEmpty {
                        settings.sensor.mountMatrix = nil
                        return
                    }
                    var parsed: [[Double]] = []
                    for (index, rowValue) in array.enumerated() {
                        let numbers = rowValue.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
                        guard let numbers, numbers.count == rowValue.array?.count else {
                            throw Failure(
                                code: .badMountMatrix,
                                message: "row \(index + 1) must be a list of numbers, such as [0, 1, 0]")
                        }
                        parsed.append(numbers)
                    }
                    rows = parsed
                } else {
                    throw wrongType(value, "three rows of numbers, such as [[0, 1, 0], [1, 0, 0], [0, 0, 1]]")
                }
                if let problem = MountMatrixCheck.problem(rows) {
                    throw Failure(code: .badMountMatrix, message: problem)
                }
                settings.sensor.mountMatrix = rows
            },
            render: { settings in
                guard let rows = settings.sensor.mountMatrix else { return "\"\"" }
                return "["
                    + rows.map { "[" + $0.map(formatNumber).joined(separator: ", ") + "]" }
                    .joined(separator: ", ") + "]"
            })
    }

    /// `socket.path`: an absolute path that fits a Unix socket address.
    static var socketPath: SettingKey {
        SettingKey(
            table: "socket", name: "path",
            read: { value, settings throws(Failure) in
                guard let path = value.string else { throw wrongType(value, "an absolute path in quotes") }
                guard path.hasPrefix("/") else {
                    throw Failure(code: .invalidValue, message: "is \(tomlString(path)); it must be an absolute path")
                }
                guard path.utf8.count <= ShakedSettings.Socket.maximumPathBytes, !path.contains("\0") else {
                    throw Failure(
                        code: .invalidValue,
                        message: "is \(path.utf8.count) bytes long; a Unix socket path holds at most "
                            + "\(ShakedSettings.Socket.maximumPathBytes) bytes, so choose a shorter one")
                }
                settings.socket.path = path
            }, render: { tomlString($0.socket.path) })
    }

    /// `socket.mode`: permission bits as an octal string, `"0666"`.
    static var socketMode: SettingKey {
        SettingKey(
            table: "socket", name: "mode",
            read: { value, settings throws(Failure) in
                guard let text = value.string else {
                    throw wrongType(value, "an octal mode in quotes, such as \"0666\"")
                }
                guard (3...4).contains(text.count), text.allSatisfy({ ("0"..."7").contains($0) }),
                    let mode = UInt32(text, radix: 8), mode <= 0o777
                else {
                    throw Failure(
                        code: .invalidValue,
                        message: "is \(tomlString(text)); it must be octal permission bits from \"0000\" to "
                            + "\"0777\", such as \"0666\" (anyone may connect) or \"0660\" (owner and group)")
                }
                settings.socket.mode = mode
            }, render: { "\"\($0.socket.modeText)\"" })
    }
}

extension ShakedSettings {
    /// The effective settings as a configuration file: every table and key, detector tunables with the
    /// values they take (from the sensitivity unless overridden). Reading it back gives the same behaviour.
    public func describe() -> String {
        let keys = SettingKey.all
        var sections: [String] = []
        for table in SettingKey.tables {
            var lines = ["[\(table)]"]
            for key in keys where key.table == table {
                lines.append("\(key.name) = \(key.render(self))")
            }
            sections.append(lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// Every key of the configuration file as `table.key`, in the order of the default file.
    public static var keys: [String] {
        SettingKey.all.map(\.dotted)
    }
}
