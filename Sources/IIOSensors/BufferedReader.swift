import CIIO
import MonotonicClock
import ShakeDetection

#if canImport(Glibc)
    import Glibc
#endif

/// Reads scans from the device's IIO buffer through libiio (loaded on the first open), woken by the buffer's watermark.
///
/// Setup, in order: timestamps on CLOCK_MONOTONIC when the device lets us choose; the rate
/// (nearest available at or above the wanted one); the device's own trigger when it has a
/// trigger slot; x, y, z and the timestamp enabled, all other scan channels disabled; then a
/// non-blocking libiio buffer of one watermark of scans (libiio writes `buffer/watermark` and
/// `buffer/length` from that count), sized so the poll fd wakes the source about
/// `wakeupsPerSecond` times a second rather than once per sample, in a kernel buffer of
/// ``watermarksHeld`` watermarks. Partial scans (short reads) are kept until the rest arrives.
final class BufferedReader: SampleReader {
    let info: AccelerometerInfo
    let rate: Double
    var mode: ReadingMode { .buffered }
    let pollFD: Int32
    /// Scans per wake-up.
    let watermark: Int
    /// How many watermarks of scans the kernel's buffer holds, and one read takes at most: room for a
    /// reading loop that waits ``ReadingLoop/restingWakeups`` watermarks while the device lies still,
    /// and is then late by as many again, to lose nothing.
    static let watermarksHeld = 8

    private let context: IIOContext
    /// libiio's functions (the context's).
    private let iio: LibIIO
    private var buffer: IIOBuffer?
    private let decoder: ScanDecoder
    private let path: String
    /// Where each read lands: ``watermarksHeld`` watermarks of scans.
    private let scratch: UnsafeMutableRawBufferPointer
    /// Bytes of an incomplete scan left over from the last read.
    private let carry: UnsafeMutableRawBufferPointer
    /// What reads change, at a fixed address: a stored `var` of a class is checked for exclusive access
    /// at every use (a thread-local look-up in the Swift runtime), which from cold caches cost more than
    /// decoding a wake-up's scans.
    private let state: UnsafeMutablePointer<ReadState>

    private struct ReadState {
        /// Bytes in ``carry``.
        var carryCount = 0
        /// Keeps sample times going forward whatever the timestamp channel says.
        var clock: TimestampGuard
    }

