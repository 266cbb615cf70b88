import Glibc
import Testing

@testable import IIOSensors

/// The one checker every C call goes through: EINTR retried, EAGAIN a value, errno a typed error.
@Suite struct CCallTests {
    @Test func retriesEINTR() throws {
        var calls = 0
        let result = try checkErrno("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
    }

    @Test func eagainIsNilNotAnError() throws {
        #expect(
            try checkErrnoNonBlocking("read") { () -> Int in
                errno = EAGAIN
                return -1
            } == nil)
        #expect(try checkNegativeErrno("iio_buffer_refill") { -Int(EAGAIN) } == nil)
        var calls = 0
        let refill = try checkNegativeErrno("iio_buffer_refill") { () -> Int in
            calls += 1
            return calls == 1 ? -Int(EINTR) : 32
        }
        #expect(refill == 32)
    }

    static let classified: [(Int32, IIOError.Code)] = [
        (EACCES, .permissionDenied), (EPERM, .permissionDenied), (ENODEV, .deviceGone), (ENXIO, .deviceGone),
        (EIO, .deviceGone), (ENOENT, .deviceGone), (ETIMEDOUT, .timedOut), (EBUSY, .busy), (EINVAL, .systemCallFailed),
    ]

    @Test(arguments: classified)
    func classifiesErrno(err: Int32, code: IIOError.Code) {
        let thrown = #expect(throws: IIOError.self) {
            _ = try checkErrno("open", path: "/dev/iio:device0") { () -> Int32 in
                errno = err
                return -1
            }
        }
        #expect(thrown?.code == code)
        #expect(thrown?.call == "open" && thrown?.path == "/dev/iio:device0" && thrown?.errno == err)
        let negative = #expect(throws: IIOError.self) { _ = try checkNegativeErrno("iio_buffer_refill") { -Int(err) } }
        #expect(negative?.code == code)
    }

    @Test func nullPointerWithErrno() {
        let thrown = #expect(throws: IIOError.self) {
            _ = try checkPointer("iio_create_local_context") { () -> OpaquePointer? in
                errno = EACCES
                return nil
            }
        }
        #expect(thrown?.code == .permissionDenied)
        #expect(thrown?.description.contains("60-shaked.rules") == true)
    }

    @Test(arguments: [
        ("42\n", 42 as Int64?), ("-17\n", -17), ("+3", 3), ("", nil), ("12a\n", nil), ("-", nil),
        ("99999999999999999999", nil),
    ])
    func parsesRawIntegersWithoutAllocating(text: String, value: Int64?) {
        let parsed = Array(text.utf8).withUnsafeBytes { parseInteger($0) }
        #expect(parsed == value)
    }
}
