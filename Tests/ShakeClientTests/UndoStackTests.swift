import ShakeClient
import Testing

/// A tiny notes document whose edits register their own undo, as an app's would.
final class Notes {
    var lines: [String] = []
    var bold: Set<Int> = []
    let stack: UndoStack

    init(stack: UndoStack = UndoStack()) { self.stack = stack }

    /// Appends a line; undo removes it (and registers the re-append for redo).
    func append(_ line: String, name: String? = "Typing") {
        lines.append(line)
        stack.registerUndo(named: name) { _ in self.removeLast() }
    }

    /// Removes the last line; undo puts it back.
    func removeLast() {
        let line = lines.removeLast()
        stack.registerUndo(named: "Delete Line") { _ in self.append(line) }
    }

    /// Sets or clears bold on a line with the pair form of registration.
    func setBold(_ index: Int, _ on: Bool, name: String? = "Bold") {
        let was = bold.contains(index)
        let apply = { (value: Bool) in if value { self.bold.insert(index) } else { self.bold.remove(index) } }
        apply(on)
        stack.register(named: name, undo: { apply(was) }, redo: { apply(on) })
    }
}

struct UndoStackTests {
    @Test(arguments: [
        (edits: 3, undos: 1, redos: 0, lines: ["a", "b"], undoCount: 2, redoCount: 1),
        (3, 3, 0, [], 0, 3),
        (3, 3, 2, ["a", "b"], 2, 1),
        (5, 2, 2, ["a", "b", "c", "d", "e"], 5, 0),
        (4, 6, 0, [], 0, 4),  // undo beyond the history does nothing more
        (2, 1, 5, ["a", "b"], 2, 0),  // redo beyond what was undone does nothing more
    ])
    func manyLevelsOfUndoAndRedo(
        edits: Int, undos: Int, redos: Int, lines: [String], undoCount: Int, redoCount: Int
    ) {
        let notes = Notes()
        for letter in ["a", "b", "c", "d", "e"].prefix(edits) { notes.append(letter) }
        let undone = (0..<undos).filter { _ in notes.stack.undo() }.count
        let redone = (0..<redos).filter { _ in notes.stack.redo() }.count
        #expect(notes.lines == lines)
        #expect(undone == min(undos, edits))
        #expect(redone == min(redos, undone))
        #expect(notes.stack.undoCount == undoCount && notes.stack.redoCount == redoCount)
        #expect(notes.stack.canUndo == (undoCount > 0) && notes.stack.canRedo == (redoCount > 0))
    }

    @Test func namesFollowTheSteps() {
        let notes = Notes()
        #expect(notes.stack.undoActionName == nil && notes.stack.redoActionName == nil)
        notes.append("a")
        notes.setBold(0, true)
        #expect(notes.stack.undoActionName == "Bold")
        notes.stack.undo()
        #expect(notes.bold.isEmpty)
        #expect(notes.stack.undoActionName == "Typing" && notes.stack.redoActionName == "Bold")
        notes.stack.undo()
        #expect(notes.stack.undoActionName == nil && notes.stack.redoActionName == "Typing")
        notes.stack.redo()
        notes.stack.redo()
        #expect(notes.bold == [0] && notes.lines == ["a"])
        #expect(notes.stack.undoActionName == "Bold" && notes.stack.redoActionName == nil)
        notes.append("b", name: nil)
        #expect(notes.stack.undoActionName == "", "an unnamed step has an empty name, as in UndoManager")
        notes.stack.setActionName("Paste")
        #expect(notes.stack.undoActionName == "Paste")
    }

    /// The pair form alternates undo and redo as often as asked.
    @Test(arguments: [1, 2, 7, 20])
    func undoAndRedoAlternateIndefinitely(rounds: Int) {
        let notes = Notes()
        notes.append("a")
        notes.setBold(0, true)
        for _ in 0..<rounds {
            #expect(notes.stack.undo() && notes.bold.isEmpty)
            #expect(notes.stack.redo() && notes.bold == [0])
        }
        #expect(notes.stack.undoCount == 2 && notes.stack.redoCount == 0)
    }

    @Test func aNewChangeClearsRedoButRedoingDoesNot() {
        let notes = Notes()
        for letter in ["a", "b", "c"] { notes.append(letter) }
        notes.stack.undo()
        notes.stack.undo()
        #expect(notes.stack.redoCount == 2)
        notes.stack.redo()
        #expect(notes.stack.redoCount == 1, "the redo's own registration did not clear the rest")
        notes.append("x")
        #expect(notes.stack.redoCount == 0 && !notes.stack.canRedo && notes.stack.redoActionName == nil)
        #expect(!notes.stack.redo())
        #expect(notes.lines == ["a", "b", "x"])
    }

    @Test func handlersSeeWhetherTheyAreUndoingOrRedoing() {
        let stack = UndoStack()
        var seen: [String] = []
        func change() {
            stack.registerUndo(named: "Change") { stack in
                seen.append(stack.isUndoing ? "undoing" : (stack.isRedoing ? "redoing" : "neither"))
                #expect(!stack.undo() && !stack.redo(), "no undo from inside a handler")
                change()
            }
        }
        change()
        stack.undo()
        stack.redo()
        #expect(seen == ["undoing", "redoing"])
        #expect(!stack.isUndoing && !stack.isRedoing)
    }

    @Test func removeAllForgetsEverything() {
        let notes = Notes()
        notes.append("a")
        notes.append("b")
        notes.stack.undo()
        notes.stack.beginGroup(named: "Typing")
        notes.append("c")
        notes.stack.removeAll()
        #expect(!notes.stack.canUndo && !notes.stack.canRedo && notes.stack.groupingLevel == 0)
        #expect(!notes.stack.undo())
        #expect(notes.lines == ["a", "c"])
    }
}
