import ShakeDetection
import TextSafety

extension SettingKey {
    /// The sections of the file, in the order they are documented and described.
    static let tables = ["Sensor", "Detector", "Prompt", "Socket", "Access", "Limits", "Log"]

    /// Every key of the file, section by section, with its allowed values: the one place a setting is declared.
    static var all: [SettingKey] {
        var keys: [SettingKey] = [
            optionalText("Sensor", "Device", \.sensor.device),
            number("Sensor", "Rate", \.sensor.rate, ShakedSettings.Sensor.rates, unit: "Hz"),
            number("Sensor", "PollingRate", \.sensor.pollingRate, ShakedSettings.Sensor.pollingRates, unit: "Hz"),
            choice("Sensor", "Mode", \.sensor.mode),
            mountMatrix,
            choice("Sensor", "Priority", \.sensor.priority),
            choice("Detector", "Sensitivity", \.detector.sensitivity),
        ]
        // The tunables are declared once, in ShakedSettings.Detector.fields.
        keys += ShakedSettings.Detector.fields.map(override)
        keys += [
            number("Prompt", "Timeout", \.prompt.timeout, ShakedSettings.Prompt.timeouts, unit: "seconds"),
            number("Prompt", "Cooldown", \.prompt.cooldown, ShakedSettings.Prompt.cooldowns, unit: "seconds"),
            socketPath, socketMode,
            optionalText("Socket", "Group", \.socket.group, check: accountNameProblem),
        ]
        for action in AccessAction.allCases {
            let name = action.rawValue.prefix(1).uppercased() + action.rawValue.dropFirst()
            keys.append(names("Access", "\(name)Users", \.access[action].users))
            keys.append(names("Access", "\(name)Groups", \.access[action].groups))
        }
        keys += [
            number("Limits", "Connections", \.limits.connections, 1...65536),
            number("Limits", "ConnectionsPerUser", \.limits.connectionsPerUser, 1...4096),
            number("Limits", "Subscriptions", \.limits.subscriptions, 1...65536),
            number("Limits", "SubscriptionsPerUser", \.limits.subscriptionsPerUser, 1...65536),
            number("Limits", "SubscriptionsPerConnection", \.limits.subscriptionsPerConnection, 1...256),
            number("Limits", "CallsPerSecond", \.limits.callsPerSecond, 1...10000),
            number("Limits", "CallsPerSecondPerUser", \.limits.callsPerSecondPerUser, 1...100000),
            number("Limits", "IdleTimeout", \.limits.idleTimeout, 1...3600, unit: "seconds"),
            choice("Log", "Level", \.log.level),
        ]
        return keys
    }

    /// `Sensor.MountMatrix`: three rows of three numbers in udev's form, `0, 1, 0; 1, 0, 0; 0, 0, 1`;
    /// empty for the device's own.
    static var mountMatrix: SettingKey {
        value(
            "Sensor", "MountMatrix", \.sensor.mountMatrix, render: { $0.map(matrixText) ?? "" },
            read: { text throws(Failure) in
                guard let rows = matrixRows(text) else {
                    throw Failure(
                        code: .badMountMatrix,
                        message: "\"\(text)\" is not three rows of numbers such as 0, 1, 0; 1, 0, 0; 0, 0, 1")
                }
                if let problem = MountMatrixCheck.problem(rows) {
                    throw Failure(code: .badMountMatrix, message: problem)
                }
                return rows
            })
    }

    /// `Socket.Path`: an absolute path that fits a Unix socket address; empty for the default.
    static var socketPath: SettingKey {
        value("Socket", "Path", \.socket.path, render: \.self) { path throws(Failure) in
            guard path.hasPrefix("/") else {
                throw Failure(code: .invalidValue, message: "is \"\(path)\"; it must be an absolute path")
            }
            guard path.utf8.count <= ShakedSettings.Socket.maximumPathBytes, !path.contains("\0") else {
                throw Failure(
                    code: .invalidValue,
                    message: "is \(path.utf8.count) bytes long; a Unix socket path holds at most "
                        + "\(ShakedSettings.Socket.maximumPathBytes) bytes, so choose a shorter one")
            }
            return path
        }
    }

    /// `Socket.Mode`: permission bits in octal, `0666`; empty for the default.
    static var socketMode: SettingKey {
        value("Socket", "Mode", \.socket.mode, render: ShakedSettings.Socket.octal) { text throws(Failure) in
            guard (3...4).contains(text.count), text.allSatisfy({ ("0"..."7").contains($0) }),
                let mode = UInt32(text, radix: 8), mode <= 0o777
            else {
                throw Failure(
                    code: .invalidValue,
                    message: "is \"\(text)\"; it must be octal permission bits from 0000 to 0777, such as "
                        + "0666 (anyone may connect) or 0660 (owner and group)")
            }
            return mode
        }
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
                lines.append("\(key.name)=\(key.render(self))")
            }
            sections.append(lines.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// Every key of the configuration file as `Section.Key`, in the order of the default file.
    public static var keys: [String] {
        SettingKey.all.map(\.dotted)
    }
}
