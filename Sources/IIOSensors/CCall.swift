#if canImport(Glibc)
    import Glibc
#endif

// The one place where C return conventions become Swift errors. Every call into libc,
// libiio and libudev goes through one of these, so each failure names the call and the path,
// EINTR is retried everywhere, and EAGAIN is a value (nil), never an error. Call names are
// `StaticString`s so the checks cost no allocation on the reading path.

/// Runs `body` until it fails with something other than EINTR: its result, and the errno it failed with
/// (nil on success). `failure` reads a result's errno, nil for a success.
///
/// The module's one EINTR loop. swift-system's `FileDescriptor` retries EINTR, but only for the calls it
/// wraps, and nothing in the dependency graph wraps libiio's calls (which return -errno) or libudev's; this
/// does, for them and for the few libc calls (poll, sysfs reads) beside them on the reading path.
@inline(__always)
private func retryingInterrupts<T>(_ body: () -> T, failure: (T) -> Int32?) -> (result: T, errno: Int32?) {
    while true {
        let result = body()
        guard let err = failure(result) else { return (result, nil) }
        if err != EINTR { return (result, err) }
    }
}

/// Runs a call that returns -1 and sets `errno` on failure (the libc convention).
///
/// Retries on EINTR; throws an ``IIOError`` classified by errno, naming `call` and `path`.
@inline(__always)
func checkErrno<T: FixedWidthInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T {
    let (result, err) = retryingInterrupts(body) { $0 == -1 ? errno : nil }
    guard let err else { return result }
    throw IIOError.fromErrno(err, call: "\(call)", path: path())
}

/// Like ``checkErrno(_:path:_:)`` for non-blocking calls: nil when the call would block (EAGAIN).
@inline(__always)
func checkErrnoNonBlocking<T: FixedWidthInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T? {
    let (result, err) = retryingInterrupts(body) { $0 == -1 ? errno : nil }
    return try nilOnAgain(result, err, call, path())
}

/// Runs a call that returns a negative errno on failure (the libiio convention).
///
/// Retries on -EINTR; returns nil on -EAGAIN; throws an ``IIOError`` for anything else negative.
@inline(__always)
func checkNegativeErrno<T: FixedWidthInteger & SignedInteger>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> T
) throws(IIOError) -> T? {
    let (result, err) = retryingInterrupts(body) { $0 < 0 ? Int32(truncatingIfNeeded: -$0) : nil }
    return try nilOnAgain(result, err, call, path())
}

/// The result, nil for EAGAIN, or the error for any other errno.
@inline(__always)
private func nilOnAgain<T>(_ result: T, _ err: Int32?, _ call: StaticString, _ path: @autoclosure () -> String?)
    throws(IIOError) -> T?
{
    guard let err else { return result }
    if err == EAGAIN || err == EWOULDBLOCK { return nil }
    throw IIOError.fromErrno(err, call: "\(call)", path: path())
}

/// Runs a call that returns NULL and (usually) sets `errno` on failure (libiio and libudev constructors).
@inline(__always)
func checkPointer<P>(
    _ call: StaticString, path: @autoclosure () -> String? = nil, _ body: () -> P?
) throws(IIOError) -> P {
    let (pointer, err) = retryingInterrupts(
        { () -> P? in
            errno = 0
            return body()
        },
        failure: { $0 == nil ? errno : nil })
    if let pointer { return pointer }
    guard let err, err != 0 else {
        throw IIOError(.systemCallFailed, call: "\(call)", path: path(), "\(call) returned nothing")
    }
    throw IIOError.fromErrno(err, call: "\(call)", path: path())
}
