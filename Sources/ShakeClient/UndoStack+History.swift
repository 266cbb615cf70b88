extension UndoStack {
    /// Whether there is a step to undo, counting an open group that has registrations.
    public var canUndo: Bool { !undoSteps.isEmpty || openGroupFrom != nil }

    /// Whether there is a step to redo.
    public var canRedo: Bool { !redoSteps.isEmpty }

    /// The name of the step ``undo()`` would revert ("Typing"): nil when there is none, empty
    /// when it was never named. Name every action: a prompt needs one ("Undo Typing").
    public var undoActionName: String? {
        if openGroupFrom != nil {
            return openGroups.lazy.compactMap(\.name).first ?? ""
        }
        return undoSteps.last.map { $0.name ?? "" }
    }

    /// The name of the step ``redo()`` would make again: nil when there is none, empty when unnamed.
    public var redoActionName: String? { redoSteps.last.map { $0.name ?? "" } }

    /// Steps that can be undone, an open group with registrations counting as one.
    public var undoCount: Int { undoSteps.count + (openGroupFrom == nil ? 0 : 1) }

    /// Steps that can be redone.
    public var redoCount: Int { redoSteps.count }

    /// Whether ``undo()`` is running handlers now.
    public var isUndoing: Bool { collecting != nil && undoingNow }

    /// Whether ``redo()`` is running handlers now.
    public var isRedoing: Bool { collecting != nil && !undoingNow }

    /// Reverts the newest step, running its handlers newest first; what they register becomes
    /// the redo step. Open groups are closed first, so an unfinished group is undone whole.
    ///
    /// - Returns: false when there was nothing to undo, or when called from inside a handler.
    @discardableResult
    public func undo() -> Bool { move(undoing: true) }

    /// Makes the step last undone again; what its handlers register becomes the undo step.
    ///
    /// - Returns: false when there was nothing to redo, or when called from inside a handler.
    @discardableResult
    public func redo() -> Bool { move(undoing: false) }

    /// Runs the newest undo (or redo) step and files its inverse on the other side.
    private func move(undoing: Bool) -> Bool {
        guard collecting == nil else { return false }
        quiet += 1
        defer {
            quiet -= 1
            changed()
        }
        closeGroups()
        guard let step = undoing ? undoSteps.popLast() : redoSteps.popLast() else { return false }
        let inverse = run(step, undoing: undoing)
        if !inverse.handlers.isEmpty {
            let filed = Step(name: inverse.name, handlers: inverse.handlers, from: step.from, to: step.to)
            if undoing {
                redoSteps.append(filed)
            } else {
                undoSteps.append(filed)
                trim()
            }
        }
        currentState = undoing ? step.from : step.to
        return true
    }

    /// Forgets every undo and redo step and any open group. Checkpoints stay; one marking the
    /// present state still holds.
    public func removeAll() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        openGroups.removeAll()
        openGroupFrom = nil
        changed()
    }

    /// Runs a step's handlers newest first and returns what they registered, named after the
    /// step unless a handler named it.
    private func run(_ step: Step, undoing: Bool) -> OpenGroup {
        collecting = OpenGroup(name: step.name)
        undoingNow = undoing
        groupsDuringCollection = 0
        for handler in step.handlers.reversed() { handler(self) }
        let inverse = collecting ?? OpenGroup(name: step.name)
        collecting = nil
        return inverse
    }
}

extension UndoStack {
    /// Marks the document's present state with a name, such as "Open" or "Save"; marking a
    /// name again moves it.
    ///
    /// The stack tracks document states, not positions: undoing back past a change and
    /// redoing it returns to the same state, while a new change after undoing makes a state
    /// the checkpoint never saw. So "is the document as saved?" is ``isAtCheckpoint(_:)``.
    public func markCheckpoint(_ name: String) {
        checkpointStates[name] = currentState
        changed()
    }

    /// Forgets a checkpoint.
    public func removeCheckpoint(_ name: String) {
        checkpointStates[name] = nil
        changed()
    }

    /// The names of every checkpoint, sorted.
    public var checkpoints: [String] { checkpointStates.keys.sorted() }

    /// Whether the document is in the state the checkpoint marked: false after any change
    /// since, true again when undo or redo brings it back. A document is dirty when it is not
    /// at its "Save" checkpoint. False for a name never marked.
    public func isAtCheckpoint(_ name: String) -> Bool {
        checkpointStates[name] == currentState
    }

    /// How many undo steps lead back to the checkpoint (0 when the document is there), or nil
    /// when undo cannot reach it: it was never marked, its steps were dropped by the levels
    /// limit or ``removeAll()``, or it lies ahead, among the redo steps.
    public func stepsBack(toCheckpoint name: String) -> Int? {
        guard let target = checkpointStates[name] else { return nil }
        var state = currentState
        var steps = 0
        if state != target, let from = openGroupFrom {
            // The open group, closed, is the first step back.
            state = from
            steps = 1
        }
        var index = undoSteps.count - 1
        while state != target {
            guard index >= 0, undoSteps[index].to == state else { return nil }
            state = undoSteps[index].from
            index -= 1
            steps += 1
        }
        return steps
    }

    /// Undoes every step since the checkpoint, one by one, so each can be redone on its own;
    /// listeners hear of the change once, at the end.
    ///
    /// - Returns: the number of steps undone (0 when already there), or nil, with nothing
    ///   undone, when the checkpoint cannot be reached (see ``stepsBack(toCheckpoint:)``).
    @discardableResult
    public func undo(toCheckpoint name: String) -> Int? {
        guard collecting == nil, let steps = stepsBack(toCheckpoint: name) else { return nil }
        quiet += 1
        defer {
            quiet -= 1
            changed()
        }
        var undone = 0
        while undone < steps && undo() { undone += 1 }
        return undone
    }
}
