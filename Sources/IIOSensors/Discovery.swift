/// Finds accelerometers: enumerates the `iio` subsystem with libudev and reads each device's sysfs.
///
/// An accelerometer is an IIO device with `in_accel_x`, `in_accel_y` and `in_accel_z` channels,
/// as raw attributes (`in_accel_x_raw`), scan elements (`scan_elements/in_accel_x_en`), or both.
public enum Discovery {
    /// One accelerometer as inspected: everything about it, or why it cannot be used.
    public typealias Inspection = Result<AccelerometerInfo, IIOError>

    /// Every accelerometer present, each inspected or with the error that stopped its inspection.
    public static func all(mountMatrixOverride: MountMatrix? = nil) throws(IIOError) -> [Inspection] {
        let udev = try UdevContext()
        var found: [Inspection] = []
        for device in try udev.iioDevices() where looksLikeAccelerometer(device.syspath) {
            do {
                found.append(.success(try inspect(device, mountMatrixOverride: mountMatrixOverride)))
            } catch {
                found.append(.failure(error))
            }
        }
        return found
    }

    /// The accelerometer `selector` names (name, label, sysfs path, sysfs name or node), or the first one.
    ///
    /// Throws ``IIOError/Code/noAccelerometer`` when there is none, and the inspection's error
    /// (permission, malformed attribute) when the chosen device cannot be used.
    public static func find(_ selector: String? = nil, mountMatrixOverride: MountMatrix? = nil) throws(IIOError)
        -> AccelerometerInfo
    {
        let udev = try UdevContext()
        var firstError: IIOError?
        for device in try udev.iioDevices() where looksLikeAccelerometer(device.syspath) {
            do {
                let info = try inspect(device, mountMatrixOverride: mountMatrixOverride)
                if let selector, !info.matches(selector) { continue }
                return info
            } catch {
                // A device that cannot be used is reported when it is the one asked for; with no
                // selector, only when no other accelerometer works.
                guard let selector else {
                    firstError = firstError ?? error
                    continue
                }
                let named = [device.syspath, device.sysname, device.devnode, Sysfs.readName(device.syspath)]
                if named.contains(selector) { throw error }
            }
        }
        if let firstError { throw firstError }
        let which = selector.map { "matching \"\($0)\" " } ?? ""
        throw IIOError(
            .noAccelerometer,
            "no IIO accelerometer \(which)was found (no device under /sys/bus/iio/devices has in_accel_x, y and z "
                + "channels); check the driver is loaded, or name the device by name, label or sysfs path")
    }

    /// Whether the device has x, y and z acceleration channels, raw or buffered (checked without reading).
    static func looksLikeAccelerometer(_ syspath: String) -> Bool {
        let raw = ["x", "y", "z"].allSatisfy { Sysfs.exists("\(syspath)/in_accel_\($0)_raw") }
        let scan = ["x", "y", "z"].allSatisfy { Sysfs.exists("\(syspath)/scan_elements/in_accel_\($0)_en") }
        return raw || scan
    }

