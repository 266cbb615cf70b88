import ArgumentParser
import ShakeDetection
import Traces

/// `shakectl detect`: run a detector over a trace and print each shake it recognizes.
struct Detect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a shake detector over a trace file and print every shake it recognizes.",
        discussion: """
            Reads TRACE.csv (header t,x,y,z; t in seconds, x/y/z in m/s² including gravity) as a \
            stream and prints one line per recognized shake. With --format json each line is a JSON \
            object with at least "onset" and "recognized", in seconds on the trace's own t axis.

            Example:
              shakectl detect ../shared/traces/qt_shake_left.csv --format json
            """
    )

    @Argument(help: "The trace to read (t,x,y,z CSV).")
    var trace: String

    @OptionGroup var detectorOptions: DetectorOptions

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func run() async throws {
        var detector = detectorOptions.detector.make(sensitivity: detectorOptions.sensitivity)
        var origin: Int64?
        var count = 0
        var iterator = TraceReader(path: trace).makeIterator()
        do {
            while let sample = try iterator.nextSample() {
                let o = origin ?? sample.timestamp
                origin = o
                if let event = detector.process(sample) {
                    count += 1
                    emit(DetectionRecord(detector: detectorOptions.detector, event: event, origin: o))
                }
            }
        } catch {
            throw ValidationError(error.description)
        }
        if format == .text && count == 0 { print("no shake recognized") }
    }

    private func emit(_ record: DetectionRecord) {
        print(format == .json ? record.jsonLine : record.textLine)
    }
}
