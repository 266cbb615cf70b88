import CUdev

#if canImport(Glibc)
    import Glibc
#endif

/// What udev knows about one IIO device, copied out so no libudev handle outlives the call.
struct UdevDeviceInfo: Sendable, Hashable {
    /// `/sys/devices/.../iio:device0`.
    var syspath: String
    /// `iio:device0`.
    var sysname: String
    /// `/dev/iio:device0`, if the device has a node (triggers have none).
    var devnode: String?
    /// The udev property `ACCEL_MOUNT_MATRIX`, if set (from systemd's hwdb).
    var mountMatrixProperty: String?
}

/// An owning libudev context (`struct udev *`), released with `udev_unref`.
struct UdevContext: ~Copyable {
    /// The C handle.
    let pointer: OpaquePointer

    /// Creates a context with `udev_new`.
    init() throws(IIOError) {
        pointer = try checkPointer("udev_new") { udev_new() }
    }

    deinit { udev_unref(pointer) }

    /// Lists every device of the `iio` subsystem (accelerometers, other sensors, triggers).
    ///
    /// Devices are not filtered on `udev_device_get_is_initialized`: without a udev daemon
    /// (containers, umockdev) nothing is ever "initialized", yet the sysfs files are all there.
    func iioDevices() throws(IIOError) -> [UdevDeviceInfo] {
        let enumerate = try checkPointer("udev_enumerate_new") { udev_enumerate_new(pointer) }
        defer { udev_enumerate_unref(enumerate) }
        _ = try checkNegativeErrno("udev_enumerate_add_match_subsystem") {
            udev_enumerate_add_match_subsystem(enumerate, "iio")
        }
        _ = try checkNegativeErrno("udev_enumerate_scan_devices") { udev_enumerate_scan_devices(enumerate) }
        var found: [UdevDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let name = udev_list_entry_get_name(current) else { continue }
            // A device may vanish between the scan and this call: skip it.
            guard let device = udev_device_new_from_syspath(pointer, name) else { continue }
            defer { udev_device_unref(device) }
            if let info = UdevDeviceInfo(device) { found.append(info) }
        }
        return found.sorted { naturalLess($0.sysname, $1.sysname) }
    }
}

extension UdevDeviceInfo {
    /// Copies the facts out of a `struct udev_device *`; nil if it has no sysfs path or name.
    init?(_ device: OpaquePointer) {
        guard let syspath = udev_device_get_syspath(device), let sysname = udev_device_get_sysname(device) else {
            return nil
        }
        self.syspath = String(cString: syspath)
        self.sysname = String(cString: sysname)
        devnode = udev_device_get_devnode(device).map { String(cString: $0) }
        mountMatrixProperty = udev_device_get_property_value(device, "ACCEL_MOUNT_MATRIX").map { String(cString: $0) }
    }
}

/// One uevent seen by a ``UdevMonitor``.
struct UdevEvent: Sendable, Hashable {
    /// `add`, `remove`, `change`, `bind`...
    var action: String
    /// The device it concerns.
    var device: UdevDeviceInfo
}

/// A udev monitor watching the `iio` subsystem (`struct udev_monitor *`), released in `deinit`.
///
/// Its file descriptor is non-blocking: poll it, then call ``receive()`` until it returns nil.
struct UdevMonitor: ~Copyable {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// The descriptor to poll for readability.
    let fd: Int32

    /// Starts listening to udev's processed events for the `iio` subsystem.
    init() throws(IIOError) {
        let udev = try checkPointer("udev_new") { udev_new() }
        let monitor: OpaquePointer
        do throws(IIOError) {
            monitor = try checkPointer("udev_monitor_new_from_netlink") { udev_monitor_new_from_netlink(udev, "udev") }
        } catch {
            udev_unref(udev)
            throw error
        }
        do throws(IIOError) {
            _ = try checkNegativeErrno("udev_monitor_filter_add_match_subsystem_devtype") {
                udev_monitor_filter_add_match_subsystem_devtype(monitor, "iio", nil)
            }
            _ = try checkNegativeErrno("udev_monitor_enable_receiving") { udev_monitor_enable_receiving(monitor) }
            fd = try checkNegativeErrno("udev_monitor_get_fd") { udev_monitor_get_fd(monitor) } ?? -1
        } catch {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw error
        }
        self.udev = udev
        self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The next pending event, or nil when none is waiting.
    func receive() -> UdevEvent? {
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            guard let info = UdevDeviceInfo(device) else { continue }
            return UdevEvent(action: action, device: info)
        }
        return nil
    }
}

/// Orders `iio:device2` before `iio:device10`.
func naturalLess(_ a: String, _ b: String) -> Bool {
    let aDigits = a.reversed().prefix(while: \.isNumber)
    let bDigits = b.reversed().prefix(while: \.isNumber)
    let aStem = a.dropLast(aDigits.count)
    let bStem = b.dropLast(bDigits.count)
    if aStem != bStem { return aStem < bStem }
    return (Int(String(aDigits.reversed())) ?? 0) < (Int(String(bDigits.reversed())) ?? 0)
}
