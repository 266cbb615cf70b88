import ArgumentParser
import IIOSensors

/// `shakectl sensors`: list the accelerometers shaked can read, and how it would read them.
struct Sensors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the accelerometers on this machine and how shaked would read them.",
        discussion: """
            Enumerates IIO devices through udev and shows each one that has in_accel_x, y and z \
            channels: its name, sysfs path, device node, reading mode (buffered through \
            /dev/iio:deviceN when it has scan elements, else polled through in_accel_*_raw), the \
            rate that would be used for --rate, the scale and offset per axis, and the mount matrix \
            with where it came from (the udev property ACCEL_MOUNT_MATRIX, a sysfs file, or the \
            identity). A sensor whose attributes cannot be read or parsed is listed with the error \
            and what to do about it. Exits with status 1 when there is no accelerometer.

            With --format json, prints one JSON object per sensor per line, with the keys name, \
            label, path, sysname, device, mode, rate, currentRate, scale, offset, mountMatrix (3×3), \
            mountMatrixSource and timestamp; or path, code and error for a sensor that cannot be used.
            """
    )

    @Option(help: "Output format: text or json (one object per sensor per line).")
    var format: OutputFormat = .text

    @Option(help: "The rate to plan for, in Hz (the shown rate is the nearest available at or above it).")
    var rate: Double = 100

    private struct Entry: Codable {
        var name: String
        var label: String?
        var path: String
        var sysname: String
        var device: String?
        var mode: String
        var rate: Double
        var currentRate: Double?
        var scale: [Double]
        var offset: [Double]
        var mountMatrix: [[Double]]
        var mountMatrixSource: String
        var timestamp: Bool
    }

    private struct Failure: Codable {
        var path: String?
        var code: String
        var error: String
    }

    func run() async throws {
        let found = try Discovery.all()
        if found.isEmpty {
            throw IIOError(
                .noAccelerometer,
                "no IIO accelerometer found (no device under /sys/bus/iio/devices has in_accel_x, y and z channels)")
        }
        for result in found {
            switch result {
            case .success(let info):
                let entry = Entry(
                    name: info.name, label: info.label, path: info.syspath, sysname: info.sysname, device: info.devnode,
                    mode: info.preferredMode.rawValue, rate: info.rate(for: rate), currentRate: info.samplingFrequency,
                    scale: info.calibration.map(\.scale), offset: info.calibration.map(\.offset),
                    mountMatrix: info.mountMatrix.rows, mountMatrixSource: info.mountMatrixSource,
                    timestamp: info.timestampChannel != nil)
                print(format == .json ? encodeJSONLine(entry) : text(entry))
            case .failure(let error):
                if format == .json {
                    print(
                        encodeJSONLine(Failure(path: error.path, code: error.code.rawValue, error: error.description)))
                } else {
                    print("unusable accelerometer: \(error)\n")
                }
            }
        }
    }

    private func text(_ entry: Entry) -> String {
        let axes = zip(["x", "y", "z"], zip(entry.scale, entry.offset)).map { axis, calibration in
            "\(axis) \(calibration.0)" + (calibration.1 != 0 ? " (offset \(calibration.1))" : "")
        }
        let matrix = MountMatrix(rows: entry.mountMatrix)?.description ?? "?"
        return """
            \(entry.name)\(entry.label.map { " (\($0))" } ?? "")
              path:         \(entry.path)
              device:       \(entry.device ?? "none")
              mode:         \(entry.mode)\(entry.timestamp ? ", with timestamps" : "")
              rate:         \(hertz(entry.rate)) Hz\(entry.currentRate.map { " (now \(hertz($0)) Hz)" } ?? "")
              scale:        \(axes.joined(separator: ", ")) m/s² per unit
              mount matrix: \(matrix) (\(entry.mountMatrixSource))

            """
    }

    /// `100`, or `12.5`.
    private func hertz(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
