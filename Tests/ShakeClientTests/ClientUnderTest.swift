import ShakeClient
import Synchronization
import TestSupport
import Testing
import UndoProtocol

/// Runs a client for a test and keeps every event it delivers, so a test can wait for one
/// with a deadline instead of sleeping.
final class ClientUnderTest: Sendable {
    let client: ShakeClient
    private let events = Mutex<[ShakeClient.Event]>([])
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])

    init(_ client: ShakeClient) {
        self.client = client
    }

    /// Starts `run()` and the event reader.
    func start() {
        let client = client
        let run = Task { await client.run() }
        let read = Task {
            for await event in client.events { self.events.withLock { $0.append(event) } }
        }
        tasks.withLock { $0 = [run, read] }
    }

    /// Cancels `run()` and waits until it returned.
    func stop() async {
        let running = tasks.withLock { $0 }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Every event so far.
    var all: [ShakeClient.Event] { events.withLock { $0 } }

    /// Waits until an event after the first `skipping` ones gives a value; nil after `timeout`.
    func next<T: Sendable>(
        after skipping: Int = 0, timeout: Duration = .seconds(30), _ match: (ShakeClient.Event) -> T?
    ) async -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let seen = events.withLock { Array($0.dropFirst(skipping)) }
            if let found = seen.lazy.compactMap(match).first { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// How many events arrived so far.
    var count: Int { events.withLock { $0.count } }

    /// Waits for `.connected` after the first `skipping` events.
    func connected(after skipping: Int = 0) async -> Bool {
        await next(after: skipping) { event in event == .connected ? true : nil } ?? false
    }

    /// Waits for a prompt after the first `skipping` events.
    func prompt(after skipping: Int = 0) async -> PromptRequest? {
        await next(after: skipping) { event in
            if case .prompt(let request) = event { return request }
            return nil
        }
    }

    /// Waits for a perform request after the first `skipping` events.
    func perform(after skipping: Int = 0) async -> PerformRequest? {
        await next(after: skipping) { event in
            if case .perform(let request) = event { return request }
            return nil
        }
    }

    /// Waits for a cancellation after the first `skipping` events; its reason.
    func cancelled(after skipping: Int = 0) async -> CancelReason? {
        await next(after: skipping) { event in
            if case .cancelled(_, let reason) = event { return reason }
            return nil
        }
    }
}

/// Calls one method on the daemon on a connection of its own.
func call<R: Decodable & Sendable>(
    _ socket: String, _ method: UndoInterface.Method, _ parameters: some Encodable & Sendable,
    returning: R.Type = NoParameters.self
) async throws -> R {
    try await VarlinkConnection.withConnection(to: socket) { connection in
        try await connection.call(method, parameters, returning: R.self)
    }
}
