import ArgumentParser
import Foundation
import ShakeDetection
import Traces

/// `shakectl plot`: draw a trace with its labels and every detector's detections.
struct Plot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a trace as an SVG: x, y, z and |a|, labelled shakes shaded, detections marked.",
        discussion: """
            Runs every detector (shaked and the baselines) over the trace and marks each detection on \
            its own row under the plot, with a dashed line through the signal. Labelled intervals from \
            NAME.labels are shaded when the file exists. Open the SVG in any browser.

            Example:
              shakectl plot ../shared/traces/spliced_dev_04_pebble_run_200.csv -o run.svg
            """
    )

    @Argument(help: "The trace to draw (t,x,y,z CSV).")
    var trace: String

    @Option(name: .shortAndLong, help: "Where to write the SVG.")
    var output: String

    @Option(help: "Sensitivity for the detectors that have levels.")
    var sensitivity: Sensitivity = .medium

    @Option(help: "Width of the picture in pixels.")
    var width: Int = 1400

    func validate() throws {
        if !(400...20000).contains(width) { throw ValidationError("--width must be from 400 to 20000 pixels.") }
    }

    func run() async throws {
        let hasLabels = FileManager.default.fileExists(atPath: Labels.path(forTrace: trace))
        let run: TraceRun
        let samples: [Sample]
        do {
            run = try TraceRun.run(
                path: trace, detectors: DetectorKind.allCases, sensitivity: sensitivity, needLabels: hasLabels)
            samples = try TraceReader(path: trace).readAll()
        } catch {
            throw ValidationError(error.description)
        }
        let svg = TracePlot(run: run, samples: samples, width: Double(width)).render()
        do { try svg.write(toFile: output, atomically: true, encoding: .utf8) } catch {
            throw ValidationError(
                "\(output): cannot write the SVG (\(error.localizedDescription)); check the folder exists and is writable."
            )
        }
        let counts = run.events.map { "\($0.kind.rawValue) \($0.events.count)" }.joined(separator: ", ")
        printError("wrote \(output): \(samples.count) samples; detections: \(counts)")
    }
}
