/// One setting of the configuration file: its section, how its value is checked and stored, how it is written.
///
/// A value that fails its key's check is left out and the setting keeps what it had, so the rest of the
/// file can still be checked.
struct SettingKey {
    /// Why a value was refused.
    struct Failure: Error {
        var code: ConfigurationProblem.Code
        var message: String
    }

    /// The section the key belongs to, such as `Prompt`.
    let table: String
    /// The key inside its section, such as `Timeout`.
    let name: String
    /// Checks a value and stores it in the settings.
    let read: (String, inout ShakedSettings) throws(Failure) -> Void
    /// The effective value as written in the file.
    let render: (ShakedSettings) -> String

    /// `Section.Key`.
    var dotted: String { "\(table).\(name)" }

    /// A setting whose empty value puts back its default (`Rate=`), as in systemd's files; `value` checks
    /// any other text.
    static func value<T>(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, T>,
        render: @escaping (T) -> String, read value: @escaping (String) throws(Failure) -> T
    ) -> SettingKey {
        SettingKey(
            table: table, name: name,
            read: { text, settings throws(Failure) in
                settings[keyPath: path] = text.isEmpty ? ShakedSettings()[keyPath: path] : try value(text)
            }, render: { render($0[keyPath: path]) })
    }

    /// A number (or whole number) within a range; `unit` follows the range in messages.
    static func number<T: TunableValue & Comparable>(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, T>, _ range: ClosedRange<T>,
        unit: String = ""
    ) -> SettingKey {
        value(table, name, path, render: \.settingText) { text throws(Failure) in
            let number = try T(setting: text, unit: unit)
            guard range.contains(number) else {
                throw Failure(
                    code: .outOfRange,
                    message: "is \(number.settingText); it must be from \(range.lowerBound.settingText) to "
                        + "\(range.upperBound.settingText)\(unit.isEmpty ? "" : " \(unit)")")
            }
            return number
        }
    }

    /// One of an enumeration's raw values.
    static func choice<E: RawRepresentable & CaseIterable>(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, E>
    ) -> SettingKey where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        return value(table, name, path, render: \.rawValue) { text throws(Failure) in
            guard let choice = E(rawValue: text) else {
                var message = "is \"\(text)\"; it must be one of \(quotedList(names))"
                if let guess = Suggestion.closest(to: text.lowercased(), among: names) {
                    message += " (did you mean \(guess)?)"
                }
                throw Failure(code: .invalidValue, message: message)
            }
            return choice
        }
    }

    /// Text that may be empty to mean "not set"; `check` says what is wrong with a non-empty one.
    static func optionalText(
        _ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, String?>,
        check: @escaping (String) -> String? = { _ in nil }
    ) -> SettingKey {
        value(
            table, name, path, render: { $0 ?? "" },
            read: { text throws(Failure) in
                if let problem = check(text) { throw Failure(code: .invalidValue, message: problem) }
                return text
            })
    }

    /// User or group names (or numbers) separated by spaces, or `*` for anyone; empty for root alone.
    static func names(_ table: String, _ name: String, _ path: WritableKeyPath<ShakedSettings, [String]>) -> SettingKey
    {
        SettingKey(
            table: table, name: name,
            read: { text, settings throws(Failure) in
                let names = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                for (index, name) in names.enumerated() {
                    if let problem = accountNameProblem(name) {
                        throw Failure(code: .invalidValue, message: "name \(index + 1) \(problem)")
                    }
                }
                settings[keyPath: path] = names
            }, render: { $0[keyPath: path].joined(separator: " ") })
    }

    /// An optional override of a detector tunable; empty removes it. Its range is checked with the
    /// detector's own rules once the whole file is read.
    static func override(_ field: ShakedSettings.Detector.Field) -> SettingKey {
        SettingKey(
            table: "Detector", name: field.key,
            read: { text, settings throws(Failure) in try field.read(text, &settings.detector) },
            render: { field.effective($0.detector.configuration) })
    }

    static func finiteNumber(_ text: String, unit: String) throws(Failure) -> Double {
        guard let number = Double(text), text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else {
            throw Failure(
                code: .wrongType,
                message: "is \"\(text)\"; it must be \(unit.isEmpty ? "a number" : "a number (\(unit))")")
        }
        guard number.isFinite else { throw Failure(code: .invalidValue, message: "must be a finite number") }
        return number
    }

    static func wholeNumber(_ text: String) throws(Failure) -> Int {
        guard let number = Int(text) else {
            throw Failure(code: .wrongType, message: "is \"\(text)\"; it must be a whole number")
        }
        return number
    }

    /// What is wrong with a user or group name, or nil. `*` and numbers are fine.
    static func accountNameProblem(_ name: String) -> String? {
        if name == "*" || UInt32(name) != nil { return nil }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_.-$".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.utf8.count <= 256, allowed, name.first != "-" else {
            return "is \"\(name)\"; it must be a user or group name (letters, digits, '_', '.', '-'), "
                + "a number, or * for anyone"
        }
        return nil
    }
}

/// `"a", "b" or "c"`.
func quotedList(_ names: [String]) -> String {
    let quoted = names.map { "\"\($0)\"" }
    return quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + quoted.last! : quoted.first ?? ""
}
