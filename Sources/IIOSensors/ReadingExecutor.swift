import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the consumer of an accelerometer's samples on the reading thread, so that a batch reaches
/// it without waking a second thread.
///
/// A consumer that iterates ``AccelerometerSource/events()`` inside
/// `withTaskExecutorPreference(source.preferredExecutor)` is resumed here when a batch is yielded:
/// the job is queued, and the reading loop runs it as soon as the yield returns, on its own thread,
/// before it sleeps in `poll` again. Jobs enqueued from other threads (a resumption after an actor
/// call) nudge the loop through its eventfd. With no reading loop running, jobs run on the global
/// dispatch queue. Measured in README.md, "Cost of reading at 100 Hz".
public final class ReadingExecutor: TaskExecutor, Sendable {
    private struct State: ~Copyable {
        var jobs: [UnownedJob] = []
        /// The loop that drains the queue, and its thread.
        var loop: LoopControl?
        var thread: pthread_t = 0
    }

    private let state = Mutex(State())

    /// Creates an executor with no loop; jobs run on the global queue until one starts.
    public init() {}

    /// Queues the job for the reading thread, or runs it elsewhere when no loop runs.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        enum Route {
            case queued
            case queuedNudge(LoopControl)
            case elsewhere
        }
        let route: Route = state.withLock { state in
            guard let loop = state.loop else { return .elsewhere }
            state.jobs.append(job)
            return pthread_equal(pthread_self(), state.thread) != 0 ? .queued : .queuedNudge(loop)
        }
        switch route {
        case .queued: break
        case .queuedNudge(let loop): loop.nudge()
        case .elsewhere: runElsewhere(job)
        }
    }

    private func runElsewhere(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }

    /// Makes the calling thread, running `loop`, the one that runs queued jobs.
    func attach(_ loop: LoopControl) {
        state.withLock { state in
            state.loop = loop
            state.thread = pthread_self()
        }
    }

    /// Stops running jobs on `loop`'s thread (if it is the attached one); what is queued runs elsewhere.
    func detach(_ loop: LoopControl) {
        let left: [UnownedJob] = state.withLock { state in
            guard state.loop === loop else { return [] }
            state.loop = nil
            defer { state.jobs = [] }
            return state.jobs
        }
        for job in left { runElsewhere(job) }
    }

    /// Runs the queued jobs on the calling (reading) thread, including those they queue in turn.
    func runPending() {
        let executor = asUnownedTaskExecutor()
        while true {
            var jobs: [UnownedJob] = []
            state.withLock { swap(&jobs, &$0.jobs) }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }
}
