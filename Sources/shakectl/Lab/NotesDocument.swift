import ShakeClient
import UndoProtocol

/// The demo's notes and their undo history: every edit is registered with an undo stack
/// under its action name ("Typing", "Delete", "Bold"), and says what it changed so the app
/// can highlight it and report it to the daemon.
final class NotesDocument {
    /// What an edit, undo or redo changed.
    struct Change: Equatable {
        /// The line to highlight, if one is there to see (not after a removal).
        var line: Int?
        /// The line to select afterwards.
        var selection: Int
        /// What changed, for the status line and ReportResult: "Removed line 3 “milk”".
        var summary: String
    }

    /// The action names, in the language prompts are composed in: an app names its actions
    /// in the person's language, as the prefix "Undo " is.
    private let names: (typing: String, delete: String, bold: String)

    /// Creates an empty document whose action names are in `language`.
    init(language: PromptLanguage) {
        names = language == .korean ? ("입력", "삭제", "굵게") : ("Typing", "Delete", "Bold")
    }

    private(set) var lines: [DemoView.Line] = []
    /// The history: ShakeClient publishes its action names, shakes undo and redo on it.
    let stack = UndoStack()
    /// What the last undo or redo changed, set by the handlers it ran.
    private var lastChange: Change?

    /// The action the next undo reverts, such as "Typing".
    var undoActionName: String? { stack.undoActionName }
    /// The action the next redo repeats.
    var redoActionName: String? { stack.redoActionName }

    /// Adds a typed line ("Typing").
    func add(_ text: String, at index: Int) -> Change {
        let line = DemoView.Line(text: text, bold: false)
        return record(names.typing, do: .insert(line, at: index), undo: .remove(at: index))
    }

    /// Deletes a line ("Delete").
    func delete(at index: Int) -> Change {
        let line = lines[index]
        return record(names.delete, do: .remove(at: index), undo: .insert(line, at: index))
    }

    /// Makes a line bold, or plain again ("Bold").
    func toggleBold(at index: Int) -> Change {
        record(names.bold, do: .toggleBold(at: index), undo: .toggleBold(at: index))
    }

    /// Reverts the last edit; nil when there is nothing to undo.
    func undo() -> Change? {
        lastChange = nil
        return stack.undo() ? lastChange : nil
    }

    /// Repeats the last undone edit; nil when there is nothing to redo.
    func redo() -> Change? {
        lastChange = nil
        return stack.redo() ? lastChange : nil
    }

    /// Makes a change and registers both its directions under the action name.
    private func record(_ name: String, do forward: Step, undo backward: Step) -> Change {
        let change = apply(forward)
        stack.register(
            named: name,
            undo: { [unowned self] in lastChange = apply(backward, undoing: true) },
            redo: { [unowned self] in lastChange = apply(forward) })
        return change
    }

    /// Applies a step; the summary says "Restored" and "Removed" for an undo, "Added" and
    /// "Deleted" otherwise.
    private func apply(_ step: Step, undoing: Bool = false) -> Change {
        switch step {
        case .insert(let line, let index):
            lines.insert(line, at: index)
            let verb = undoing ? "Restored" : "Added"
            return Change(line: index, selection: index, summary: "\(verb) line \(index + 1) “\(line.text)”")
        case .remove(let index):
            let line = lines.remove(at: index)
            let verb = undoing ? "Removed" : "Deleted"
            let summary = "\(verb) line \(index + 1) “\(line.text)”"
            return Change(line: nil, selection: max(0, index - 1), summary: summary)
        case .toggleBold(let index):
            lines[index].bold.toggle()
            let now = lines[index].bold ? "bold" : "plain"
            return Change(line: index, selection: index, summary: "Made line \(index + 1) \(now)")
        }
    }

    /// One reversible change to the lines.
    enum Step {
        case insert(DemoView.Line, at: Int)
        case remove(at: Int)
        case toggleBold(at: Int)
    }
}
