import ShakeClient
import Testing

struct UndoCheckpointTests {
    /// The oldest steps are dropped past the limit; what remains undoes as before.
    @Test(arguments: [
        (limit: nil as Int?, edits: 5, kept: 5, afterUndoingAll: [String]()),
        (1, 5, 1, ["a", "b", "c", "d"]),
        (3, 5, 3, ["a", "b"]),
        (5, 5, 5, []),
        (8, 5, 5, []),
    ])
    func theLevelsLimitDropsTheOldest(limit: Int?, edits: Int, kept: Int, afterUndoingAll: [String]) {
        let notes = Notes(stack: UndoStack(levelsLimit: limit))
        for letter in ["a", "b", "c", "d", "e"].prefix(edits) { notes.append(letter) }
        #expect(notes.stack.undoCount == kept)
        while notes.stack.undo() {}
        #expect(notes.lines == afterUndoingAll)
        #expect(notes.stack.redoCount == kept)
        while notes.stack.redo() {}
        #expect(notes.lines == ["a", "b", "c", "d", "e"])
    }

    @Test func loweringTheLimitTrimsAtOnceAndGroupsCountAsOne() {
        let notes = Notes()
        for letter in ["a", "b", "c", "d"] { notes.append(letter) }
        notes.stack.group(named: "Typing") {
            notes.append("e", name: nil)
            notes.append("f", name: nil)
        }
        #expect(notes.stack.undoCount == 5)
        notes.stack.levelsLimit = 2
        #expect(notes.stack.undoCount == 2)
        notes.stack.undo()
        #expect(notes.lines == ["a", "b", "c", "d"])
        notes.stack.undo()
        #expect(!notes.stack.undo())
        #expect(notes.lines == ["a", "b", "c"])
        notes.stack.levelsLimit = nil
        for letter in ["x", "y", "z"] { notes.append(letter) }
        #expect(notes.stack.undoCount == 3 && notes.stack.redoCount == 0)
    }

    /// "Save" marks the unmodified document: any change leaves it, undo or redo brings it back.
    @Test func theSaveCheckpointIsTheDirtyFlag() {
        let notes = Notes()
        notes.append("a")
        notes.stack.markCheckpoint("Save")
        #expect(notes.stack.isAtCheckpoint("Save"))
        notes.append("b")
        #expect(!notes.stack.isAtCheckpoint("Save"))
        notes.stack.undo()
        #expect(notes.stack.isAtCheckpoint("Save"))
        notes.stack.undo()
        #expect(!notes.stack.isAtCheckpoint("Save"))
        notes.stack.redo()
        #expect(notes.stack.isAtCheckpoint("Save"))
        notes.stack.redo()
        notes.stack.undo()
        // A different change from the saved state is not the saved state.
        notes.append("c")
        notes.stack.undo()
        #expect(notes.stack.isAtCheckpoint("Save"))
        notes.stack.redo()
        #expect(!notes.stack.isAtCheckpoint("Save"))
        #expect(!notes.stack.isAtCheckpoint("Never marked"))
    }

    @Test(arguments: [
        (checkpoint: "Open", steps: 4 as Int?, lines: [String]()),
        ("Save", 2, ["a", "b"]),
        ("Now", 0, ["a", "b", "c", "d"]),
        ("Unknown", nil, ["a", "b", "c", "d"]),
    ])
    func undoBackToACheckpoint(checkpoint: String, steps: Int?, lines: [String]) {
        let notes = Notes()
        notes.stack.markCheckpoint("Open")
        notes.append("a")
        notes.append("b")
        notes.stack.markCheckpoint("Save")
        notes.append("c")
        notes.append("d")
        notes.stack.markCheckpoint("Now")
        #expect(notes.stack.stepsBack(toCheckpoint: checkpoint) == steps)
        #expect(notes.stack.undo(toCheckpoint: checkpoint) == steps)
        #expect(notes.lines == lines)
        if steps != nil { #expect(notes.stack.isAtCheckpoint(checkpoint)) }
        #expect(notes.stack.redoCount == (steps ?? 0), "each step can be redone on its own")
        #expect(notes.stack.checkpoints == ["Now", "Open", "Save"])
    }

    @Test func unreachableCheckpoints() {
        let notes = Notes(stack: UndoStack(levelsLimit: 2))
        notes.stack.markCheckpoint("Open")
        for letter in ["a", "b", "c"] { notes.append(letter) }
        #expect(notes.stack.stepsBack(toCheckpoint: "Open") == nil, "the first step was dropped by the limit")
        #expect(notes.stack.undo(toCheckpoint: "Open") == nil)
        #expect(notes.lines == ["a", "b", "c"], "nothing undone when the checkpoint is out of reach")

        notes.stack.markCheckpoint("Save")
        notes.stack.undo()
        #expect(notes.stack.stepsBack(toCheckpoint: "Save") == nil, "ahead, among the redo steps")
        notes.stack.removeAll()
        notes.stack.markCheckpoint("Open")
        notes.stack.removeCheckpoint("Save")
        #expect(notes.stack.checkpoints == ["Open"])
        #expect(notes.stack.isAtCheckpoint("Open") && notes.stack.stepsBack(toCheckpoint: "Open") == 0)
    }

    /// A checkpoint inside an open group: later edits in the group leave it; undo goes back
    /// past the group's start, so only a checkpoint before the group is reachable.
    @Test func checkpointsAndOpenGroups() {
        let notes = Notes()
        notes.stack.markCheckpoint("Before")
        notes.stack.beginGroup(named: "Typing")
        notes.append("a", name: nil)
        notes.stack.markCheckpoint("Middle")
        #expect(notes.stack.stepsBack(toCheckpoint: "Middle") == 0)
        notes.append("b", name: nil)
        #expect(!notes.stack.isAtCheckpoint("Middle"))
        #expect(notes.stack.stepsBack(toCheckpoint: "Before") == 1)
        #expect(notes.stack.stepsBack(toCheckpoint: "Middle") == nil)
        #expect(notes.stack.undo(toCheckpoint: "Before") == 1)
        #expect(notes.lines.isEmpty && notes.stack.groupingLevel == 0)
    }
}