    /// Opens the device and starts its buffer. `following` is the source's rotation-service bus name, when
    /// followed (``DeviceSharing/rotationService(following:)``).
    init(
        info: AccelerometerInfo, wantedRate: Double, wakeupsPerSecond: Double, timeoutMilliseconds: UInt32,
        priority: AccelerometerConfiguration.SharingPriority = .rotation, following: RotationServiceFollowing? = nil
    ) throws(IIOError) {
        guard let axes = info.scanChannels, let devnode = info.devnode else {
            throw IIOError(
                .badConfiguration, path: info.syspath,
                "the device has no IIO buffer (no scan_elements or no device node); use polled reading")
        }
        let base = info.syspath
        let rate = info.rate(for: wantedRate)
        let watermark = scansPerWakeup(rate: rate, wakeupsPerSecond: wakeupsPerSecond)
        let decoder = ScanDecoder(
            axes: axes, timestamp: info.timestampChannel,
            converter: SampleConverter(calibration: info.calibration, mountMatrix: info.mountMatrix))

        // An enabled buffer is another process's (this process's readers close theirs before the next
        // opens): iio-sensor-proxy's, which stops rotating the screen if it is taken. With priority
        // "shake", or when it is a crashed reader's, it is disabled, since it blocks every setting below.
        // Writing "0" over "0" changes nothing and finds a missing write permission early, naming the file.
        if priority == .rotation, DeviceSharing.bufferEnabled(info),
            DeviceSharing.holderOfEnabledBuffer(info, following: following) != nil
        {
            throw DeviceSharing.busy(
                info, "its IIO buffer is enabled, and a buffer of shaked's own would take the device from it "
                    + "(Mode=auto in [Sensor] shares it instead)", following: following)
        }
        if Sysfs.exists("\(base)/buffer/enable") { try Sysfs.write("\(base)/buffer/enable", "0") }
        if info.timestampChannel != nil, Sysfs.exists("\(base)/current_timestamp_clock") {
            try? Sysfs.write("\(base)/current_timestamp_clock", "monotonic")
        }
        if let attribute = info.samplingFrequencyAttribute, info.samplingFrequency != rate {
            try Sysfs.write("\(base)/\(attribute)", rateText(rate))
        }

        let context = try IIOContext(timeoutMilliseconds: timeoutMilliseconds)
        let iio = context.iio
        let device = try context.device(info.sysname)
        if info.hasTrigger, let number = info.sysname.split(separator: "device").last,
            let trigger = context.trigger(named: "\(info.name)-dev\(number)")
        {
            _ = try checkNegativeErrno("iio_device_set_trigger", path: "\(base)/trigger/current_trigger") {
                iio.deviceSetTrigger(device, trigger)
            }
        }
        let wanted = ["accel_x", "accel_y", "accel_z"] + (info.timestampChannel != nil ? ["timestamp"] : [])
        for i in 0..<iio.deviceGetChannelsCount(device) {
            guard let channel = iio.deviceGetChannel(device, i), iio.channelIsScanElement(channel) else {
                continue
            }
            let id = iio.channelGetID(channel).map { String(cString: $0) } ?? ""
            if wanted.contains(id) && !iio.channelIsOutput(channel) {
                iio.channelEnable(channel)
            } else {
                iio.channelDisable(channel)
            }
        }
        // libiio writes buffer/watermark = the sample count it is given, and buffer/length as that many
        // times the kernel buffers count (drivers without DMA blocks, as accelerometers are).
        _ = try checkNegativeErrno("iio_device_set_kernel_buffers_count", path: "\(base)/buffer/length") {
            iio.deviceSetKernelBuffersCount(device, UInt32(Self.watermarksHeld))
        }
        let buffer: IIOBuffer
        do throws(IIOError) {
            buffer = try IIOBuffer(iio: iio, device: device, samples: watermark, path: devnode)
        } catch  where error.code == .busy {
            throw DeviceSharing.busy(info, "another process has \(devnode) open", call: error.call, following: following)
        }
        guard buffer.step == decoder.scanBytes else {
            throw IIOError(
                .malformedAttribute, path: "\(base)/scan_elements",
                "libiio lays out \(buffer.step)-byte scans but the scan elements describe \(decoder.scanBytes) bytes; "
                    + "check the *_index and *_type files")
        }
        self.info = info
        self.iio = iio
        self.rate = rate
        self.watermark = watermark
        self.decoder = decoder
        self.path = devnode
        let state = UnsafeMutablePointer<ReadState>.allocate(capacity: 1)
        state.initialize(to: ReadState(clock: TimestampGuard(period: periodNanoseconds(rate))))
        self.state = state
        self.pollFD = buffer.pollFD
        self.carry = UnsafeMutableRawBufferPointer.allocate(byteCount: decoder.scanBytes, alignment: 8)
        self.scratch = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.watermarksHeld * watermark * decoder.scanBytes, alignment: 8)
        self.buffer = consume buffer
        self.context = consume context
        // While the buffer is enabled, drivers that claim direct mode refuse raw reads: a polling
        // iio-sensor-proxy would read zeros and stop rotating the screen. Rotation first: give it back.
        if priority == .rotation, info.hasRawAttributes, let service = DeviceSharing.rotationService(following: following),
            (try? PolledAttribute(path: "\(base)/in_accel_x_raw").readInteger()) == nil
        {
            throw IIOError(
                .busy, path: base, errno: EBUSY,
                "\(service) may poll in_accel_*_raw, which this driver refuses while the buffer is enabled; "
                    + "the buffer is left to rotation (to keep it, set Priority=shake in [Sensor])")
        }
    }

    deinit {
        // The buffer before the context it belongs to: destroying it disables the device's buffer.
        buffer = nil
        carry.deallocate()
        scratch.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    func read(into samples: inout [Sample]) throws(IIOError) -> Int {
        // One read(2) of up to the whole kernel buffer on the buffer's descriptor, which libiio opened
        // non-blocking: a short read means the buffer is drained, so one system call a wake-up
        // instead of libiio's refill, which takes one watermark a call and needs another to find
        // the buffer empty. (Accelerometer buffers are kfifos, read with read(2) even by libiio;
        // its mmap mode is for DMA buffers.)
        guard
            let bytes = try checkErrnoNonBlocking(
                "read", path: path, { Glibc.read(pollFD, scratch.baseAddress, scratch.count) })
        else { return 1 }
        guard bytes > 0 else {
            throw IIOError(.deviceGone, call: "read", path: path, "the device returned no data (end of file)")
        }
        decode(UnsafeRawBufferPointer(rebasing: scratch[0..<bytes]), readTime: monotonicNanoseconds(), into: &samples)
        return 1
    }

    /// Decodes freshly read bytes, completing a partial scan from the last read first.
    private func decode(_ data: UnsafeRawBufferPointer, readTime: Int64, into samples: inout [Sample]) {
        var data = data
        let carried = state.pointee.carryCount
        if carried > 0 {
            let needed = min(decoder.scanBytes - carried, data.count)
            UnsafeMutableRawBufferPointer(rebasing: carry[carried..<(carried + needed)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: data[0..<needed]))
            state.pointee.carryCount = carried + needed
            data = UnsafeRawBufferPointer(rebasing: data[needed...])
            guard carried + needed == decoder.scanBytes else { return }
            let behind = Int64(data.count / decoder.scanBytes) &* state.pointee.clock.period
            _ = decoder.decode(
                UnsafeRawBufferPointer(carry), readTime: readTime &- behind, clock: &state.pointee.clock,
                into: &samples)
            state.pointee.carryCount = 0
        }
        let used = decoder.decode(data, readTime: readTime, clock: &state.pointee.clock, into: &samples)
        let rest = data.count - used
        if rest > 0 {
            UnsafeMutableRawBufferPointer(rebasing: carry[0..<rest])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: data[used...]))
            state.pointee.carryCount = rest
        }
    }
}
