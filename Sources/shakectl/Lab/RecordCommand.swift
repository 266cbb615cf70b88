import ArgumentParser
import MonotonicClock
import ShakeDetection
import Traces

/// `shakectl record`: record the live accelerometer into a trace file.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the accelerometer into a trace file (t,x,y,z CSV).",
        discussion: """
            Reads the accelerometer (buffered through the IIO buffer when it has one, else polled) \
            and writes every sample to the trace file, with t in seconds from the first sample and \
            x, y, z in m/s² in the device's frame (mount matrix applied). Progress goes to standard \
            error. Stops after --duration seconds, or on Ctrl-C. If the sensor goes away meanwhile, \
            recording pauses and resumes when it comes back.

            Example:
              shakectl record -o shake.csv --duration 10
            """
    )

    @Option(name: .shortAndLong, help: "The trace file to write (replaced if it exists).")
    var output: String

    @Option(help: "How long to record, in seconds (default: until Ctrl-C).")
    var duration: Double?

    @OptionGroup var sensor: SensorOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds.") }
    }

    func run() async throws {
        let writer = try TraceWriter(path: output)
        var lastReport = 0
        var first: Int64?
        var last: Int64 = 0
        do {
            try await sensor.read(for: duration, doing: "recording from") { samples in
                for sample in samples { try writer.write(sample) }
                first = first ?? samples.first?.timestamp
                last = samples.last?.timestamp ?? last
                if writer.count - lastReport >= 100 {
                    lastReport = writer.count
                    printError("\(writer.count) samples, \(seconds(last - (first ?? last))) s")
                }
            }
        } catch {
            try? writer.close()
            throw error
        }
        try writer.close()
        printError("wrote \(writer.count) samples (\(seconds(last - (first ?? last))) s) to \(output)")
    }

    private func seconds(_ nanoseconds: Int64) -> String { decimal(Duration.nanoseconds(nanoseconds).inSeconds, 1) }
}
