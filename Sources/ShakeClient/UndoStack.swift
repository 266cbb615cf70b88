/// An app's undo history, in the spirit of Foundation's `UndoManager`: named steps, nested
/// groups, a levels limit, checkpoints such as "Open" and "Save", and a change notification
/// for publishing what can be undone.
///
/// Register, with each change the app makes, a handler that reverts it. When the handler runs
/// during ``undo()`` it registers the change's inverse in turn, and that becomes the redo
/// step, exactly as with `UndoManager`:
///
/// ```swift
/// func setBold(_ bold: Bool, line: Int) {
///     let old = lines[line].bold
///     lines[line].bold = bold
///     stack.registerUndo(named: "Bold") { _ in self.setBold(old, line: line) }
/// }
/// ```
///
/// or, when the inverse is simpler to state as a pair, ``register(named:undo:redo:)``.
///
/// Each registration outside a group is one step. Registrations between ``beginGroup(named:)``
/// and the matching ``endGroup()`` (nested as deep as needed) are one step, undone as a whole
/// in reverse order. A new registration clears the redo steps.
///
/// `UndoStack` is a class with no locking, deliberately not `Sendable`: keep it in one
/// isolation domain with the document it edits (the main actor, or the one task that owns the
/// document), as `UndoManager` lives on the main thread. Handlers run synchronously inside
/// ``undo()`` and ``redo()``. To publish state to another isolation domain, read ``changes()``,
/// whose ``Snapshot`` values are `Sendable`.
public final class UndoStack {
    /// Reverts one change; it receives the stack so it can register the inverse without
    /// capturing the stack (no reference cycle).
    public typealias Handler = (UndoStack) -> Void

    /// One undoable (or redoable) step: its handlers in registration order, and the document
    /// states before and after it, for checkpoints.
    struct Step {
        var name: String?
        var handlers: [Handler]
        /// The document state the step's undo returns to.
        var from: Int
        /// The document state its redo returns to.
        var to: Int
    }

    /// A group being built: its name and handlers, the nested groups' merged in as they end.
    struct OpenGroup {
        var name: String?
        var handlers: [Handler] = []
    }

    /// Steps to undo, oldest first.
    var undoSteps: [Step] = []
    /// Steps to redo, the one undone longest ago first.
    var redoSteps: [Step] = []
    /// Open groups, outermost first.
    var openGroups: [OpenGroup] = []
    /// The document state before the outermost open group's first registration.
    var openGroupFrom: Int?
    /// While undoing or redoing: the inverse steps the handlers register.
    var collecting: OpenGroup?
    /// Whether `collecting` gathers for an undo (else for a redo).
    var undoingNow = false
    /// Groups begun by handlers during an undo or redo; everything then goes to `collecting`.
    var groupsDuringCollection = 0
    /// The document state now, one number per distinct state.
    var currentState = 0
    var nextState = 1
    /// Checkpoint names and the document state each marks.
    var checkpointStates: [String: Int] = [:]
    /// While positive, changes are not announced (one announcement follows at the end).
    var quiet = 0
    /// What was last announced, so unchanged states are not announced again.
    var announced: Snapshot
    /// Listeners from ``changes()``, by number.
    var listeners: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    var nextListener = 0

    /// Called with the new state whenever ``snapshot`` changes (not for changes that leave it
    /// as it was), after the stack is consistent again; it may call back into the stack.
    public var onChange: ((Snapshot) -> Void)?

    /// Creates an empty stack.
    ///
    /// - Parameter levelsLimit: The most steps kept for undo; older ones are dropped. nil (the
    ///   default) keeps every step.
    public init(levelsLimit: Int? = nil) {
        precondition(levelsLimit.map { $0 >= 1 } ?? true, "the levels limit must be at least 1, or nil for none")
        self.levelsLimit = levelsLimit
        announced = Snapshot(undoActionName: nil, redoActionName: nil, undoCount: 0, redoCount: 0, checkpoints: [])
    }

    deinit {
        for listener in listeners.values { listener.finish() }
    }

    /// The most steps kept for undo, or nil for no limit. Lowering it drops the oldest steps now.
    public var levelsLimit: Int? {
        didSet {
            precondition(levelsLimit.map { $0 >= 1 } ?? true, "the levels limit must be at least 1, or nil for none")
            trim()
            changed()
        }
    }

