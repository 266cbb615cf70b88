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
            [start, end + 0.5 s] of a labelled interval; each interval counts at most one hit, and \
            every other detection is a false positive. Reports recall, precision, F1, false positives \
            per hour of unlabelled time, and recognition latency from interval start (median, p95), \
            per trace and in total. Progress goes to standard error.

            Examples:
              shakectl evaluate ../shared/traces --all
              shakectl evaluate my-recordings/ --detector shaked --format json
            """
    )

    @Argument(help: "Trace files, or folders whose *.csv files are all evaluated.")
    var paths: [String]

    @Option(name: .customLong("detector"), help: "A detector to score (repeatable). Default: shaked.")
    var detectors: [DetectorKind] = []

    @Flag(help: "Score every detector: shaked and the published baselines.")
    var all = false

    @Option(help: "Sensitivity for the detectors that have levels: low, medium or high.")
    var sensitivity: Sensitivity = .medium

    @Option(help: "Output format: text or json (one object per trace and detector, then totals).")
    var format: OutputFormat = .text

    @Flag(help: "Print only the totals, not every trace.")
    var summary = false

    func validate() throws {
        if all && !detectors.isEmpty { throw ValidationError("Use either --all or --detector, not both.") }
        if paths.isEmpty { throw ValidationError("Give at least one trace file or folder.") }
    }

    func run() async throws {
        let kinds = all ? DetectorKind.allCases : (detectors.isEmpty ? [.shaked] : detectors)
        let files: [String]
        do { files = try Corpus.traceFiles(paths) } catch { throw ValidationError(error.description) }
        var totals = kinds.map { (kind: $0, score: Score()) }
        let table = EvaluationTable(format: format)
        if !summary { table.printHeader() }
        for (index, file) in files.enumerated() {
            printError("[\(index + 1)/\(files.count)] \(file)")
            let run: TraceRun
            do { run = try TraceRun.run(path: file, detectors: kinds, sensitivity: sensitivity) } catch {
                throw ValidationError("\(error.description)\nFix the file, or leave it out of the evaluation.")
            }
            let scores = run.scores()
            for (i, entry) in scores.enumerated() { totals[i].score += entry.score }
            if !summary { table.printTrace(run.name, scores: scores) }
        }
        table.printTotals(totals, traces: files.count)
    }
}

/// Prints evaluation rows as aligned text or JSON lines.
struct EvaluationTable {
    let format: OutputFormat

    private struct Row: Codable {
        var trace: String
        var detector: String
        var total: Bool
        var labelled: Int
        var hits: Int
        var falsePositives: Int
        var recall: Double
        var precision: Double
        var f1: Double
        var falsePositivesPerHour: Double
        var unlabelledHours: Double
        var latencyMedian: Double?
        var latencyP95: Double?
    }

    func printHeader() {
        guard format == .text else { return }
        print(
            pad("trace", 44, left: true) + pad("detector", 10, left: true)
                + " hits/lab   FP  recall  prec.    F1  FP/h  lat50  lat95")
    }

    func printTrace(_ name: String, scores: [(kind: DetectorKind, score: Score)]) {
        for (kind, score) in scores { emit(trace: name, kind: kind, score: score, total: false) }
    }

    func printTotals(_ totals: [(kind: DetectorKind, score: Score)], traces: Int) {
        if format == .text { print(String(repeating: "-", count: 112)) }
        for (kind, score) in totals { emit(trace: "TOTAL (\(traces) traces)", kind: kind, score: score, total: true) }
    }

    private func emit(trace: String, kind: DetectorKind, score: Score, total: Bool) {
        switch format {
        case .json:
            let row = Row(
                trace: total ? "TOTAL" : trace, detector: kind.rawValue, total: total, labelled: score.labelled,
                hits: score.hits, falsePositives: score.falsePositives, recall: rounded(score.recall),
                precision: rounded(score.precision), f1: rounded(score.f1),
                falsePositivesPerHour: rounded(score.falsePositivesPerHour, 2),
                unlabelledHours: rounded(score.unlabelledSeconds / 3600, 4),
                latencyMedian: score.medianLatency.map { rounded($0) }, latencyP95: score.p95Latency.map { rounded($0) }
            )
            print(encodeJSONLine(row))
        case .text:
            let latency = { (v: Double?) in v.map { decimal($0, 3) } ?? "-" }
            print(
                pad(String(trace.prefix(43)), 44, left: true) + pad(kind.rawValue, 10, left: true)
                    + pad("\(score.hits)/\(score.labelled)", 9) + pad("\(score.falsePositives)", 5)
                    + pad(decimal(score.recall, 3), 8) + pad(decimal(score.precision, 3), 7)
                    + pad(decimal(score.f1, 3), 6) + pad(decimal(score.falsePositivesPerHour, 1), 6)
                    + pad(latency(score.medianLatency), 7) + pad(latency(score.p95Latency), 7))
        }
    }
}
