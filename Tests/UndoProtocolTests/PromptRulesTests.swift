import Testing
import UndoProtocol

/// Every guideline rule refuses the prompt that breaks it, by name; good prompts pass.
@Suite struct PromptRulesTests {
    static let cancel = PromptAction(role: .cancel, label: "Cancel")
    static let undo = PromptAction(role: .undo, label: "Undo")
    static let redo = PromptAction(role: .redo, label: "Redo")

    static let bad: [(String, Prompt, Operation, String)] = [
        ("no prefix", Prompt(title: "Typing", actions: [cancel, undo]), .undo, "title-prefix"),
        ("redo prefix on an undo", Prompt(title: "Redo Typing", actions: [cancel, undo]), .undo, "title-prefix"),
        ("prefix only", Prompt(title: "Undo ", actions: [cancel, undo]), .undo, "title-words"),
        ("three words", Prompt(title: "Undo Bold Red Text", actions: [cancel, undo]), .undo, "title-words"),
        ("double space", Prompt(title: "Undo  Typing", actions: [cancel, undo]), .undo, "title-words"),
        ("question mark", Prompt(title: "Undo Typing?", actions: [cancel, undo]), .undo, "title-punctuation"),
        ("full stop", Prompt(title: "Undo Typing.", actions: [cancel, undo]), .undo, "title-punctuation"),
        ("lower case", Prompt(title: "Undo typing", actions: [cancel, undo]), .undo, "title-capitalization"),
        (
            "second word lower", Prompt(title: "Redo Address change", actions: [cancel, redo]), .redo,
            "title-capitalization"
        ),
        (
            "too long", Prompt(title: "Undo Supercalifragilisticexpialidocious Edits", actions: [cancel, undo]), .undo,
            "title-length"
        ),
        (
            "fragment message", Prompt(title: "Undo Typing", message: "your last words", actions: [cancel, undo]),
            .undo, "message-sentences"
        ),
        (
            "message without full stop",
            Prompt(title: "Undo Typing", message: "The last line goes", actions: [cancel, undo]), .undo,
            "message-sentences"
        ),
        (
            "long message",
            Prompt(title: "Undo Typing", message: String(repeating: "Words go. ", count: 13), actions: [cancel, undo]),
            .undo, "message-length"
        ),
        ("no cancel", Prompt(title: "Undo Typing", actions: [undo]), .undo, "cancel-missing"),
        (
            "cancel called Dismiss",
            Prompt(title: "Undo Typing", actions: [PromptAction(role: .cancel, label: "Dismiss"), undo]), .undo,
            "cancel-label"
        ),
        ("cancel on the right", Prompt(title: "Undo Typing", actions: [undo, cancel]), .undo, "cancel-position"),
        ("operation not offered", Prompt(title: "Undo Typing", actions: [cancel, redo]), .undo, "operation-missing"),
        ("two undo buttons", Prompt(title: "Undo Typing", actions: [cancel, undo, undo]), .undo, "button-count"),
        ("four buttons", Prompt(title: "Undo Typing", actions: [cancel, undo, redo, undo]), .undo, "button-count"),
        (
            "Yes label", Prompt(title: "Undo Typing", actions: [cancel, PromptAction(role: .undo, label: "Yes")]),
            .undo, "yes-no-label"
        ),
        (
            "destructive, undo default",
            Prompt(
                title: "Undo Delete",
                actions: [
                    cancel, PromptAction(role: .undo, label: "Undo", destructive: true, preferred: true),
                ]), .undo, "destructive-default"
        ),
        (
            "undo button that says otherwise",
            Prompt(title: "Undo Typing", actions: [cancel, PromptAction(role: .undo, label: "Delete All")]), .undo,
            "action-label"
        ),
        (
            "redo button labelled Undo",
            Prompt(title: "Undo Typing", actions: [cancel, undo, PromptAction(role: .redo, label: "Undo")]), .undo,
            "action-label"
        ),
        (
            "undo button with three more words",
            Prompt(title: "Undo Typing", actions: [cancel, PromptAction(role: .undo, label: "Undo and Delete All")]),
            .undo, "action-label"
        ),
        (
            "destructive, no default",
            Prompt(
                title: "Undo Delete",
                actions: [
                    cancel, PromptAction(role: .undo, label: "Undo", destructive: true),
                ]), .undo, "destructive-default"
        ),
    ]

    @Test("a prompt that breaks a rule is refused with that rule's name", arguments: bad)
    func refused(name: String, prompt: Prompt, operation: Operation, rule: String) {
        #expect(throws: PromptRejected.self, "\(name)") { try PromptRules.check(prompt, operation: operation) }
        do { try PromptRules.check(prompt, operation: operation) } catch {
            #expect(error.rule == rule, "\(name): \(error)")
            #expect(!error.detail.isEmpty)
        }
    }

    static let good: [(String, Prompt, Operation, PromptLanguage)] = [
        ("Undo Typing", Prompt(title: "Undo Typing", actions: [cancel, undo]), .undo, .english),
        ("Redo Address Change", Prompt(title: "Redo Address Change", actions: [cancel, redo]), .redo, .english),
        ("both offered", Prompt(title: "Undo Bold", actions: [cancel, undo, redo]), .undo, .english),
        (
            "with a message",
            Prompt(
                title: "Undo Typing", message: "The last line returns. Nothing else changes.", actions: [cancel, undo]),
            .undo, .english
        ),
        (
            "destructive with Cancel default",
            Prompt(
                title: "Undo Paste",
                actions: [
                    PromptAction(role: .cancel, label: "Cancel", preferred: true),
                    PromptAction(role: .undo, label: "Undo", destructive: true),
                ]), .undo, .english
        ),
        (
            "Korean",
            Prompt(
                title: "실행 취소 입력",
                actions: [
                    PromptAction(role: .cancel, label: "취소"), PromptAction(role: .undo, label: "실행 취소"),
                ]), .undo, .korean
        ),
    ]

    @Test("prompts that follow the guidelines pass", arguments: good)
    func accepted(name: String, prompt: Prompt, operation: Operation, language: PromptLanguage) {
        #expect(throws: Never.self, "\(name)") {
            try PromptRules.check(prompt, operation: operation, language: language)
        }
    }

    @Test("composed prompts always pass, in every language", arguments: PromptLanguage.allCases)
    func composed(language: PromptLanguage) throws {
        for operation in Operation.allCases {
            for name in ["typing", "address change", "Bold", "move to front"]
            where name.split(separator: " ").count <= 2 {
                for destructive in [false, true] {
                    let prompt = PromptComposer.prompt(
                        operation: operation, actionName: name, language: language, destructive: destructive)
                    try PromptRules.check(prompt, operation: operation, language: language)
                }
            }
        }
        let english = PromptComposer.prompt(operation: .undo, actionName: "address change")
        #expect(english.title == "Undo Address Change")
        #expect(english.actions.map(\.label) == ["Cancel", "Undo"])
        #expect(PromptComposer.prompt(operation: .redo, actionName: "입력", language: .korean).title == "다시 실행 입력")
        #expect(PromptLanguage(locale: "ko_KR.UTF-8") == .korean)
        #expect(PromptLanguage(locale: "C") == .english)
    }
}
