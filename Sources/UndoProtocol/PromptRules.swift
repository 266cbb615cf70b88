/// A prompt that breaks a guideline: `rule` names it, `detail` says what to change.
/// Sent to apps as the varlink error `io.shaked.Undo.PromptRejected`.
public struct PromptRejected: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule's name, as listed in the interface file.
    public var rule: String
    /// What is wrong and how to fix it.
    public var detail: String

    /// Creates a rejection.
    public init(rule: String, detail: String) {
        self.rule = rule
        self.detail = detail
    }

    public var description: String { "\(rule): \(detail)" }
}

/// The checks every prompt passes before it is shown, taken from Apple's guidelines on
/// undo and redo and on alerts (../shared/seeds):
///
/// - the title is "Undo " or "Redo " plus a one- or two-word action name, in title-style
///   capitalization, with no ending punctuation, on one line (``maximumTitleLength``);
/// - a message, if any, is short complete sentences (``maximumMessageLength``);
/// - a Cancel action is present, is labelled Cancel and is leftmost;
/// - there are two buttons, or three when both undo and redo are offered;
/// - no button is labelled Yes or No, and the undo and redo buttons say what they do ("Undo",
///   or "Undo" and the action name), so a prompt can't say "Undo" over a button that does otherwise;
/// - when an action is destructive, Cancel is the default button.
public enum PromptRules {
    /// Characters a title may have: one line on a 360-pixel-wide phone screen at the
    /// system alert font (about 40 Latin characters; Korean glyphs count as two).
    public static let maximumTitleLength = 40
    /// Characters a message may have: two lines, so it never scrolls.
    public static let maximumMessageLength = 120

    /// Words that stay lower-case inside a title-style phrase.
    static let minorWords: Set<String> = [
        "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "nor", "of", "on", "or", "the", "to",
        "with",
    ]

    /// Checks a prompt for an intent proposing `operation`; throws the first broken rule.
    public static func check(
        _ prompt: Prompt, operation: Operation, language: PromptLanguage = .english
    ) throws(PromptRejected) {
        try checkTitle(prompt.title, operation: operation, language: language)
        if let message = prompt.message { try checkMessage(message) }
        try checkActions(prompt.actions, operation: operation, language: language)
    }

    static func checkTitle(_ title: String, operation: Operation, language: PromptLanguage) throws(PromptRejected) {
        let prefix = language.prefix(operation)
        guard title.hasPrefix(prefix) else {
            throw PromptRejected(
                rule: "title-prefix", detail: "the title must start with \"\(prefix)\" for this \(operation)")
        }
        let name = title.dropFirst(prefix.count)
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(words.count), words.allSatisfy({ !$0.isEmpty }) else {
            throw PromptRejected(
                rule: "title-words",
                detail:
                    "after \"\(prefix)\" give one or two words naming the action, such as \"Typing\" or \"Address Change\""
            )
        }
        if let last = title.last, last.isPunctuation || "…".contains(last) {
            throw PromptRejected(
                rule: "title-punctuation", detail: "the title is a phrase: remove the ending \"\(last)\"")
        }
        if language == .english {
            for (index, word) in words.enumerated() {
                let minor = minorWords.contains(word.lowercased()) && index > 0 && index < words.count - 1
                guard let first = word.first, first.isLetter else { continue }
                if !minor && !first.isUppercase {
                    throw PromptRejected(
                        rule: "title-capitalization",
                        detail: "use title-style capitalization: \"\(word.prefix(1).uppercased() + word.dropFirst())\"")
                }
            }
        }
        let width = title.reduce(0) { $0 + (($1.unicodeScalars.first?.value ?? 0) >= 0x1100 ? 2 : 1) }
        guard width <= maximumTitleLength else {
            throw PromptRejected(
                rule: "title-length",
                detail: "the title must fit on one line (\(maximumTitleLength) characters); shorten the action name")
        }
    }

    static func checkMessage(_ message: String) throws(PromptRejected) {
        guard message.count <= maximumMessageLength else {
            throw PromptRejected(
                rule: "message-length",
                detail: "keep the message to \(maximumMessageLength) characters (one or two lines)")
        }
        let trimmed = message.trimmingSpaces
        guard let first = trimmed.first, let last = trimmed.last,
            !(first.isLetter && first.isLowercase), ".!?。".contains(last)
        else {
            throw PromptRejected(
                rule: "message-sentences",
                detail: "write short complete sentences: start with a capital letter and end with \".\", \"!\" or \"?\""
            )
        }
    }

