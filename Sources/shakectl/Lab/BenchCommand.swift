import ArgumentParser
import Foundation
import ShakeDetection
import SyntheticMotion
import Traces

/// `shakectl bench`: time and allocation cost per sample of every detector.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure each detector's cost per sample: nanoseconds and heap allocations.",
        discussion: """
            Feeds the same samples (every trace in --traces, or a synthetic mix when that folder is \
            missing) through each detector several times and reports the median and spread of \
            ns per sample, the ratio to shaked, and heap allocations per sample counted by the \
            malloc interposer. The detectors take turns, run by run, so that the machine speeding \
            up or slowing down touches them alike; each ratio is the median of the runs' own \
            ratios (a detector's time over shaked's in the same run). Build in release mode first, \
            or the figures mean little:
              swift build -c release && .build/release/shakectl bench
            This is a benchmark, not a test: the machine's load moves the times, so compare ratios \
            and repeated figures.
            """
    )

    @Option(help: "Folder of traces to feed (every *.csv).")
    var traces = "../shared/traces"

    @Option(help: "Timed runs per detector.")
    var runs = 5

    @Option(help: "Output format: text or json (one object per detector).")
    var format: OutputFormat = .text

    func validate() throws {
        if !(1...100).contains(runs) { throw ValidationError("--runs must be from 1 to 100.") }
    }

    private struct Result: Codable {
        var detector: String
        var nsPerSample: Double
        var nsPerSampleRuns: [Double]
        /// The median of this detector's time over shaked's, run by run.
        var ratioToShaked: Double
        var allocationsPerSample: Double
        var samples: Int
        var build: String
    }

    func run() async throws {
        #if DEBUG
            let build = "debug"
            printError("warning: this is a debug build; use `swift build -c release` for meaningful figures")
        #else
            let build = "release"
        #endif
        if let reason = AllocationCounter.unavailableReason { throw ValidationError(reason) }
        guard Self.allocationCounterWorks() else {
            throw ValidationError(
                "The malloc interposer counted none of 1,000 known allocations, so allocation figures would be "
                    + "meaningless. Run the shakectl binary built by this package (it links libMallocInterposerSwift).")
        }
        let samples = loadSamples()
        printError(
            "benchmarking \(DetectorKind.allCases.count) detectors on \(samples.count) samples, \(runs) runs each")
        // Run by run, every detector in turn.
        let kinds = DetectorKind.allCases
        var times = [[Double]](repeating: [], count: kinds.count)
        for _ in 0..<runs {
            for (i, kind) in kinds.enumerated() { times[i].append(timePerSample(kind.make(), samples)) }
        }
        let shakedIndex = kinds.firstIndex(of: .shaked) ?? 0
        var results: [Result] = []
        for (i, kind) in kinds.enumerated() {
            let ratios = zip(times[i], times[shakedIndex]).map { $0 / $1 }
            results.append(
                Result(
                    detector: kind.rawValue, nsPerSample: rounded(percentile(times[i], 50)!, 2),
                    nsPerSampleRuns: times[i].map { rounded($0, 2) }, ratioToShaked: rounded(percentile(ratios, 50)!, 3),
                    allocationsPerSample: allocationsPerSample(kind.make(), samples), samples: samples.count,
                    build: build))
        }
        for r in results {
            if format == .json {
                print(encodeJSONLine(r))
            } else {
                let spread = "\(decimal(r.nsPerSampleRuns.min()!, 1))-\(decimal(r.nsPerSampleRuns.max()!, 1))"
                print(
                    pad(r.detector, 10, left: true) + pad(decimal(r.nsPerSample, 1), 8) + " ns/sample (runs \(spread), "
                        + "\(decimal(r.ratioToShaked, 2))x shaked)  "
                        + "\(decimal(r.allocationsPerSample, 4)) allocations/sample")
            }
        }
    }

    /// Every trace in the folder, back to back on one clock; a synthetic mix if there is none.
    private func loadSamples() -> [Sample] {
        var all: [Sample] = []
        if let files = try? Corpus.traceFiles([traces]) {
            var offset: Int64 = 0
            for file in files {
                guard let samples = try? TraceReader(path: file).readAll(), let last = samples.last else { continue }
                all += samples.map { Sample(timestamp: $0.timestamp + offset, x: $0.x, y: $0.y, z: $0.z) }
                offset += last.timestamp + 1_000_000_000
            }
        }
        if all.isEmpty {
            printError("no traces in \(traces); using a synthetic mix of rest, walking and shakes")
            all = MotionGenerator.mixedMotion(seconds: 600, rate: 50)
        }
        return all
    }

    /// Nanoseconds per sample for one pass over the samples (generic, so no existential boxing).
    private func timePerSample<D: ShakeDetecting>(_ detector: D, _ samples: [Sample]) -> Double {
        var detector = detector
        var events = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for sample in samples where detector.process(sample) != nil { events += 1 }
        }
        blackHole(events)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(samples.count)
    }

    private func allocationsPerSample<D: ShakeDetecting>(_ detector: D, _ samples: [Sample]) -> Double {
        var detector = detector
        var events = 0
        AllocationCounter.start()
        for sample in samples where detector.process(sample) != nil { events += 1 }
        let counts = AllocationCounter.stop()
        blackHole(events)
        return Double(counts.allocations) / Double(samples.count)
    }
}

extension Bench {
    /// Allocates 1,000 objects under the counter and checks it saw them.
    static func allocationCounterWorks() -> Bool {
        final class Probe {
            var value = 0
        }
        var keep: [Probe] = []
        keep.reserveCapacity(1000)
        AllocationCounter.start()
        for i in 0..<1000 {
            let probe = Probe()
            probe.value = i
            keep.append(probe)
        }
        let counts = AllocationCounter.stop()
        blackHole(keep.count)
        return counts.allocations >= 1000
    }
}

@inline(never)
func blackHole(_ value: Int) {
    if value == -1 { print(value) }
}
