import ArgumentParser
import ShakeDetection
import ShakeLearning
import Traces

/// `shakectl detect`: run a detector over a trace and print each shake it recognizes.
struct Detect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a shake detector over a trace file and print every shake it recognizes.",
        discussion: """
            Reads TRACE.csv (header t,x,y,z; t in seconds, x/y/z in m/s² including gravity) as a \
            stream and prints one line per recognized shake: a shake is recognized when the hand \
            stops, and "began" says when its strokes first looked like one. With --phases it also \
            prints each shake as it begins, each that is dropped (the motion kept going, as a \
            body's does) with the reason, and each near miss: a chain of strokes that came close to a \
            shake, with the one rule that stopped it (such as "rhythm", "unlike strokes", "strides" \
            or "the body's rhythm"). With --format json each line is a JSON object with at \
            least "phase" (ended, began, dropped or nearMiss), "onset", "began" and "time" (when this phase \
            came; for an ended shake also "ended", the same), in seconds on the trace's own t axis.

            Example:
              shakectl detect ../shared/traces/qt_shake_left.csv --format json
              shakectl detect --live --device fake_accel --duration 30 --format json
            """
    )

    @Argument(help: "The trace to read (t,x,y,z CSV); omit it with --live.")
    var trace: String?

    @OptionGroup var detectorOptions: DetectorOptions

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(help: "Also print each shake as it begins, each that is dropped and why, and each near miss with its rule.")
    var phases = false

    @Option(
        help: ArgumentHelp(
            "Learn from the answers to each prompt, starting from the profile in this file (none: from nothing), and write it back.",
            valueName: "profile"))
    var learn: String?

    @Option(help: "With --learn: how each prompt is answered: labels (from TRACE.labels), undo or cancel (every prompt).")
    var answers: ReplayAnswers = .labels

    @Flag(help: "Read the live accelerometer instead of a trace; times are then seconds from the run's first sample.")
    var live = false

    @Option(help: "With --live: how long to run, in seconds (default: until Ctrl-C).")
    var duration: Double?

    @OptionGroup(title: "Live sensor (with --live)") var sensor: SensorOptions

    func validate() throws {
        if live == (trace != nil) { throw ValidationError("Give either a trace file or --live.") }
        if !live && (duration != nil || sensor.device != nil) {
            throw ValidationError("--device and --duration go with --live.")
        }
        if learn != nil && (live || detectorOptions.detector != .shaked || !detectorOptions.without.isEmpty) {
            throw ValidationError("--learn replays a trace through shaked's own detector, with every rule.")
        }
        if learn == nil && answers != .labels { throw ValidationError("--answers goes with --learn.") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds.") }
    }

    func run() async throws {
        if live { return try await runLive() }
        if let learn { return try runLearning(profile: ProfileFile(path: learn)) }
        var printer = DetectionPrinter(options: detectorOptions, format: format, phases: phases)
        var iterator = TraceReader(path: trace ?? "").makeIterator()
        do {
            while let sample = try iterator.nextSample() { printer.feed(sample) }
        } catch {
            throw ValidationError(error.description)
        }
        printer.finish()
    }
}

extension Detect {
    /// `--learn`: replays the trace while learning from each answer, prints the prompts with their answers,
    /// and writes the profile back.
    private func runLearning(profile file: ProfileFile) throws {
        let path = trace ?? ""
        let replay: LearningReplay
        let origin: Int64
        do {
            var first = TraceReader(path: path).makeIterator()
            origin = try first.nextSample()?.timestamp ?? 0
            let labels = answers == .labels ? try TraceRun.run(path: path, detectors: []).labels : []
            replay = try LearningReplay.run(path: path, labels: labels, profile: file.load(), answers: answers)
        } catch {
            throw ValidationError(error.description)
        }
        var count = 0
        for (phase, answer) in replay.phases {
            if case .ended = phase { count += 1 } else if !phases { continue }
            var record = DetectionRecord(detector: .shaked, phase: phase, origin: origin)
            record.answer = answer?.rawValue
            print(format == .json ? record.jsonLine : record.textLine + (answer.map { ": answered \($0.rawValue)" } ?? ""))
        }
        if format == .text {
            if count == 0 { print("no shake recognized") }
            print("learned: \(replay.profile.summary)")
        }
        do { try file.save(replay.profile) } catch {
            throw ValidationError("could not write \(file.path): \(error.localizedDescription)")
        }
    }
}
