#if canImport(Glibc)
    import Glibc
#endif

// The one place where C return conventions become Swift errors. Every call into libc,
// libiio and libudev goes through one of these, so each failure names the call and the path,
// EINTR is retried everywhere, and EAGAIN is a value (nil), never an error. Call names are
// `StaticString`s so the checks cost no allocation on the reading path.

/// Runs a call that returns -1 and sets `errno` on failure (the libc convention).
///
/// Retries on EINTR; throws an ``IIOError`` classified by errno, naming `call` and `path`.
@inline(__always)
func checkErrno<T: FixedWidthInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = errno
        if err == EINTR { continue }
        throw IIOError.fromErrno(err, call: "\(call)", path: path())
    }
}

/// Like ``checkErrno(_:path:_:)`` for non-blocking calls: nil when the call would block (EAGAIN).
@inline(__always)
func checkErrnoNonBlocking<T: FixedWidthInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T? {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = errno
        if err == EINTR { continue }
        if err == EAGAIN || err == EWOULDBLOCK { return nil }
        throw IIOError.fromErrno(err, call: "\(call)", path: path())
    }
}

/// Runs a call that returns a negative errno on failure (the libiio convention).
///
/// Retries on -EINTR; returns nil on -EAGAIN; throws an ``IIOError`` for anything else negative.
@inline(__always)
func checkNegativeErrno<T: FixedWidthInteger & SignedInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T? {
    while true {
        let result = body()
        if result >= 0 { return result }
        let err = Int32(truncatingIfNeeded: -result)
        if err == EINTR { continue }
        if err == EAGAIN || err == EWOULDBLOCK { return nil }
        throw IIOError.fromErrno(err, call: "\(call)", path: path())
    }
}

/// Runs a call that returns NULL and (usually) sets `errno` on failure (libiio and libudev constructors).
@inline(__always)
func checkPointer<P>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> P?
) throws(IIOError) -> P {
    while true {
        errno = 0
        if let pointer = body() { return pointer }
        let err = errno
        if err == EINTR { continue }
        if err == 0 {
            throw IIOError(.systemCallFailed, call: "\(call)", path: path(), "\(call) returned nothing")
        }
        throw IIOError.fromErrno(err, call: "\(call)", path: path())
    }
}
