#if canImport(Glibc)
    import Glibc
#endif

/// `poll(2)`, called again while a signal interrupts it: the number of descriptors ready, 0 on timeout,
/// -1 with `errno` set on any other failure. swift-system's `FileDescriptor` retries EINTR for the calls it
/// wraps, but has no poll; this is the one loop that does it for the calls it doesn't, the journal's
/// wait for a full pipe and logind's monitor.
func pollRetryingInterrupts(_ fds: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
    while true {
        let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if ready >= 0 || errno != EINTR { return ready }
    }
}
