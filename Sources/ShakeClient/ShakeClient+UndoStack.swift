import UndoProtocol

extension ShakeClient {
    /// Takes part in shake to undo with an ``UndoStack``: the whole integration of an app.
    ///
    /// Connects and keeps connected (as ``run()``), publishes the stack's undo and redo action
    /// names whenever they change, and for each shake asks `confirm` to show the composed prompt
    /// ("Undo Typing", Cancel on the left) and return the role of the button pressed. When the
    /// person confirmed, it undoes or redoes on the stack and reports `summary` of what changed
    /// to the daemon. Returns when the task running it is cancelled.
    ///
    /// ```swift
    /// let stack = UndoStack()
    /// let shake = ShakeClient(app: "org.example.Notes", name: "Notes")
    /// await shake.run(undoing: stack) { request in
    ///     await showAlert(request.prompt)  // returns the Role of the button pressed
    /// }
    /// ```
    ///
    /// It runs in the caller's isolation (such as the main actor), where the stack lives; the
    /// stack's handlers run there. `confirm` runs in a task of its own, and that task is
    /// cancelled when the daemon cancels the prompt (the app left the foreground, another app
    /// took the context, the timeout passed, the daemon went away): dismiss the alert then, and
    /// what it returns is ignored. Don't read ``events`` while this runs; `onEvent` sees each of
    /// them, for showing the connection state and whether shake to undo is available now. Set focus with ``setFocused(_:)``.
    ///
    /// - Parameters:
    ///   - stack: the app's undo history.
    ///   - summary: what performing changed, for the daemon to pass on ("Undid Typing" by default).
    ///   - onEvent: called with every event first, in the caller's isolation.
    ///   - confirm: shows the prompt and returns the role of the action the person picked.
    public func run(
        undoing stack: UndoStack,
        isolation: isolated (any Actor)? = #isolation,
        summary: (PerformRequest) -> String = ShakeClient.defaultSummary,
        onEvent: (Event) -> Void = { _ in },
        confirm: @escaping @Sendable (PromptRequest) async -> Role
    ) async {
        let changes = stack.changes()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.run() }
            group.addTask {
                for await state in changes {
                    self.setActions(undo: state.undoActionName, redo: state.redoActionName)
                }
            }
            var confirming: Task<Void, Never>?
            for await event in events {
                onEvent(event)
                switch event {
                case .prompt(let request):
                    confirming?.cancel()
                    confirming = Task {
                        let role = await confirm(request)
                        if !Task.isCancelled { self.choose(role) }
                    }
                case .perform(let request):
                    confirming = nil
                    let done = request.operation == .undo ? stack.undo() : stack.redo()
                    reportResult(done ? summary(request) : "Nothing to \(request.operation)")
                case .cancelled, .failed, .disconnected:
                    confirming?.cancel()
                    confirming = nil
                case .connected, .shakeUnavailable, .shakeAvailable:
                    break
                }
            }
            confirming?.cancel()
            group.cancelAll()
        }
    }

    /// "Undid Typing" or "Redid Typing".
    public static func defaultSummary(_ request: PerformRequest) -> String {
        (request.operation == .undo ? "Undid " : "Redid ") + request.actionName
    }
}
