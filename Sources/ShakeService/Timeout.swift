import Synchronization

/// Runs `operation` and returns its result, or nil when it takes longer than `timeout`.
///
/// Unlike a task group, this returns at the deadline even when the operation can't be cancelled
/// (an actor whose thread is stuck, an event loop that never runs the task): the operation is left
/// running. That is what a watchdog needs, and a shutdown that won't wait on a client for good.
public func withTimeout<T: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async -> T
) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = ResumeOnce(continuation)
        let timer = Task {
            try? await Task.sleep(for: timeout)
            once.resume(nil)
        }
        Task {
            let value = await operation()
            // Resume before cancelling the timer: a cancelled timer resumes (with nil) at once.
            once.resume(value)
            timer.cancel()
        }
    }
}

/// Resumes a continuation the first time it is asked to, and ignores later requests.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: T?) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
