import CIIO
import MonotonicClock
import ShakeDetection

#if canImport(Glibc)
    import Glibc
#endif

/// Reads another process's IIO buffer (iio-sensor-proxy's) by sharing its node in time: it opens
/// `/dev/iio:deviceN`, reads what the buffer holds and closes it, about `wakeupsPerSecond` times a
/// second, never when the other process reads (``DrainSchedule``).
///
/// For drivers that refuse `in_accel_*_raw` while a buffer is enabled (st_accel, inv_mpu6050,
/// bmc150, kxcjk-1013, st_lsm6dsx), this is the only way to read beside iio-sensor-proxy 3.7, which
/// keeps its buffer enabled while the shell claims the accelerometer. It changes nothing of the
/// other's set-up: not the trigger, the scan elements, the length or the enable. It only raises the
/// rate when the buffer runs slower than asked and the driver takes the change while buffered (up to
/// 180 Hz, so that the 127 scans iio-sensor-proxy reads every 700 ms still reach the newest), and
/// puts the old rate back when it closes, if nobody changed it since. The scans are laid out as the
/// buffer has them (every enabled scan element, as the other process chose) and stamped from the
/// read time, since the other process chose the timestamp clock. What the other process reads is
/// lost here; ``lostScans`` counts it.
final class TimeSharedReader: SampleReader {
    let info: AccelerometerInfo
    let rate: Double
    var mode: ReadingMode { .timeShared }
    var pollFD: Int32 { timer.fd }
    /// Scans the other process took before this reader could read them.
    private(set) var lostScans = 0
    /// Scans read here.
    private(set) var readScans = 0

    private let devnode: String
    /// `devnode` as a C string, made once: a Swift `String` passed to `open` is copied into a new array
    /// at every call, which was one allocation a read.
    private let devnodePath: UnsafeMutablePointer<CChar>
    /// `buffer/enable`, read after an empty read without allocating.
    private let bufferEnable: PolledAttribute
    private let decoder: ScanDecoder
    /// The `*_en` the decoder's layout was made from, checked after the first read that got data and
    /// after any read that got more scans than the time since the last one holds.
    private let layout: ScanElementWatch
    /// Whether the layout was checked against the `*_en` after a read since this reader opened.
    private var layoutChecked = false
    private let timer: OneShotTimer
    private let interval: Int64
    private var schedule: DrainSchedule
    private var lastRead: Int64
    /// The time of the last scan read, if any.
    private var lastScan: Int64?
    /// Since when every open met EBUSY (monotonic ns).
    private var busySince: Int64?
    /// How long the other process may hold the node before sharing counts as impossible.
    static let longestHold: Int64 = 2_000_000_000
    private let scratch: UnsafeMutableRawBufferPointer
    private var clock: TimestampGuard
    /// The rate found, to put back at close, when this reader raised it.
    private let restoreRate: RaisedRates.Restore?

    /// The most scans one read takes: iio-sensor-proxy sets `buffer/length` to 128.
    static let maximumScans = 256
    /// The highest rate set here: iio-sensor-proxy reads at most 127 scans every 700 ms.
    static let maximumRaisedRate = 180.0

