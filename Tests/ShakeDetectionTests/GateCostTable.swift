import Foundation
import ShakeDetection
import SyntheticMotion
import TestSupport
import Testing
import Traces

/// What each body-motion gate costs and buys, as docs/detector.md reports it.
/// A measurement, not a test: it asserts nothing and runs only when asked. A debug build takes
/// over ten minutes, so build it optimized, in its own folder (the tests need DEBUG hooks, so
/// `-c release` does not build them); about 30 s once built:
///
///     SHAKED_GATE_TABLE=1 swift test --scratch-path .build-opt -Xswiftc -O --filter GateCostTable
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHAKED_GATE_TABLE"] != nil))
struct GateCostTable {
    /// The detector as shipped, and with one gate turned off or set another way.
    static let variants: [(name: String, configuration: ShakeDetectorConfiguration)] = {
        var noTurn = ShakeDetectorConfiguration()
        noTurn.fallTurn = -1  // a cosine is never below -1
        var table: [(String, ShakeDetectorConfiguration)] = [("without the turn gate", noTurn), ("shipped (fallTurn 0.4, 66°)", .init())]
        for cosine in [0.5, 0.6] {
            var c = ShakeDetectorConfiguration()
            c.fallTurn = cosine
            table.append(("fallTurn \(cosine) (\(Int((acos(cosine) * 180 / .pi).rounded()))°)", c))
        }
        return table
    }()

    static let seeds: [UInt64] = [2026, 1, 2, 3, 4]

    @Test func table() throws {
        print("| detector | corpus hits, FP, median latency | spliced 210, ±4 g @ 50 Hz: hits, median | spliced 210, ±2 g @ 50 / 25 / 100 Hz: hits | synthetic falls, 60 people × 3 sensitivities: events |")
        print("|---|---|---|---|---|")
        for (name, configuration) in Self.variants {
            var corpus = Score()
            for path in TestPaths.allTraces() {
                let labels = try Labels.read(path: Labels.path(forTrace: path))
                let samples = try TraceReader(path: path).readAll()
                guard let origin = samples.first?.timestamp, let last = samples.last?.timestamp else { continue }
                let times = detect(samples, with: ShakeDetector(configuration: configuration)).map {
                    Double($0.endedAt - origin) / 1e9
                }
                corpus += Score.match(detections: times, labels: labels, duration: Double(last - origin) / 1e9)
            }
            var spliced: [(hits: Int, latencies: [Double])] = []
            for (range, rate) in [(39.24, 50.0), (2 * standardGravity, 50), (2 * standardGravity, 25), (2 * standardGravity, 100)] {
                var hits = 0
                var latencies: [Double] = []
                for seed in Self.seeds {
                    let run = try SplicedVariationTests.run(
                        seed: seed, trials: 42, range: range, rate: rate, configuration: configuration)
                    hits += run.hits
                    latencies += run.latencies
                }
                spliced.append((hits, latencies))
            }
            var falls = 0
            for seed in UInt64(1)...60 {
                let motion = EverydayMotion(.fallOntoSide, seed: seed)
                let samples = motion.samples(seconds: (motion.impactTime ?? 4) + 4)
                for sensitivity in Sensitivity.allCases {
                    var c = ShakeDetectorConfiguration(sensitivity: sensitivity)
                    c.fallTurn = configuration.fallTurn
                    falls += detect(samples, with: ShakeDetector(configuration: c)).count
                }
            }
            let median = { (l: [Double]) in String(format: "%.3f s", percentile(l, 50) ?? .nan) }
            print(
                "| \(name) | \(corpus.hits)/\(corpus.labelled), \(corpus.falsePositives), \(median(corpus.latencies)) | \(spliced[0].hits), \(median(spliced[0].latencies)) | \(spliced[1].hits) / \(spliced[2].hits) / \(spliced[3].hits) | \(falls) |"
            )
        }
    }
}
