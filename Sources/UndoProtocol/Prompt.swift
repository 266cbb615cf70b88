/// What an intent proposes: undo the last action, or redo the last undone one.
public enum Operation: String, Sendable, Hashable, Codable, CaseIterable {
    case undo, redo
}

/// The role of a button in a prompt.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    case cancel, undo, redo
}

/// One button of a prompt, as `io.shaked.Undo.PromptAction` describes it.
public struct PromptAction: Sendable, Hashable, Codable {
    /// What pressing it does.
    public var role: Role
    /// The text on the button.
    public var label: String
    /// Whether the action destroys content.
    public var destructive: Bool
    /// Whether this is the default button.
    public var preferred: Bool

    /// Creates a button.
    public init(role: Role, label: String, destructive: Bool = false, preferred: Bool = false) {
        self.role = role
        self.label = label
        self.destructive = destructive
        self.preferred = preferred
    }
}

/// The confirmation prompt an app shows for an intent.
public struct Prompt: Sendable, Hashable, Codable {
    /// "Undo Typing", in the person's language.
    public var title: String
    /// Optional short complete sentences.
    public var message: String?
    /// The buttons from left to right.
    public var actions: [PromptAction]

    /// Creates a prompt.
    public init(title: String, message: String? = nil, actions: [PromptAction]) {
        self.title = title
        self.message = message
        self.actions = actions
    }
}

/// The languages prompts are composed in, with the guidelines' prefixes and labels.
public enum PromptLanguage: String, Sendable, Hashable, CaseIterable {
    case english = "en"
    case korean = "ko"

    /// The language for a POSIX locale name such as `ko_KR.UTF-8`; English when unknown.
    public init(locale: String) {
        self = locale.lowercased().hasPrefix("ko") ? .korean : .english
    }

    /// The language whose undo or redo prefix begins `title` ("실행 취소 입력" is Korean); nil when none does.
    public init?(title: String) {
        guard
            let language = Self.allCases.first(where: { language in
                Operation.allCases.contains { title.hasPrefix(language.prefix($0)) }
            })
        else { return nil }
        self = language
    }

    /// The title prefix for an operation, trailing space included ("Undo ", "실행 취소 ").
    public func prefix(_ operation: Operation) -> String {
        switch (self, operation) {
        case (.english, .undo): return "Undo "
        case (.english, .redo): return "Redo "
        case (.korean, .undo): return "실행 취소 "
        case (.korean, .redo): return "다시 실행 "
        }
    }

    /// The label of the cancel button ("Cancel", "취소").
    public var cancelLabel: String { self == .english ? "Cancel" : "취소" }

    /// The label of the button that performs an operation ("Undo", "실행 취소").
    public func actionLabel(_ operation: Operation) -> String {
        String(prefix(operation).dropLast())
    }

    /// Labels the guidelines forbid: Yes and No.
    var yesNoLabels: Set<String> { self == .english ? ["yes", "no"] : ["예", "아니요", "네", "아니오"] }
}
