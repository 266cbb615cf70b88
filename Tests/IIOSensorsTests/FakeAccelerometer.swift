import Foundation
import IIOSensors

/// Describes a fake IIO accelerometer in umockdev's text format, with every knob the tests turn.
struct FakeAccelerometer {
    var devpath = "/devices/platform/fake-accel.0/iio:device0"
    var sysname = "iio:device0"
    var name = "fake_accel"
    var label: String? = nil
    /// The scan type of x, y and z.
    var type = "le:s16/16>>0"
    /// Whether the scan has a timestamp channel.
    var timestamp = true
    /// Whether the device has scan elements and a node (buffered reading).
    var buffered = true
    /// Whether the device has `in_accel_*_raw`.
    var rawAttributes = true
    var raw: [Int64] = [100, -200, 16384]
    /// Shared scale, and per-axis scales that override it.
    var scale: String? = "0.000598550"
    var axisScales: [String: String] = [:]
    var offsets: [String: String] = [:]
    var samplingFrequency = "100"
    var available = "12.5 25 50 100 200"
    var trigger = true
    /// udev properties (e.g. `ACCEL_MOUNT_MATRIX`).
    var properties: [String: String] = [:]
    /// Extra sysfs attributes (e.g. `mount_matrix`).
    var attributes: [String: String] = [:]

    /// The same device plugged in again under the next number (`iio:device1`).
    static func replugged(_ fake: FakeAccelerometer) -> FakeAccelerometer {
        var back = fake
        back.devpath = "/devices/platform/fake-accel.1/iio:device1"
        back.sysname = "iio:device1"
        return back
    }

    /// The devnode.
    var devnode: String { "/dev/\(sysname)" }

    /// The umockdev text.
    var text: String {
        var lines = ["P: \(devpath)"]
        if buffered { lines.append("N: \(sysname)") }
        if buffered { lines.append("E: DEVNAME=\(devnode)") }
        lines += ["E: DEVTYPE=iio_device", "E: SUBSYSTEM=iio"]
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) { lines.append("E: \(key)=\(value)") }
        var attrs: [(String, String)] = [
            ("dev", "239:\(sysname.split(separator: "device").last ?? "0")"), ("name", name),
        ]
        if let label { attrs.append(("label", label)) }
        if let scale { attrs.append(("in_accel_scale", scale)) }
        for (axis, value) in axisScales.sorted(by: { $0.key < $1.key }) {
            attrs.append(("in_accel_\(axis)_scale", value))
        }
        for (axis, value) in offsets.sorted(by: { $0.key < $1.key }) {
            attrs.append((axis == "" ? "in_accel_offset" : "in_accel_\(axis)_offset", value))
        }
        attrs += [("sampling_frequency", samplingFrequency), ("sampling_frequency_available", available)]
        if rawAttributes {
            for (i, axis) in ["x", "y", "z"].enumerated() { attrs.append(("in_accel_\(axis)_raw", String(raw[i]))) }
        }
        if buffered {
            attrs += [("buffer/enable", "0"), ("buffer/length", "0"), ("buffer/watermark", "1")]
            for (i, axis) in ["x", "y", "z"].enumerated() {
                attrs += [
                    ("scan_elements/in_accel_\(axis)_en", "0"), ("scan_elements/in_accel_\(axis)_index", String(i)),
                    ("scan_elements/in_accel_\(axis)_type", type),
                ]
            }
            if timestamp {
                attrs += [
                    ("scan_elements/in_timestamp_en", "0"), ("scan_elements/in_timestamp_index", "3"),
                    ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
                ]
            }
            if trigger { attrs.append(("trigger/current_trigger", "")) }
        }
        attrs += attributes.sorted(by: { $0.key < $1.key })
        for (key, value) in attrs { lines.append("A: \(key)=\(escape(value))\\n") }
        var text = lines.joined(separator: "\n") + "\n"
        if buffered && trigger {
            let parent = devpath.split(separator: "/").dropLast().joined(separator: "/")
            let number = sysname.split(separator: "device").last ?? "0"
            text += "\nP: /\(parent)/trigger\(number)\nE: SUBSYSTEM=iio\nA: name=\(name)-dev\(number)\\n\n"
        }
        return text
    }

    /// The decoder the device's scans follow (for encoding test data).
    var decoder: ScanDecoder {
        let format = ChannelFormat(parsing: type)!
        return ScanDecoder(
            axes: (0..<3).map { ScanChannel(index: $0, format: format) },
            timestamp: timestamp ? ScanChannel(index: 3, format: ChannelFormat(parsing: "le:s64/64>>0")!) : nil,
            converter: SampleConverter(
                calibration: Array(repeating: AxisCalibration(scale: 1), count: 3), mountMatrix: .identity))
    }

    /// Encodes scans of raw x, y, z (and timestamps) as the device's buffer would hold them.
    func encode(_ scans: [RawScan]) -> [UInt8] {
        let decoder = self.decoder
        var bytes = [UInt8](repeating: 0, count: scans.count * decoder.scanBytes)
        bytes.withUnsafeMutableBytes { all in
            for (i, scan) in scans.enumerated() {
                let slice = UnsafeMutableRawBufferPointer(
                    rebasing: all[(i * decoder.scanBytes)..<((i + 1) * decoder.scanBytes)])
                decoder.encode(x: scan.x, y: scan.y, z: scan.z, timestamp: scan.t, into: slice)
            }
        }
        return bytes
    }
}

/// Escapes a value for umockdev's text format (backslashes and line ends).
private func escape(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
}

/// One scan's raw values and timestamp.
struct RawScan {
    var x: Int64
    var y: Int64
    var z: Int64
    var t: Int64
}

/// `count` distinct scans, 10 ms apart, starting at 1 s.
func rampScans(_ count: Int, z: Int64 = 16384) -> [RawScan] {
    (0..<count).map { i -> RawScan in
        let n = Int64(i)
        return RawScan(x: n, y: -100 * n, z: z + n, t: 1_000_000_000 + n * 10_000_000)
    }
}