    /// Prepares to read the buffer another process has enabled; throws `.busy` when it has no
    /// x, y and z scan elements enabled, or the device has no node.
    init(info: AccelerometerInfo, wantedRate: Double, wakeupsPerSecond: Double) throws(IIOError) {
        guard let devnode = info.devnode else {
            throw IIOError(.badConfiguration, path: info.syspath, "the device has no IIO buffer node to share")
        }
        let base = info.syspath
        let (names, on, enabled) = try Self.scanElements(base)
        guard let axes = info.scanChannels, ["x", "y", "z"].allSatisfy({ enabled["in_accel_\($0)"] != nil }) else {
            throw DeviceSharing.busy(info, "its IIO buffer is enabled without the x, y and z scan elements")
        }
        let timestamp = enabled["in_timestamp"]
        let others = enabled.filter { !["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"].contains($0.key) }
            .map(\.value)
        decoder = ScanDecoder(
            axes: axes, timestamp: timestamp, alsoEnabled: others,
            converter: SampleConverter(calibration: info.calibration, mountMatrix: info.mountMatrix))
        layout = ScanElementWatch(scanElements: "\(base)/scan_elements", names: names, enabled: on)
        var rate = info.samplingFrequency ?? wantedRate
        var restore: RaisedRates.Restore?
        let wanted = min(info.rate(for: wantedRate), Self.maximumRaisedRate)
        if let attribute = info.samplingFrequencyAttribute, let current = info.samplingFrequency, current < wanted,
            let old = try? Sysfs.read("\(base)/\(attribute)"),
            (try? Sysfs.write("\(base)/\(attribute)", rateText(wanted))) != nil
        {
            rate = wanted
            let text = rateText(wanted)
            restore = .init(
                path: "\(base)/\(attribute)", text: String(old.filter { !$0.isWhitespace }),
                raised: Double(text) ?? wanted)
        }
        restoreRate = restore
        self.info = info
        self.rate = rate
        self.devnode = devnode
        // The timer first: a throw after the raw allocations below would leak them (deinit runs only once
        // every property is set).
        timer = try OneShotTimer()
        devnodePath = strdup(devnode)!
        bufferEnable = PolledAttribute(path: "\(base)/buffer/enable")
        interval = Int64(1e9 / clampWakeups(wakeupsPerSecond))
        schedule = DrainSchedule(rate: rate)
        clock = TimestampGuard(period: periodNanoseconds(rate))
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.maximumScans * decoder.scanBytes, alignment: 8)
        lastRead = monotonicNanoseconds()
        try timer.arm(at: lastRead &+ interval)
    }

    deinit {
        scratch.deallocate()
        free(devnodePath)
        // Unless someone changed it since; later, if the driver refuses it now (as PolledReader's).
        if let restoreRate { RaisedRates.putBack(restoreRate) }
    }

    func read(into samples: inout [Sample]) throws(IIOError) -> Int {
        guard try timer.consume() else { return 0 }
        let now = monotonicNanoseconds()
        // Woken late (a busy machine) into the window around the other's read: not now, after it.
        if let end = schedule.keepOutEnd(at: now) {
            try timer.arm(at: end &+ 1_000_000)
            return 0
        }
        // So busy that this reader can no longer keep out of the other's way: give the buffer back, and say why.
        if let why = schedule.trouble(at: now) {
            throw DeviceSharing.busy(
                info, "\(why) while this process shared its buffer in time (the machine is busy); the buffer is "
                    + "left to rotation, and shared again later", call: "open")
        }
        let fd: Int32
        do throws(IIOError) {
            fd = try checkErrno("open", path: devnode) { open(devnodePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch where error.errno == EBUSY {
            // The other process is reading now: come back after its read. One that keeps the node open
            // (not iio-sensor-proxy, which holds it for a read, or 500 ms at its discovery) leaves
            // nothing to share.
            let busySince = self.busySince ?? now
            self.busySince = busySince
            if now &- busySince > Self.longestHold {
                throw DeviceSharing.busy(info, "it keeps \(devnode) open", call: "open")
            }
            schedule.otherIsReading(at: now)
            try timer.arm(at: schedule.nextRead(after: now, interval: interval))
            return 0
        } catch where error.errno == ENOENT || error.errno == ENODEV || error.errno == ENXIO {
            throw IIOError(.deviceGone, call: error.call, path: devnode, "the device node went away")
        }
        busySince = nil
        var bytes = 0
        var failure: IIOError?
        while bytes + decoder.scanBytes <= scratch.count {
            do throws(IIOError) {
                guard
                    let count = try checkErrnoNonBlocking(
                        "read", path: devnode,
                        { Glibc.read(fd, scratch.baseAddress! + bytes, scratch.count - bytes) }), count > 0
                else { break }
                bytes += count
            } catch {
                failure = error
                break
            }
        }
        close(fd)
        schedule.held(from: now, to: monotonicNanoseconds())
        if let failure { throw failure }
        if bytes > 0, !layoutChecked || tooManyScans(bytes / decoder.scanBytes, now: now),
            let element = layout.changed()
        {
            // Laid out from elements the other process has changed since (it disabled its buffer, set
            // others and enabled it again, or was doing so when this reader opened): these bytes would be
            // cut at the wrong places. Dropped, and the reader chosen again with the elements as they are.
            throw IIOError(
                .sharingChanged, path: element,
                "the other process changed its buffer's scan elements since this reader laid out its scans "
                    + "(\(bytes) bytes dropped)")
        }
        if bytes > 0 { layoutChecked = true }
        let scans = bytes / decoder.scanBytes
        let before = samples.count
        decode(scans: scans, readTime: now, into: &samples)
        let first = samples.count > before ? samples[before].timestamp : nil
        lostScans += schedule.observe(
            readAt: now, previousReadAt: lastRead, scans: scans, firstScan: first, previousLastScan: lastScan)
        if samples.count > before { lastScan = samples[samples.count - 1].timestamp }
        readScans += scans
        lastRead = now
        if scans == 0 && !bufferEnabled() {
            throw IIOError(
                .sharingChanged, path: info.syspath,
                "the other process disabled its buffer (iio-sensor-proxy 3.7 does when the shell releases the "
                    + "accelerometer)")
        }
        try timer.arm(at: schedule.nextRead(after: now, interval: interval))
        return 1
    }

    /// Whether `scans` is more than the time since the last read holds at the buffer's rate, with room for
    /// jitter (half as many again, and two): what a layout smaller than the buffer's scans gives (6-byte
    /// scans for 16-byte ones: 2.7 times as many). Checked against the `*_en` then, not at every read:
    /// the four sysfs reads cost about a third of this reader's CPU.
    private func tooManyScans(_ scans: Int, now: Int64) -> Bool {
        let elapsed = max(now &- lastRead, 0)
        return Int64(scans) > elapsed / max(schedule.samplePeriod, 1) * 3 / 2 + 2
    }

    /// Whether the shared buffer is still enabled (as ``DeviceSharing/bufferEnabled(_:)``, without allocating).
    private func bufferEnabled() -> Bool {
        (try? bufferEnable.readInteger()) == 1
    }

    /// Decodes the scans read, the last stamped `readTime` and the others before it: by their own
    /// timestamps' differences when the buffer has them (whatever clock the other process chose, the
    /// differences are the sample spacing; they also give the buffer's true rate to the schedule), else
    /// one sample period apart.
    private func decode(scans: Int, readTime: Int64, into samples: inout [Sample]) {
        guard scans > 0 else { return }
        let base = UnsafeRawBufferPointer(scratch)
        func scan(_ i: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: base[(i * decoder.scanBytes)..<((i + 1) * decoder.scanBytes)])
        }
        let lastStamp = decoder.timestamp(scan(scans - 1))
        if scans >= 2, let last = lastStamp, let first = decoder.timestamp(scan(0)), last > first,
            last &- first < 10_000_000_000
        {
            schedule.setSamplePeriod((last &- first) / Int64(scans - 1))
        }
        for i in 0..<scans {
            let s = scan(i)
            let r = decoder.raw(s)
            var time = readTime &- Int64(scans - 1 - i) &* schedule.samplePeriod
            if let last = lastStamp, let own = decoder.timestamp(s), own <= last, last &- own < 10_000_000_000 {
                time = readTime &- (last &- own)
            }
            samples.append(decoder.converter.sample(x: r.x, y: r.y, z: r.z, timestamp: clock.next(device: nil, fallback: time)))
        }
    }

    /// The scan elements (channel names such as `in_accel_x`, from `scan_elements/*_en`), those enabled
    /// (holding 1), and the enabled ones' channels by name.
    static func scanElements(_ base: String) throws(IIOError) -> (
        names: [String], on: Set<String>, enabled: [String: ScanChannel]
    ) {
        let directory = "\(base)/scan_elements"
        guard let dir = opendir(directory) else {
            throw IIOError.fromErrno(errno, call: "opendir", path: directory)
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix("_en") && names.count < 64 { names.append(String(name.dropLast(3))) }
        }
        closedir(dir)
        var enabled: [String: ScanChannel] = [:]
        var on = Set<String>()
        for name in names {
            guard let text = try Sysfs.read("\(directory)/\(name)_en"), text.hasPrefix("1") else { continue }
            on.insert(name)
            if let channel = try Discovery.scanChannel(base, name) { enabled[name] = channel }
        }
        return (names, on, enabled)
    }
}
