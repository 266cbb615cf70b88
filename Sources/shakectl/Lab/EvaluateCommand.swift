import ArgumentParser
import ShakeDetection
import Traces

/// `shakectl evaluate`: score detectors against labelled traces, side by side.
struct Evaluate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score shake detectors against labelled traces, side by side.",
        discussion: """
            Each trace NAME.csv needs its NAME.labels (one "start end" line per shake, in seconds; \
            an empty file means no shake). A detection is a hit when its recognition time falls in \
            [start, end + 1 s] of a labelled interval (the answer comes when the hand stops); each \
            interval counts at most one hit, and every other detection is a false positive. Reports \
            recall, precision, F1, false positives per hour of unlabelled time, and the latency of the \
            hits (median, p95) from the interval's start (lat50, lat95) and from its end (end50, \
            end95), per trace and in total. Progress goes to standard error.

            Where a trace has a NAME.events file (one "start end CLASS" line per saved clip, shakes \
            included; CLASS is the rest of the line, e.g. "10.846 12.276 Backhand Tennis"), its Shake \
            clips must be the labelled intervals, and scoring follows the clips: a hit may come up to \
            1 s before a labelled start ([start - 1 s, end + 1 s]; its latency is then negative); a \
            detection in a clip of another class, or within 1 s after it, is a false positive of \
            that class; a detection in no clip is reported apart, in the "between" column, and is not \
            a false positive, since what the person did between clips is not known. FP/h then counts \
            only the time in clips that are not shakes. After the totals, a table gives the false \
            positives of each detector by gesture group (swings and throws, rest, mid-air letters, \
            custom, other classes, a shake detected again) against the clips of each; JSON rows carry \
            them by group and by class.

            A folder's own traces are one set, and each folder below it that holds traces is another: \
            `shakectl evaluate ../shared/traces --all --summary` scores the corpus, other-hands, \
            many-hands and everyday-ku-har each on its own row, every detector beside the others, then \
            all of them together. A trace that cannot be read (file:line: what is wrong) is named on \
            standard error as it is met and again after the totals, and left out of the scores; the \
            run fails only when no trace could be read.

            Examples:
              shakectl evaluate ../shared/traces --all
              shakectl evaluate my-recordings/ --detector shaked --format json
            """
    )

    @Argument(help: "Trace files, or folders whose *.csv files, and their subfolders', are all evaluated, a set per folder.")
    var paths: [String]

    @Option(name: .customLong("detector"), help: "A detector to score (repeatable). Default: shaked.")
    var detectors: [DetectorKind] = []

    @Flag(help: "Score every detector: shaked and the published baselines.")
    var all = false

    @Option(help: "Sensitivity for the detectors that have levels: low, medium or high.")
    var sensitivity: Sensitivity = .medium

    @Option(
        name: .customLong("without"),
        help: ArgumentHelp(
            "Turn one of shaked's rules off (repeatable), to measure what it buys on every set: \(ShakeRule.allCases.map(\.key).joined(separator: ", ")).",
            valueName: "rule"))
    var without: [ShakeRule] = []

    @Option(help: "Output format: text or json (one object per trace and detector, then totals).")
    var format: OutputFormat = .text

    @Flag(help: "Print only the totals, not every trace.")
    var summary = false

    @Option(
        help: ArgumentHelp(
            "Emulate a sensor polled at the trace's rate that slows to this rate (Hz) while the device lies still.",
            discussion: """
                A detector at rest (shaked's, after a second below its calm level) is then fed one sample \
                per 1/RATE s until it moves again; the baselines never are. For judging what slower polling \
                at rest would cost in hits, false positives and latency (docs/sensors.md).
                """))
    var restingRate: Double?

    @Flag(
        help: ArgumentHelp(
            "Also score shaked learning from the answers, each trace from a fresh profile, on rows named \"learned\".",
            discussion: """
                Each prompt is answered as --answers says (from the labels by default: Undo when it came in a \
                labelled shake or up to 1 s after its end, Cancel otherwise), and the detector takes what it \
                learned after each answer (docs/detector.md, "Learning from answers").
                """))
    var learn = false

    @Option(help: "With --learn: how each prompt is answered: labels, undo (every prompt) or cancel (every prompt).")
    var answers: ReplayAnswers = .labels

    @OptionGroup var stream: StreamOptions

    func validate() throws {
        if let restingRate, !(restingRate.isFinite && restingRate > 0 && restingRate <= 1000) {
            throw ValidationError("--resting-rate must be a rate in Hz above 0 and at most 1000, such as 10.")
        }
        if all && !detectors.isEmpty { throw ValidationError("Use either --all or --detector, not both.") }
        if paths.isEmpty { throw ValidationError("Give at least one trace file or folder.") }
        if answers != .labels && !learn { throw ValidationError("--answers goes with --learn.") }
        if learn && (restingRate != nil || !without.isEmpty || sensitivity != .medium) {
            throw ValidationError(
                "--learn starts from the medium preset with every rule: leave out --resting-rate, --without and --sensitivity.")
        }
    }

    func run() async throws {
        let kinds = all ? DetectorKind.allCases : (detectors.isEmpty ? [.shaked] : detectors)
        let sets: [TraceSet]
        do { sets = try Corpus.traceSets(paths) } catch { throw ValidationError(error.description) }
        let count = sets.reduce(0) { $0 + $1.files.count }
        let names = kinds.map(\.rawValue) + (learn ? ["learned"] : [])
        var totals = names.map { (name: $0, score: Score()) }
        var setTotals: [(set: TraceSet, read: Int, totals: [(name: String, score: Score)])] = []
        var leftOut: [String] = []
        let table = EvaluationTable(
            format: format, events: sets.contains { $0.files.contains { Events.exist(forTrace: $0) } })
        if !summary || table.events { table.printHeader() }
        var index = 0
        for set in sets {
            var setTotal = names.map { (name: $0, score: Score()) }
            var read = 0
            for file in set.files {
                index += 1
                printError("[\(index)/\(count)] \(file)")
                let run: TraceRun
                var learned: TraceRun?
                do {
                    run = try TraceRun.run(
                        path: file, detectors: kinds, sensitivity: sensitivity, without: without, restingRate: restingRate,
                        stream: stream.stream)
                    if learn { learned = try run.learning(path: file, answers: answers, stream: stream.stream) }
                } catch {
                    printError("left out: \(error.description)")
                    leftOut.append(error.description)
                    continue
                }
                read += 1
                let scores =
                    run.scores().map { (name: $0.kind.rawValue, score: $0.score) }
                    + (learned?.scores().map { (name: "learned", score: $0.score) } ?? [])
                for (i, entry) in scores.enumerated() {
                    totals[i].score += entry.score
                    setTotal[i].score += entry.score
                }
                if !summary { table.printTrace(run.name, scores: scores) }
            }
            setTotals.append((set, read, setTotal))
        }
        guard count > leftOut.count else {
            throw ValidationError(
                "No trace could be read:\n" + leftOut.joined(separator: "\n")
                    + "\nFix the files, or leave them out of the evaluation.")
        }
        if sets.count == 1 {
            table.printTotals(totals, label: "TOTAL (\(traceCount(count - leftOut.count, of: count)))")
        } else {
            for entry in setTotals {
                table.printTotals(
                    entry.totals, label: "\(entry.set.name) (\(traceCount(entry.read, of: entry.set.files.count)))",
                    set: entry.set.name)
            }
            table.printTotals(
                totals, label: "all \(sets.count) sets (\(traceCount(count - leftOut.count, of: count)))",
                groups: false)
        }
        table.printLeftOut(leftOut)
    }

    private func traceCount(_ read: Int, of count: Int) -> String {
        read == count ? "\(count) traces" : "\(read) of \(count) traces"
    }
}
