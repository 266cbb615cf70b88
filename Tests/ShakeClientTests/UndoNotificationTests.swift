import ShakeClient
import Testing

struct UndoNotificationTests {
    typealias Snapshot = UndoStack.Snapshot

    static func snapshot(_ undo: String?, _ redo: String?, _ undoCount: Int, _ redoCount: Int, _ at: Set<String> = [])
        -> Snapshot
    {
        Snapshot(
            undoActionName: undo, redoActionName: redo, undoCount: undoCount, redoCount: redoCount, checkpoints: at)
    }

    @Test func everyChangeIsAnnouncedOnceAndConsistently() {
        let notes = Notes()
        var heard: [Snapshot] = []
        notes.stack.onChange = { [unowned stack = notes.stack] snapshot in
            #expect(snapshot == stack.snapshot, "the stack is consistent when listeners run")
            heard.append(snapshot)
        }
        notes.stack.markCheckpoint("Save")
        notes.append("a")
        notes.stack.beginGroup(named: "Typing")  // nothing to announce yet
        notes.append("b", name: nil)
        notes.append("c", name: nil)  // same names, same count: no announcement
        notes.stack.endGroup()  // the group closes into the step already counted: no announcement
        notes.setBold(0, true)
        notes.stack.undo()
        notes.stack.undo()
        notes.stack.redo()
        notes.stack.undo(toCheckpoint: "Save")  // two steps, one announcement
        #expect(
            heard == [
                Self.snapshot(nil, nil, 0, 0, ["Save"]),
                Self.snapshot("Typing", nil, 1, 0),
                Self.snapshot("Typing", nil, 2, 0),
                Self.snapshot("Bold", nil, 3, 0),
                Self.snapshot("Typing", "Bold", 2, 1),
                Self.snapshot("Typing", "Typing", 1, 2),
                Self.snapshot("Typing", "Bold", 2, 1),
                Self.snapshot(nil, "Typing", 0, 3, ["Save"]),
            ])
    }

    @Test func nothingIsAnnouncedWhenNothingChanged() {
        let stack = UndoStack()
        var count = 0
        stack.onChange = { _ in count += 1 }
        stack.undo()
        stack.redo()
        stack.group {}
        stack.endGroup()
        stack.removeAll()
        stack.undo(toCheckpoint: "Save")
        #expect(count == 0)
        stack.registerUndo(named: "Typing") { _ in }
        stack.setActionName("Typing")
        #expect(count == 1)
    }

    /// The stream starts with the present state and then carries the newest.
    @Test func changesStreamTheLatestState() async {
        let notes = Notes()
        notes.append("a")
        let changes = notes.stack.changes()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == Self.snapshot("Typing", nil, 1, 0))
        notes.append("b")
        notes.setBold(0, true)  // only the newest state is kept for a slow reader
        #expect(await iterator.next() == Self.snapshot("Bold", nil, 3, 0))
        notes.stack.undo()
        #expect(await iterator.next() == Self.snapshot("Typing", "Bold", 2, 1))
    }

    @Test func changeStreamsEndWithTheStack() async {
        var stack: UndoStack? = UndoStack()
        let changes = stack!.changes()
        stack?.registerUndo(named: "Typing") { _ in }
        stack = nil
        var received: [Snapshot] = []
        for await snapshot in changes { received.append(snapshot) }
        #expect(received.last == Self.snapshot("Typing", nil, 1, 0))
    }
}