    // MARK: - Registering

    /// Registers the handler that reverts the change just made.
    ///
    /// Outside an undo or redo, the handler joins the innermost open group, or becomes a step
    /// of its own, and the redo steps are cleared. During ``undo()`` it becomes part of the
    /// redo step; during ``redo()``, part of the undo step.
    ///
    /// - Parameters:
    ///   - name: The action name ("Typing") of a step of its own. In a group it names the group
    ///     only if the group has no name yet. During an undo or redo it is ignored: the step
    ///     keeps its name both ways ("Undo Typing", then "Redo Typing"), though the code that
    ///     registers the inverse usually names it after itself. Use ``setActionName(_:)`` to
    ///     rename on purpose.
    ///   - handler: Reverts the change, registering its inverse when it does.
    public func registerUndo(named name: String? = nil, _ handler: @escaping Handler) {
        if collecting != nil {
            collecting?.handlers.append(handler)
            return
        }
        redoSteps.removeAll()
        let state = nextState
        nextState += 1
        if openGroups.isEmpty {
            undoSteps.append(Step(name: name, handlers: [handler], from: currentState, to: state))
            trim()
        } else {
            if openGroupFrom == nil { openGroupFrom = currentState }
            openGroups[openGroups.count - 1].handlers.append(handler)
            if openGroups[openGroups.count - 1].name == nil { openGroups[openGroups.count - 1].name = name }
        }
        currentState = state
        changed()
    }

    /// Registers a change by its two directions: `undo` reverts it, `redo` makes it again.
    /// Undoing registers the redo, redoing registers the undo, as often as they alternate.
    public func register(named name: String? = nil, undo: @escaping () -> Void, redo: @escaping () -> Void) {
        registerUndo(named: name) { stack in
            undo()
            stack.register(undo: redo, redo: undo)
        }
    }

    /// Names the step being built: the innermost open group, the step an undo or redo is
    /// collecting, or else the newest undo step.
    public func setActionName(_ name: String) {
        if collecting != nil {
            collecting?.name = name
        } else if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].name = name
            changed()
        } else if !undoSteps.isEmpty {
            undoSteps[undoSteps.count - 1].name = name
            changed()
        }
    }

    // MARK: - Groups

    /// Opens a group: everything registered until the matching ``endGroup()`` is one step.
    ///
    /// Groups nest; an inner group's handlers join the outer one when it ends, and the step
    /// keeps the outermost name given (an inner name only when the outer group has none).
    public func beginGroup(named name: String? = nil) {
        if collecting != nil {
            groupsDuringCollection += 1
        } else {
            openGroups.append(OpenGroup(name: name))
        }
    }

    /// Closes the innermost open group. Closing the outermost makes its handlers one undo
    /// step; an empty group leaves no step.
    ///
    /// - Returns: false when no group was open, for instance because ``undo()`` closed it.
    @discardableResult
    public func endGroup() -> Bool {
        if collecting != nil {
            guard groupsDuringCollection > 0 else { return false }
            groupsDuringCollection -= 1
            return true
        }
        guard let group = openGroups.popLast() else { return false }
        if !openGroups.isEmpty {
            let outer = openGroups.count - 1
            openGroups[outer].handlers += group.handlers
            if openGroups[outer].name == nil { openGroups[outer].name = group.name }
            changed()
            return true
        }
        if let from = openGroupFrom {
            undoSteps.append(Step(name: group.name, handlers: group.handlers, from: from, to: currentState))
            openGroupFrom = nil
            trim()
        }
        changed()
        return true
    }

    /// Runs `body` inside a group: whatever it registers is one step.
    public func group<Result>(named name: String? = nil, _ body: () throws -> Result) rethrows -> Result {
        beginGroup(named: name)
        defer { endGroup() }
        return try body()
    }

    /// How many groups are open.
    public var groupingLevel: Int { openGroups.count }

    /// Closes every open group, so what they hold becomes one step.
    func closeGroups() {
        while !openGroups.isEmpty { endGroup() }
    }

    /// Drops the oldest undo steps beyond the limit.
    func trim() {
        guard let limit = levelsLimit, undoSteps.count > limit else { return }
        undoSteps.removeFirst(undoSteps.count - limit)
    }
}
