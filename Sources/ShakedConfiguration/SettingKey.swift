import ShakeDetection
import TextSafety

/// One key of the configuration file: its table, how its value is checked and stored, how it is written.
///
/// Each factory below checks the TOML type and the range or form of a value; a value that fails is
/// left out and the setting keeps what it had, so the rest of the file can still be checked.
struct SettingKey {
    /// Why a value was refused.
    struct Failure: Error {
        var code: ConfigurationProblem.Code
        var message: String
    }

    /// The table the key belongs to, such as `prompt`.
    let table: String
    /// The key inside its table, such as `timeout`.
    let name: String
    /// Checks a value and stores it in the settings.
    let read: (TOMLValue, inout ShakedSettings) throws(Failure) -> Void
    /// The effective value as a TOML literal.
    let render: (ShakedSettings) -> String

    /// `table.name`.
    var dotted: String { "\(table).\(name)" }

    static func wrongType(_ value: TOMLValue, _ wanted: String) -> Failure {
        Failure(code: .wrongType, message: "must be \(wanted), not a \(value.type)")
    }

    /// A number (TOML integer or float) within a range.
    static func number(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, Double>, _ range: ClosedRange<Double>,
        unit: String
    ) -> SettingKey {
        SettingKey(
            table: table, name: name,
            read: { value, settings throws(Failure) in
                let number = try finiteNumber(value, unit: unit)
                guard range.contains(number) else {
                    throw Failure(
                        code: .outOfRange,
                        message: "is \(formatNumber(number)); it must be from \(formatNumber(range.lowerBound)) "
                            + "to \(formatNumber(range.upperBound)) \(unit)")
                }
                settings[keyPath: path] = number
            }, render: { formatNumber($0[keyPath: path]) })
    }

    /// A whole number within a range.
    static func integer(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, Int>, _ range: ClosedRange<Int>
    ) -> SettingKey {
        SettingKey(
            table: table, name: name,
            read: { value, settings throws(Failure) in
                guard let number = value.int else { throw wrongType(value, "a whole number") }
                guard range.contains(number) else {
                    throw Failure(
                        code: .outOfRange,
                        message: "is \(number); it must be from \(range.lowerBound) to \(range.upperBound)")
                }
                settings[keyPath: path] = number
            }, render: { String($0[keyPath: path]) })
    }

    /// One of an enumeration's raw values.
    static func choice<E: RawRepresentable & CaseIterable>(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, E>
    ) -> SettingKey where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        return SettingKey(
            table: table, name: name,
            read: { value, settings throws(Failure) in
                guard let text = value.string else { throw wrongType(value, "one of \(quotedList(names))") }
                guard let choice = E(rawValue: text) else {
                    var message = "is \"\(text)\"; it must be one of \(quotedList(names))"
                    if let guess = Suggestion.closest(to: text.lowercased(), among: names) {
                        message += " (did you mean \"\(guess)\"?)"
                    }
                    throw Failure(code: .invalidValue, message: message)
                }
                settings[keyPath: path] = choice
            }, render: { "\"\($0[keyPath: path].rawValue)\"" })
    }

    /// A string that may be empty to mean "not set"; `check` says what is wrong with a non-empty one.
    static func optionalText(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, String?>,
        check: @escaping (String) -> String? = { _ in nil }
    ) -> SettingKey {
        SettingKey(
            table: table, name: name,
            read: { value, settings throws(Failure) in
                guard let text = value.string else { throw wrongType(value, "a string (\"\" for none)") }
                if let problem = check(text) { throw Failure(code: .invalidValue, message: problem) }
                settings[keyPath: path] = text.isEmpty ? nil : text
            }, render: { tomlString($0[keyPath: path] ?? "") })
    }

    /// A list of user or group names (or numbers), or `"*"` for anyone.
    static func names(_ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, [String]>) -> SettingKey
    {
        SettingKey(
            table: table, name: name,
            read: { value, settings throws(Failure) in
                guard let array = value.array else { throw wrongType(value, "a list of names, such as [\"*\"]") }
                var names: [String] = []
                for (index, element) in array.enumerated() {
                    guard let text = element.string else {
                        throw Failure(
                            code: .wrongType,
                            message: "item \(index + 1) must be a name in quotes, not a \(element.type)")
                    }
                    if let problem = accountNameProblem(text) {
                        throw Failure(code: .invalidValue, message: "item \(index + 1) \(problem)")
                    }
                    names.append(text)
                }
                settings[keyPath: path] = names
            }, render: { "[" + $0[keyPath: path].map(tomlString).joined(separator: ", ") + "]" })
    }

    /// An optional override of a detector tunable that is a number; its range is checked with the
    /// detector's own rules once the whole file is read.
    static func override(
        _ name: String, _ path: WritableKeyPath<ShakedSettings.Detector, Double?>,
        effective: @escaping (ShakeDetectorConfiguration) -> Double
    ) -> SettingKey {
        SettingKey(
            table: "detector", name: name,
            read: { value, settings throws(Failure) in
                settings.detector[keyPath: path] = try finiteNumber(value, unit: "")
            }, render: { formatNumber(effective($0.detector.configuration)) })
    }

    /// An optional override of a detector tunable that is a whole number.
    static func override(
        _ name: String, _ path: WritableKeyPath<ShakedSettings.Detector, Int?>,
        effective: @escaping (ShakeDetectorConfiguration) -> Int
    ) -> SettingKey {
        SettingKey(
            table: "detector", name: name,
            read: { value, settings throws(Failure) in
                guard let number = value.int else { throw wrongType(value, "a whole number") }
                settings.detector[keyPath: path] = number
            }, render: { String(effective($0.detector.configuration)) })
    }

    static func finiteNumber(_ value: TOMLValue, unit: String) throws(Failure) -> Double {
        guard let number = value.double ?? value.int.map(Double.init) else {
            throw wrongType(value, unit.isEmpty ? "a number" : "a number (\(unit))")
        }
        guard number.isFinite else { throw Failure(code: .invalidValue, message: "must be a finite number") }
        return number
    }

    /// What is wrong with a user or group name, or nil. `"*"` and numbers are fine.
    static func accountNameProblem(_ name: String) -> String? {
        if name == "*" || UInt32(name) != nil { return nil }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_.-$".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.utf8.count <= 256, allowed, name.first != "-" else {
            return "is \(tomlString(name)); it must be a user or group name (letters, digits, '_', '.', '-'), "
                + "a number, or \"*\" for anyone"
        }
        return nil
    }
}

/// `"a", "b" or "c"`.
func quotedList(_ names: [String]) -> String {
    let quoted = names.map { "\"\($0)\"" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
}

/// A TOML basic string with quotes and backslashes escaped.
func tomlString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
