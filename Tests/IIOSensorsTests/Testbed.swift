import CUmockdev
import Foundation
import Testing

/// Whether this process runs under umockdev's preload (`umockdev-wrapper`), without which the
/// fake sysfs and `/dev` are invisible to libudev and libiio.
let umockdevPreloaded = ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("umockdev-preload") == true

/// The reason shown for skipped device tests.
let umockdevSkipReason: Comment =
    "needs umockdev's preload: run scripts/test-iio.sh (umockdev-wrapper swift test --skip-build --filter IIOSensorsTests)"

/// A umockdev testbed owned by one test: a fake `/sys` and `/dev` in a temporary folder.
///
/// Creating it points `UMOCKDEV_DIR` at the folder (so this process and its children see it);
/// `deinit` removes the folder and unsets the variable. Tests using it must be serialized.
final class Testbed {
    let pointer: UnsafeMutablePointer<UMockdevTestbed>

    init() {
        pointer = umockdev_testbed_new()
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The testbed's root folder (what `/` maps to for sys and dev).
    var root: String {
        let text = umockdev_testbed_get_root_dir(pointer)!
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Adds devices from umockdev's text format (`P:`, `N:`, `E:`, `A:` lines).
    func add(_ description: String) throws {
        var error: UnsafeMutablePointer<GError>? = nil
        if umockdev_testbed_add_from_string(pointer, description, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw TestbedError(message: "umockdev_testbed_add_from_string: \(message)")
        }
    }

    /// Sets a sysfs attribute (a trailing newline is added, as the kernel would).
    func setAttribute(_ devpath: String, _ name: String, _ value: String) {
        umockdev_testbed_set_attribute(pointer, "/sys" + devpath, name, value + "\n")
    }

    /// Changes the mode of a file in the fake sysfs or dev tree (as the program sees the path).
    func chmod(_ path: String, _ mode: mode_t) {
        _ = Glibc.chmod(root + path, mode)
    }

    /// The master side of a device node's pty: what is written here, the device's reader reads.
    func deviceFD(_ devnode: String) -> Int32 {
        umockdev_testbed_get_dev_fd(pointer, devnode)
    }

    /// Sends a uevent (`add`, `remove`, `change`) for a device.
    func uevent(_ devpath: String, _ action: String) {
        umockdev_testbed_uevent(pointer, "/sys" + devpath, action)
    }

    /// Removes a device from sysfs (without a uevent).
    func remove(_ devpath: String) {
        umockdev_testbed_remove_device(pointer, "/sys" + devpath)
    }
}

struct TestbedError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Writes bytes to a descriptor completely (a pty master may take them in pieces).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR || errno == EAGAIN {
                usleep(1000)
                continue
            }
            return
        }
        offset += written
    }
}
