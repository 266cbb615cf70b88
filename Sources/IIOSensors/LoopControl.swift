import CIIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What other threads may ask of one reading loop: stop, answer a liveness probe, or look again
/// (a device it waits for was released). All of it arrives through one non-blocking `eventfd`,
/// so a loop asleep in its ``WaitSet`` costs nothing until someone asks.
///
/// A probe is answered by the loop itself, at its next pass through `poll`: a loop stuck in a
/// system call or a driver does not answer, which is the point.
final class LoopControl: Sendable {
    /// The descriptor the loop polls; readable after ``stop()``, a probe, or ``nudge()``.
    let fd: Int32

    private let stopped = Atomic<Bool>(false)
    private let probePending = Atomic<Bool>(false)
    private let serviceAppeared = Atomic<Bool>(false)
    /// Whether someone tells this loop when a rotation service appears (``rotationServiceAppeared()``), so
    /// that a buffer of its own need not look for one in `/proc` every 10 s: its source's one flag,
    /// shared, so a loop started while the flag changes cannot keep a stale copy.
    let rotationService: RotationServiceFollowing
    private let nextProbe = Atomic<Int>(0)
    private let probes = Mutex(Probes())

    /// Probes in flight, by id.
    private struct Probes {
        enum Entry {
            /// Started, not yet waiting.
            case starting
            /// Waiting for the loop.
            case waiting(CheckedContinuation<Bool, Never>)
            /// The caller gave up before it started waiting.
            case cancelled
        }
        var entries: [Int: Entry] = [:]
        /// The loop has ended: probes answer at once.
        var ended = false
    }

    /// Creates the eventfd; `rotationService` is the source's flag.
    init(rotationService: RotationServiceFollowing) throws(IIOError) {
        self.rotationService = rotationService
        fd = try checkErrno("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
    }

    deinit { close(fd) }

    // MARK: Asked by other threads

    /// Asks the loop to end (the consumer went away).
    func stop() {
        stopped.store(true, ordering: .releasing)
        nudge()
    }

    /// Wakes the loop to look at its state again (a device it waits for was released).
    func nudge() {
        var one: UInt64 = 1
        _ = Glibc.write(fd, &one, 8)
    }

    /// Whether the loop passes through `poll` within `timeout`; true at once if it has ended.
    func isResponsive(within timeout: Duration) async -> Bool {
        let id = nextProbe.add(1, ordering: .relaxed).newValue
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.probe(id) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let answer = await group.next() ?? false
            group.cancelAll()
            return answer
        }
    }

    private func probe(_ id: Int) async -> Bool {
        probes.withLock { $0.entries[id] = .starting }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = probes.withLock { state in
                    if case .cancelled = state.entries[id] {
                        state.entries[id] = nil
                        return false
                    }
                    if state.ended {
                        state.entries[id] = nil
                        return true
                    }
                    state.entries[id] = .waiting(continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                probePending.store(true, ordering: .releasing)
                nudge()
            }
        } onCancel: {
            let continuation: CheckedContinuation<Bool, Never>? = probes.withLock { state in
                switch state.entries[id] {
                case .starting:
                    state.entries[id] = .cancelled
                    return nil
                case .waiting(let continuation):
                    state.entries[id] = nil
                    return continuation
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume(returning: false)
        }
    }

    /// Tells the loop that a rotation service (iio-sensor-proxy) took its bus name: a buffer of the
    /// loop's own gives way at once.
    func rotationServiceAppeared() {
        serviceAppeared.store(true, ordering: .releasing)
        nudge()
    }

    // MARK: Called by the loop

    /// Whether a rotation service appeared since the last call.
    func takeRotationServiceAppeared() -> Bool {
        serviceAppeared.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Whether the consumer went away.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Empties the eventfd after a wake-up and answers any probe.
    func drain() {
        var count: UInt64 = 0
        _ = Glibc.read(fd, &count, 8)
        answerProbes(ended: false)
    }

    /// The loop has ended: answers waiting probes and every later one.
    func end() {
        answerProbes(ended: true)
    }

    private func answerProbes(ended: Bool) {
        guard probePending.exchange(false, ordering: .acquiringAndReleasing) || ended else { return }
        let waiting = probes.withLock { state in
            if ended { state.ended = true }
            var answered: [CheckedContinuation<Bool, Never>] = []
            for (id, entry) in state.entries {
                guard case .waiting(let continuation) = entry else { continue }
                answered.append(continuation)
                state.entries[id] = nil
            }
            return answered
        }
        for continuation in waiting { continuation.resume(returning: true) }
    }
}

/// Whether a rotation service's appearance is followed (its bus name's `NameOwnerChanged`), and while it
/// is, whether the name has an owner: set by ``AccelerometerSource/followRotationService(_:)``,
/// ``AccelerometerSource/rotationServiceAppeared(pid:)`` and ``AccelerometerSource/rotationServiceLeft()``, and
/// read by each of the source's loops. While the name is followed, it alone says whether a rotation service
/// runs: the processes in `/proc` named iio-sensor-proxy may serve another bus (another test's, on one
/// machine), and only the one on our bus is ours.
final class RotationServiceFollowing: Sendable {
    /// True while the appearance is followed.
    let followed = Atomic<Bool>(false)
    /// True while the followed name has an owner.
    let owned = Atomic<Bool>(false)
    /// The owner's pid as the bus gave it, 0 when unknown.
    let ownerPID = Atomic<Int32>(0)
    /// When the followed name's owner last left (monotonic nanoseconds), `Int64.min` if it never did.
    let leftAt = Atomic<Int64>(.min)

    /// What the bus name says about a rotation service.
    enum Sighting: Sendable, Equatable {
        /// The name is not followed (no system bus): only `/proc` can tell.
        case notFollowed
        /// The name has an owner, or had one within the memory (it may be restarting).
        case running
        /// The name is followed and has had no owner within the memory: none runs, whatever `/proc` shows.
        case absent
    }

    /// Whether a rotation service runs now, or left within `memory` nanoseconds of `now`, by its bus name.
    func seen(now: Int64, memory: Int64) -> Sighting {
        guard followed.load(ordering: .acquiring) else { return .notFollowed }
        if owned.load(ordering: .relaxed) { return .running }
        let left = leftAt.load(ordering: .relaxed)
        return left != .min && now &- left < memory ? .running : .absent
    }
}