    static func checkActions(
        _ actions: [PromptAction], operation: Operation, language: PromptLanguage
    ) throws(PromptRejected) {
        guard let cancelIndex = actions.firstIndex(where: { $0.role == .cancel }) else {
            throw PromptRejected(rule: "cancel-missing", detail: "add a Cancel button, leftmost")
        }
        guard actions[cancelIndex].label == language.cancelLabel else {
            throw PromptRejected(
                rule: "cancel-label",
                detail: "label the cancel button \"\(language.cancelLabel)\", not \"\(actions[cancelIndex].label)\"")
        }
        guard cancelIndex == 0 else {
            throw PromptRejected(rule: "cancel-position", detail: "put Cancel on the left, as the first action")
        }
        let roles = actions.map(\.role)
        let operationRole: Role = operation == .undo ? .undo : .redo
        guard roles.contains(operationRole) else {
            throw PromptRejected(rule: "operation-missing", detail: "offer the \(operation) the intent proposes")
        }
        let allowed: [[Role]] = [
            [.cancel, .undo], [.cancel, .redo], [.cancel, .undo, .redo], [.cancel, .redo, .undo],
        ]
        guard allowed.contains(roles) else {
            throw PromptRejected(
                rule: "button-count",
                detail:
                    "use two buttons (Cancel and the operation), or three when offering both undo and redo; found \(roles.count)"
            )
        }
        for action in actions where language.yesNoLabels.contains(action.label.lowercased()) {
            throw PromptRejected(
                rule: "yes-no-label",
                detail: "avoid \"\(action.label)\": label the button with what it does, such as \"Undo\"")
        }
        for action in actions {
            guard let operation = action.role.operation else { continue }
            let word = language.actionLabel(operation)
            guard isActionLabel(action.label, word: word) else {
                throw PromptRejected(
                    rule: "action-label",
                    detail:
                        "label the \(operation) button \"\(word)\" or \"\(word)\" and the action name, not \"\(action.label)\""
                )
            }
        }
        if actions.contains(where: \.destructive) {
            guard actions[cancelIndex].preferred, !actions[cancelIndex].destructive,
                actions.filter(\.preferred).count == 1
            else {
                throw PromptRejected(
                    rule: "destructive-default", detail: "with a destructive action, make Cancel the one default button"
                )
            }
        }
    }
}

extension PromptRules {
    /// Whether a button label says the operation it performs: the localized word ("Undo",
    /// "실행 취소") alone, or followed by a one- or two-word action name ("Undo Typing").
    static func isActionLabel(_ label: String, word: String) -> Bool {
        if label == word { return true }
        guard label.hasPrefix(word + " ") else { return false }
        let name = label.dropFirst(word.count + 1).split(separator: " ", omittingEmptySubsequences: false)
        return (1...2).contains(name.count) && name.allSatisfy { !$0.isEmpty }
    }
}

extension Role {
    /// The operation a button performs; nil for Cancel.
    public var operation: Operation? {
        switch self {
        case .cancel: nil
        case .undo: .undo
        case .redo: .redo
        }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return s
    }
}

/// Composes prompts that pass ``PromptRules``, for clients.
public enum PromptComposer {
    /// The standard prompt for an intent: "Undo Typing" with Cancel on the left and the
    /// operation on the right (both undo and redo when `alsoOffer` is set).
    public static func prompt(
        operation: Operation, actionName: String, language: PromptLanguage = .english, alsoOffer: String? = nil,
        destructive: Bool = false
    ) -> Prompt {
        var actions = [
            PromptAction(role: .cancel, label: language.cancelLabel, preferred: destructive),
            PromptAction(
                role: operation == .undo ? .undo : .redo, label: language.actionLabel(operation),
                destructive: destructive),
        ]
        if alsoOffer != nil {
            let other: Operation = operation == .undo ? .redo : .undo
            actions.append(PromptAction(role: other == .undo ? .undo : .redo, label: language.actionLabel(other)))
        }
        return Prompt(title: language.prefix(operation) + titleCase(actionName, language: language), actions: actions)
    }

    /// An action name in title-style capitalization ("address change" → "Address Change").
    public static func titleCase(_ name: String, language: PromptLanguage) -> String {
        guard language == .english else { return name }
        let words = name.split(separator: " ")
        return words.enumerated().map { index, word in
            let lower = word.lowercased()
            if index > 0 && index < words.count - 1 && PromptRules.minorWords.contains(lower) { return lower }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }
}
