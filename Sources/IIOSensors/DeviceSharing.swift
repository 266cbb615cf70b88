#if canImport(Glibc)
    import Glibc
#endif

/// Who else uses an accelerometer, and whether shaked may take it from them.
///
/// The kernel lets one process open `/dev/iio:deviceN` at a time (`iio_chrdev_open` answers a second
/// open with `EBUSY`), and many drivers refuse `in_accel_*_raw` reads with `EBUSY` while the buffer is
/// enabled (`iio_device_claim_direct_mode`). iio-sensor-proxy, which rotates the screen, reads the same
/// device: buffered (the buffer enabled from its start, the node opened for a moment every 700 ms while
/// the shell claims the accelerometer) or polled (`in_accel_*_raw` every 700 ms). docs/sensor-sharing.md
/// has the sources. So a reader here never disables a buffer it did not enable, and with
/// ``SharingPriority/rotation`` it does not keep a buffer enabled whose raw readings a rotation service
/// is polling.
enum DeviceSharing {
    /// A process that uses the device.
    struct Holder: Equatable, CustomStringConvertible {
        /// nil for a rotation service known by its bus name when the bus did not say its process.
        let pid: Int32?
        let name: String
        var description: String { pid.map { "\(name) (pid \($0))" } ?? name }
    }

    /// The command name iio-sensor-proxy runs under (`comm` is cut to 15 bytes).
    static let rotationServiceNames: Set<String> = ["iio-sensor-prox", "iio-sensor-proxy"]

    /// Whether the device's buffer is enabled (by someone: this process's readers close theirs before another opens).
    static func bufferEnabled(_ info: AccelerometerInfo) -> Bool {
        (try? Sysfs.read("\(info.syspath)/buffer/enable"))??.hasPrefix("1") ?? false
    }

    /// The other processes that have `devnode` open, found through `/proc/*/fd` (the same inode).
    static func holders(of devnode: String) -> [Holder] {
        var target = stat()
        guard stat(devnode, &target) == 0 else { return [] }
        let me = getpid()
        var found: [Holder] = []
        forEachProcess { pid in
            guard pid != me, let fds = opendir("/proc/\(pid)/fd") else { return }
            defer { closedir(fds) }
            while let entry = readdir(fds) {
                let fd = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard fd.first?.isNumber == true else { continue }
                var info = stat()
                guard stat("/proc/\(pid)/fd/\(fd)", &info) == 0 else { continue }
                // The same inode as the node (not the same st_rdev: umockdev reports the faked device
                // number for the node's path, the pty's own for the descriptor).
                if info.st_dev == target.st_dev && info.st_ino == target.st_ino {
                    // iio-sensor-proxy's comm is cut to "iio-sensor-prox": named in full.
                    let comm = commandName(pid)
                    let name = rotationServiceNames.contains(comm) ? "iio-sensor-proxy" : comm
                    found.append(Holder(pid: pid, name: name))
                    return
                }
            }
        }
        return found
    }

    /// A running rotation service (iio-sensor-proxy), if any: where its bus name is followed (`following`),
    /// the one that owns it on our bus; otherwise a process of its name in `/proc`, which on one machine may
    /// serve another bus (another test's).
    static func rotationService(following: RotationServiceFollowing? = nil) -> Holder? {
        if let following, following.followed.load(ordering: .acquiring) {
            guard following.owned.load(ordering: .relaxed) else { return nil }
            let pid = following.ownerPID.load(ordering: .relaxed)
            return Holder(pid: pid > 0 ? pid : nil, name: "iio-sensor-proxy")
        }
        var service: Holder?
        forEachProcess { pid in
            guard service == nil else { return }
            let name = commandName(pid)
            if rotationServiceNames.contains(name) { service = Holder(pid: pid, name: "iio-sensor-proxy") }
        }
        return service
    }

    /// Who to name for a device in use: the processes holding its node, else a running rotation service.
    static func describeUser(of info: AccelerometerInfo, following: RotationServiceFollowing? = nil) -> String {
        holderOfEnabledBuffer(info, following: following) ?? "another process"
    }

    /// Who enabled the device's buffer, when a live process may have: a holder of its node, else a
    /// running rotation service; nil when nobody could have (a crashed reader left it enabled).
    static func holderOfEnabledBuffer(_ info: AccelerometerInfo, following: RotationServiceFollowing? = nil) -> String? {
        let holders = info.devnode.map(holders(of:)) ?? []
        if !holders.isEmpty { return holders.map(\.description).joined(separator: ", ") }
        return rotationService(following: following)?.description
    }

    /// The error for a device another process holds, naming it and saying what to do.
    static func busy(
        _ info: AccelerometerInfo, _ what: String, call: String? = nil, following: RotationServiceFollowing? = nil
    ) -> IIOError {
        IIOError(
            .busy, call: call, path: info.syspath, errno: EBUSY,
            "the accelerometer is in use by \(describeUser(of: info, following: following)): \(what); screen rotation comes first "
                + "(to take the sensor from it instead, set Priority=shake in [Sensor])")
    }

    private static func forEachProcess(_ body: (Int32) -> Void) {
        guard let proc = opendir("/proc") else { return }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let pid = Int32(name) { body(pid) }
        }
    }

    private static func commandName(_ pid: Int32) -> String {
        let text = (try? Sysfs.read("/proc/\(pid)/comm")) ?? nil
        let name = text.map { String($0.prefix { $0 != "\n" }) } ?? ""
        return name.isEmpty ? "pid \(pid)" : sanitizedName(name)
    }

    /// A command name safe to log: printable ASCII only.
    private static func sanitizedName(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.prefix(32).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? $0 : "?" }))
    }
}

extension AccelerometerInfo {
    /// Who else uses this accelerometer now, for `shakectl sensors`: the processes with its node
    /// open and whether its buffer is enabled, or a running iio-sensor-proxy; nil when nobody does.
    public var otherUsers: String? {
        let holders = devnode.map(DeviceSharing.holders(of:)) ?? []
        let enabled = DeviceSharing.bufferEnabled(self)
        let service = DeviceSharing.rotationService()
        var parts: [String] = []
        if !holders.isEmpty { parts.append(holders.map(\.description).joined(separator: ", ") + " (device open)") }
        if enabled {
            parts.append(holders.isEmpty && service != nil ? "\(service!) (buffer enabled)" : "buffer enabled")
        }
        if parts.isEmpty, let service {
            parts.append("\(service) (running; it reads this device while rotation is on)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
