import CIIO

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the detached POSIX thread a reading loop runs on (no Foundation `Thread`).
enum ReadingThread {
    /// The closure a new thread runs, carried through `pthread_create`'s `void *`.
    private final class Body {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Runs `body` on a new detached thread named `name` (at most 15 bytes, as `ps` and `top` show it).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(IIOError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Body(name: name, run: body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                _ = shaked_name_thread(body.name)
                body.run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw IIOError.fromErrno(result, call: "pthread_create", path: nil)
        }
    }
}
