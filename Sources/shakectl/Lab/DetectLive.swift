import ShakeDetection

extension Detect {
    /// `detect --live`: the same detection and output as on a file, fed by the accelerometer.
    ///
    /// Times are seconds from the run's first sample, so a trace replayed through a (fake)
    /// sensor gives the same lines as `detect` on the trace file. Sensor status goes to stderr.
    func runLive() async throws {
        var printer = DetectionPrinter(options: detectorOptions, format: format, phases: phases)
        try await sensor.read(for: duration, doing: "reading") { samples in
            for sample in samples { printer.feed(sample) }
        }
        printer.finish()
    }
}