    /// Reads and checks everything about one accelerometer.
    static func inspect(_ device: UdevDeviceInfo, mountMatrixOverride: MountMatrix?) throws(IIOError)
        -> AccelerometerInfo
    {
        let base = device.syspath
        func attribute(_ name: String) throws(IIOError) -> String? {
            try Sysfs.read("\(base)/\(name)").map { String($0.trimmingWhitespace()) }
        }
        let name = try attribute("name").map(printable) ?? device.sysname
        let label = try attribute("label").flatMap { $0.isEmpty ? nil : printable($0) }
        let hasRaw = ["x", "y", "z"].allSatisfy { Sysfs.exists("\(base)/in_accel_\($0)_raw") }

        var calibration: [AxisCalibration] = []
        for axis in ["x", "y", "z"] {
            // The axis's own attribute first, then the one its driver shares among the axes.
            let scale =
                try firstAttribute(
                    base, ["in_accel_\(axis)_scale", "in_accel_scale"],
                    expected: "a positive decimal number of at most 1000 (m/s² per unit)", parseScale)?.value ?? 1
            let offset =
                try firstAttribute(
                    base, ["in_accel_\(axis)_offset", "in_accel_offset"],
                    expected: "a decimal number within ±2³² (raw units)", parseOffset)?.value ?? 0
            calibration.append(AxisCalibration(scale: scale, offset: offset))
        }

        var scanChannels: [ScanChannel]? = nil
        var timestamp: ScanChannel? = nil
        if ["x", "y", "z"].allSatisfy({ Sysfs.exists("\(base)/scan_elements/in_accel_\($0)_en") }) {
            var channels: [ScanChannel] = []
            for axis in ["x", "y", "z"] {
                guard let channel = try scanChannel(base, "in_accel_\(axis)") else {
                    throw IIOError(
                        .malformedAttribute, path: "\(base)/scan_elements/in_accel_\(axis)_type",
                        "the scan element has no type or index file; check the driver")
                }
                channels.append(channel)
            }
            scanChannels = channels
            if Sysfs.exists("\(base)/scan_elements/in_timestamp_en") {
                timestamp = try scanChannel(base, "in_timestamp")
            }
        }

        let (matrix, source) = try mountMatrix(device, override: mountMatrixOverride)

        var frequencyAttribute: String? = nil
        var frequency: Double? = nil
        for file in ["sampling_frequency", "in_accel_sampling_frequency"] {
            guard let text = try attribute(file) else { continue }
            guard let value = parseRate(text) else {
                throw IIOError.malformed("\(base)/\(file)", text, expected: "a rate in Hz from 0.001 to 100000")
            }
            frequencyAttribute = file
            frequency = value
            break
        }
        var available: AvailableRates? = nil
        for file in ["sampling_frequency_available", "in_accel_sampling_frequency_available"] {
            guard let text = try attribute(file) else { continue }
            guard let rates = AvailableRates(parsing: text) else {
                throw IIOError.malformed(
                    "\(base)/\(file)", text,
                    expected: "at most \(maximumRateCount) rates in Hz from 0.001 to 100000, separated by spaces, "
                        + "or [min step max]")
            }
            available = rates
            break
        }

        return AccelerometerInfo(
            name: name, label: label, syspath: base, sysname: device.sysname, devnode: device.devnode,
            scanChannels: scanChannels, timestampChannel: timestamp, hasRawAttributes: hasRaw,
            calibration: calibration, mountMatrix: matrix, mountMatrixSource: source,
            samplingFrequency: frequency, availableRates: available, samplingFrequencyAttribute: frequencyAttribute,
            hasTrigger: Sysfs.exists("\(base)/trigger/current_trigger"))
    }

    /// Reads a scan element's index and type; nil if it has neither file.
    static func scanChannel(_ base: String, _ channel: String) throws(IIOError) -> ScanChannel? {
        let typePath = "\(base)/scan_elements/\(channel)_type"
        let indexPath = "\(base)/scan_elements/\(channel)_index"
        guard let typeText = try Sysfs.read(typePath), let indexText = try Sysfs.read(indexPath) else { return nil }
        guard let format = ChannelFormat(parsing: typeText) else {
            throw IIOError.malformed(typePath, typeText, expected: "a type such as le:s16/16>>0")
        }
        guard let index = parseRaw(indexText), index >= 0, index < 4096 else {
            throw IIOError.malformed(indexPath, indexText, expected: "a scan index")
        }
        return ScanChannel(index: Int(index), format: format)
    }

    /// The mount matrix, looked up as iio-sensor-proxy does, and where it came from.
    static func mountMatrix(_ device: UdevDeviceInfo, override: MountMatrix?) throws(IIOError)
        -> (MountMatrix, String)
    {
        if let override { return (override, "configuration") }
        if let text = device.mountMatrixProperty {
            guard let matrix = MountMatrix(parsing: text) else {
                throw IIOError.malformed(
                    "udev property ACCEL_MOUNT_MATRIX of \(device.syspath)", text,
                    expected: "\"x1, y1, z1; x2, y2, z2; x3, y3, z3\" with no all-zero row")
            }
            return (matrix, "ACCEL_MOUNT_MATRIX")
        }
        let found = try firstAttribute(
            device.syspath, ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"],
            expected: "\"x1, y1, z1; x2, y2, z2; x3, y3, z3\" with no all-zero row"
        ) { MountMatrix(parsing: $0) }
        return found ?? (.identity, "identity")
    }

    /// The first of `files` in the device's directory `base` that exists, parsed, with its name; nil when none
    /// does. One that exists but does not parse is an error naming it and what was `expected`.
    static func firstAttribute<T>(
        _ base: String, _ files: [String], expected: String, _ parse: (String) -> T?
    ) throws(IIOError) -> (value: T, file: String)? {
        for file in files {
            let path = "\(base)/\(file)"
            guard let text = try Sysfs.read(path).map({ String($0.trimmingWhitespace()) }) else { continue }
            guard let value = parse(text) else { throw IIOError.malformed(path, text, expected: expected) }
            return (value, file)
        }
        return nil
    }
}

/// Device text fit for logs and terminals: control and format characters (bidi overrides among
/// them) become `?`, and at most 64 characters are kept.
func printable(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(64) {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            result.unicodeScalars.append("?")
        default:
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

extension Sysfs {
    /// The `name` attribute, or nil if it cannot be read.
    static func readName(_ syspath: String) -> String? {
        (try? read("\(syspath)/name")).flatMap { $0.map { printable(String($0.trimmingWhitespace())) } }
    }
}
