import TextSafety

/// The length and character rules of every string a client sends, as `io.shaked.Undo.varlink`
/// states them. A field that breaks its rule is refused with `InvalidParameter` naming it, before
/// the daemon looks at its meaning, stores it or logs it.
///
/// The limits are hard bounds that keep memory and logs safe; the guideline checks in
/// ``PromptRules`` (a title of at most 40 columns, a message of 120 characters) come after them
/// and give a ``PromptRejected`` that says what to change.
public enum FieldRule: Sendable, Hashable {
    /// A reverse-DNS app id such as `org.example.Notes`: at most 255 bytes, two or more dot-separated
    /// elements of ASCII letters, digits, `_` and `-`, none empty and none starting with a digit.
    case appID
    /// Text a person sees: 1 to `characters` characters (at most 4 bytes each), no control characters
    /// (Unicode Cc: NUL, CR, LF, ESC, DEL…), no bidirectional formatting characters (U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069), no line or paragraph separators, and not only spaces.
    case visible(characters: Int)
    /// A token the daemon issued: 32 lower-case hexadecimal digits.
    case token
    /// An intent id the daemon issued: `intent-` and up to 20 digits.
    case intentID
    /// One of a few fixed words, such as a sensitivity level.
    case oneOf([String])

    /// The app's display name (`Subscribe.name`) and the agent's name.
    public static let name = FieldRule.visible(characters: 64)
    /// An action name such as "Typing" (`SetContext.undo` and `.redo`).
    public static let actionName = FieldRule.visible(characters: 32)
    /// `ReportResult.summary`.
    public static let summary = FieldRule.visible(characters: 120)
    /// `Prompt.title`; the guideline limit (40 columns) is checked after this bound.
    public static let title = FieldRule.visible(characters: 80)
    /// `Prompt.message`; the guideline limit (120 characters) is checked after this bound.
    public static let message = FieldRule.visible(characters: 240)
    /// `PromptAction.label`.
    public static let label = FieldRule.visible(characters: 32)
    /// The sensitivity levels a person may choose (`SetPreferences.sensitivity`).
    public static let sensitivityLevels = ["low", "medium", "high"]
    /// `SetPreferences.sensitivity`.
    public static let sensitivity = FieldRule.oneOf(sensitivityLevels)
    /// The most buttons a prompt may carry on the wire; the guidelines allow two or three.
    public static let maximumActions = 8

    /// Whether `value` keeps the rule.
    public func allows(_ value: String) -> Bool {
        switch self {
        case .appID: return Self.isAppID(value)
        case .visible(let characters): return Self.isVisible(value, characters: characters)
        case .token: return value.utf8.count == 32 && value.utf8.allSatisfy(Self.isLowerHex)
        case .intentID:
            let digits = value.utf8.dropFirst(7)
            return value.hasPrefix("intent-") && (1...20).contains(digits.count)
                && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        case .oneOf(let words): return words.contains(value)
        }
    }

    /// Throws `InvalidParameter(field)` unless `value` keeps the rule.
    public func check(_ value: String, field: String) throws(VarlinkError) {
        guard allows(value) else { throw .invalidParameter(field) }
    }

    /// Throws `InvalidParameter(field)` unless `value` is nil or keeps the rule.
    public func check(_ value: String?, field: String) throws(VarlinkError) {
        if let value { try check(value, field: field) }
    }

    private static func isVisible(_ value: String, characters: Int) -> Bool {
        let utf8 = value.utf8.count
        guard utf8 > 0, utf8 <= characters * 4 else { return false }
        var count = 0
        var onlySpaces = true
        for scalar in value.unicodeScalars {
            if scalar.isHiddenInText { return false }
            if !scalar.properties.isWhitespace { onlySpaces = false }
        }
        for _ in value {
            count += 1
            if count > characters { return false }
        }
        return !onlySpaces
    }

    private static func isAppID(_ value: String) -> Bool {
        let bytes = value.utf8
        guard bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !(first >= 0x30 && first <= 0x39) else { return false }
            return element.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
                    || c == 0x2D
            }
        }
    }

    private static func isLowerHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }
}

/// Parameters that check their own fields against ``FieldRule``s; ``VarlinkCodec/parameters(_:of:)``
/// runs the check after decoding, so no call reaches the daemon's logic unchecked.
public protocol CheckedParameters: Decodable {
    /// Throws `InvalidParameter` naming the first field that breaks its rule.
    func check() throws(VarlinkError)
}

extension SubscribeParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.appID.check(app, field: "app")
        try FieldRule.name.check(name, field: "name")
    }
}

extension SetContextParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.token.check(token, field: "token")
        // An empty name means "nothing", as null does.
        try FieldRule.actionName.check(undo.flatMap { $0.isEmpty ? nil : $0 }, field: "undo")
        try FieldRule.actionName.check(redo.flatMap { $0.isEmpty ? nil : $0 }, field: "redo")
    }
}

extension AnswerIntentParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.token.check(token, field: "token")
        try FieldRule.intentID.check(intent, field: "intent")
        try prompt.check()
    }
}

extension Prompt {
    /// Checks the title, message and labels against their ``FieldRule``s (`prompt.title`, …).
    public func check() throws(VarlinkError) {
        try FieldRule.title.check(title, field: "prompt.title")
        try FieldRule.message.check(message, field: "prompt.message")
        guard actions.count <= FieldRule.maximumActions else { throw .invalidParameter("prompt.actions") }
        for action in actions { try FieldRule.label.check(action.label, field: "prompt.actions.label") }
    }
}

extension ChooseParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.token.check(token, field: "token")
        try FieldRule.intentID.check(intent, field: "intent")
    }
}

extension ReportResultParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.token.check(token, field: "token")
        try FieldRule.intentID.check(intent, field: "intent")
        try FieldRule.summary.check(summary, field: "summary")
    }
}

extension RegisterAgentParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.name.check(name, field: "name")
    }
}

extension StandInParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.token.check(token, field: "token")
        guard (1...Int(Int32.max)).contains(pid) else { throw .invalidParameter("pid") }
        try FieldRule.appID.check(app, field: "app")
        try FieldRule.name.check(name, field: "name")
        try FieldRule.actionName.check(undo.flatMap { $0.isEmpty ? nil : $0 }, field: "undo")
        try FieldRule.actionName.check(redo.flatMap { $0.isEmpty ? nil : $0 }, field: "redo")
    }
}

extension RequestIntentParameters: CheckedParameters {
    public func check() throws(VarlinkError) {}
}

extension InterfaceDescriptionParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        guard interface.utf8.count <= 255 else { throw .invalidParameter("interface") }
    }
}
