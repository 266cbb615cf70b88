extension UndoStack {
    /// What can be undone and redone at one moment: what a client publishes as its context
    /// ("Undo Typing" possible, "Redo Bold" possible) and what an Edit menu shows.
    public struct Snapshot: Sendable, Hashable {
        /// The name of the step undo would revert; nil when there is none, empty when unnamed.
        public var undoActionName: String?
        /// The name of the step redo would make again; nil when there is none, empty when unnamed.
        public var redoActionName: String?
        /// Steps that can be undone.
        public var undoCount: Int
        /// Steps that can be redone.
        public var redoCount: Int
        /// The checkpoints the document is at now, such as "Save" when it is unmodified.
        public var checkpoints: Set<String>

        /// Creates a snapshot.
        public init(
            undoActionName: String?, redoActionName: String?, undoCount: Int, redoCount: Int, checkpoints: Set<String>
        ) {
            self.undoActionName = undoActionName
            self.redoActionName = redoActionName
            self.undoCount = undoCount
            self.redoCount = redoCount
            self.checkpoints = checkpoints
        }

        /// Whether there is anything to undo.
        public var canUndo: Bool { undoCount > 0 }

        /// Whether there is anything to redo.
        public var canRedo: Bool { redoCount > 0 }
    }

    /// The stack's state now.
    public var snapshot: Snapshot {
        Snapshot(
            undoActionName: undoActionName, redoActionName: redoActionName, undoCount: undoCount,
            redoCount: redoCount,
            checkpoints: Set(checkpointStates.compactMap { $0.value == currentState ? $0.key : nil })
        )
    }

    /// The stack's state now and after every change, for reading in another task:
    ///
    /// ```swift
    /// let changes = stack.changes()
    /// Task {
    ///     for await state in changes { updateEditMenu(undo: state.undoActionName, redo: state.redoActionName) }
    /// }
    /// ```
    ///
    /// Where the listener can be called in place, ``onChange`` is simpler:
    /// `stack.onChange = { client.setActions(undo: $0.undoActionName, redo: $0.redoActionName) }`.
    ///
    /// The stream starts with the present state and keeps only the newest state not yet read,
    /// since only the latest matters. It ends when the stack goes away. Listening stops when
    /// the stream is dropped or its task cancelled (the stack notices at its next change).
    public func changes() -> AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(snapshot)
        listeners[nextListener] = continuation
        nextListener += 1
        return stream
    }

    /// Announces the present state to ``onChange`` and every ``changes()`` stream, unless it is
    /// what was last announced or an operation is still under way.
    func changed() {
        guard quiet == 0, collecting == nil else { return }
        let now = snapshot
        guard now != announced else { return }
        announced = now
        for (id, listener) in listeners {
            if case .terminated = listener.yield(now) { listeners[id] = nil }
        }
        onChange?(now)
    }
}
