import ShakeClient
import Testing

struct UndoGroupingTests {
    @Test func oneUndoRevertsAWholeGroupInReverseOrder() {
        let stack = UndoStack()
        var log: [String] = []
        stack.beginGroup(named: "Typing")
        for letter in ["a", "b", "c"] {
            stack.registerUndo { _ in log.append(letter) }
        }
        #expect(stack.endGroup())
        #expect(stack.undoCount == 1 && stack.undoActionName == "Typing")
        #expect(stack.undo())
        #expect(log == ["c", "b", "a"])
        #expect(!stack.canUndo)
    }

    @Test func redoingAGroupReappliesItInOrder() {
        let notes = Notes()
        notes.stack.group(named: "Typing") {
            for letter in ["a", "b", "c"] { notes.append(letter, name: nil) }
        }
        notes.stack.undo()
        #expect(notes.lines.isEmpty && notes.stack.redoActionName == "Typing")
        notes.stack.redo()
        #expect(notes.lines == ["a", "b", "c"] && notes.stack.undoActionName == "Typing")
        #expect(notes.stack.undoCount == 1)
    }

    /// Nested groups merge into the outer one; the outermost name wins, an inner one fills in.
    @Test(arguments: [
        (outer: "Format" as String?, inner: "Bold" as String?, name: "Format"),
        (nil, "Bold", "Bold"),
        ("Format", nil, "Format"),
        (nil, nil, ""),
    ])
    func nestedGroupsAreOneStep(outer: String?, inner: String?, name: String) {
        let notes = Notes()
        notes.append("a")
        notes.append("b")
        notes.stack.beginGroup(named: outer)
        notes.setBold(0, true, name: nil)
        notes.stack.beginGroup(named: inner)
        notes.setBold(1, true, name: nil)
        notes.stack.beginGroup()
        notes.append("c", name: nil)
        #expect(notes.stack.groupingLevel == 3)
        #expect(notes.stack.endGroup() && notes.stack.endGroup())
        #expect(notes.stack.undoActionName == name, "the open group reports the name it will have")
        #expect(notes.stack.endGroup())
        #expect(notes.stack.groupingLevel == 0)
        #expect(notes.stack.undoCount == 3 && notes.stack.undoActionName == name)
        notes.stack.undo()
        #expect(notes.lines == ["a", "b"] && notes.bold.isEmpty)
        notes.stack.redo()
        #expect(notes.lines == ["a", "b", "c"] && notes.bold == [0, 1])
    }

    /// A name given with a registration names an unnamed group, and never renames a named one.
    @Test(arguments: [(group: "Typing" as String?, name: "Typing"), (nil, "Bold")])
    func registrationNamesFillInAGroupsName(group: String?, name: String) {
        let notes = Notes()
        notes.stack.group(named: group) {
            notes.append("a", name: nil)
            notes.setBold(0, true)
            notes.append("b")
        }
        #expect(notes.stack.undoActionName == name)
        notes.stack.undo()
        #expect(notes.stack.redoActionName == name, "the inverse registrations' names do not rename the step")
    }

    @Test func anEmptyGroupLeavesNoStep() {
        let stack = UndoStack()
        stack.group(named: "Nothing") {}
        stack.beginGroup()
        stack.beginGroup()
        stack.endGroup()
        stack.endGroup()
        #expect(!stack.canUndo && stack.undoActionName == nil)
        #expect(!stack.endGroup(), "no group open")
    }

    /// An open group with registrations is undoable; undo closes it and reverts it whole.
    @Test func undoClosesAnOpenGroup() {
        let notes = Notes()
        notes.append("x")
        notes.stack.beginGroup(named: "Typing")
        notes.append("a", name: nil)
        notes.stack.beginGroup()
        notes.append("b", name: nil)
        #expect(notes.stack.canUndo && notes.stack.undoCount == 2 && notes.stack.undoActionName == "Typing")
        #expect(notes.stack.undo())
        #expect(notes.lines == ["x"] && notes.stack.groupingLevel == 0)
        #expect(!notes.stack.endGroup(), "the app's late endGroup is harmless")
        #expect(notes.stack.undoActionName == "Typing" && notes.stack.redoActionName == "Typing")
    }

    /// A handler may group what it registers; the inverse is still one step.
    @Test func groupsInsideHandlersStayOneStep() {
        let notes = Notes()
        notes.stack.registerUndo(named: "Clear") { stack in
            stack.beginGroup(named: "Ignored")
            notes.lines = ["restored"]
            stack.registerUndo { _ in notes.lines = [] }
            #expect(stack.endGroup())
            #expect(!stack.endGroup())
        }
        notes.stack.undo()
        #expect(notes.lines == ["restored"])
        #expect(notes.stack.redoCount == 1 && notes.stack.redoActionName == "Clear")
        notes.stack.redo()
        #expect(notes.lines.isEmpty)
    }

    @Test func newGroupClearsRedo() {
        let notes = Notes()
        notes.append("a")
        notes.stack.undo()
        notes.stack.beginGroup(named: "Typing")
        #expect(notes.stack.canRedo, "an empty group changes nothing yet")
        notes.append("b", name: nil)
        #expect(!notes.stack.canRedo)
        notes.stack.endGroup()
    }
}
