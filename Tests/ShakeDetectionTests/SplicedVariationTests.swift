import ShakeDetection
import TestSupport
import Testing
import Traces

/// New semi-synthetic recordings, made the way the corpus's spliced traces were (README of
/// ../shared/traces) but with other random choices: the detector must generalize beyond the
/// exact files it was developed on.
@Suite struct SplicedVariationTests {
    static let shakes = ["qt_shake2_a", "qt_shake_left", "qt_shake_right"]
    static let hosts = [
        "pebble_walk_100_heather_1", "pebble_run_200", "pebble_driving_1", "pebble_washing_up_2",
        "pebble_walk_200_pbl_25669_7", "pebble_running_100", "pebble_hand_swings_at_side",
    ]

    /// The dynamic part of a labelled real shake (gravity from the 0.5 s before removed), with 0.2 s margins.
    static func dynamicShake(_ name: String) throws -> (samples: [Sample], interval: LabelledInterval) {
        let samples = try TraceReader(path: TestPaths.trace(name)).readAll()
        let label = try #require(try Labels.read(path: Labels.path(forTrace: TestPaths.trace(name))).first)
        let before = samples.filter { $0.seconds >= label.start - 0.5 && $0.seconds < label.start }
        let n = Double(before.count)
        let g = (
            before.reduce(0) { $0 + $1.x } / n, before.reduce(0) { $0 + $1.y } / n, before.reduce(0) { $0 + $1.z } / n
        )
        let part = samples.filter { $0.seconds >= label.start - 0.2 && $0.seconds <= label.end + 0.2 }
        let t0 = part[0].timestamp
        return (
            part.map { Sample(timestamp: $0.timestamp - t0, x: $0.x - g.0, y: $0.y - g.1, z: $0.z - g.2) },
            LabelledInterval(start: 0.2, end: label.end - label.start + 0.2)
        )
    }

    /// How the spliced trace is recorded: as the corpus is (±4 g, 50 Hz), or as a phone that
    /// clips at ±2 g, at 50, 25 or 100 Hz. Clipping at ±2 g distorts real shakes too.
    static let recordings: [(name: String, range: Double, rate: Double)] = [
        ("±4 g at 50 Hz", 39.24, 50),
        ("±2 g at 50 Hz", 2 * standardGravity, 50),
        ("±2 g at 25 Hz", 2 * standardGravity, 25),
        ("±2 g at 100 Hz", 2 * standardGravity, 100),
    ]

    @Test(
        "shakes rotated, scaled 0.6-1.1 and stretched 0.8-1.25 into everyday motion are recognized",
        arguments: recordings)
    func splicedVariations(recording: (name: String, range: Double, rate: Double)) throws {
        let (hits, trials, latencies) = try Self.run(
            seed: 2026, trials: 42, range: recording.range, rate: recording.rate, configuration: .init())
        let recall = Double(hits) / Double(trials)
        #expect(recall >= 0.95, "\(recording.name): recall \(recall) over \(trials) new spliced shakes")
        // The answer comes when the hand stops: the product's goal, a median of at most 0.4 s after the
        // shake's end and a p95 of at most 0.8 s, holds at every range and rate.
        let median = percentile(latencies, 50) ?? 9
        let p95 = percentile(latencies, 95) ?? 9
        #expect(median <= 0.4, "\(recording.name): median latency from the end \(median) s")
        #expect(p95 <= 0.8, "\(recording.name): p95 latency from the end \(p95) s")
    }

    /// Splices `trials` shakes, drawn with `seed`, into the hosts, records them clipped at
    /// ±`range` at `rate` Hz, and runs a detector with `configuration` over each: how many were
    /// recognized, out of how many, and each hit's latency from the shake's (labelled) end.
    static func run(seed: UInt64, trials count: Int, range: Double, rate: Double, configuration: ShakeDetectorConfiguration)
        throws -> (hits: Int, trials: Int, latencies: [Double])
    {
        var random = Motion.Random(seed: seed)
        var hits = 0
        var trials = 0
        var latencies: [Double] = []
        for trial in 0..<count {
            let host = Motion.resample(
                try TraceReader(path: TestPaths.trace(Self.hosts[trial % Self.hosts.count])).readAll(), rate: 50)
            let (shake, interval) = try Self.dynamicShake(Self.shakes[Int(random.next() * 3)])
            let scale = 0.6 + 0.5 * random.next()
            let stretch = 0.8 + 0.45 * random.next()
            let rotation = Motion.rotation(
                axis: (random.gaussian(), random.gaussian(), random.gaussian()), angle: 2 * .pi * random.next())
            let stretched = Motion.resample(
                shake.map {
                    Sample(
                        timestamp: Int64(Double($0.timestamp) * stretch), x: $0.x * scale, y: $0.y * scale,
                        z: $0.z * scale)
                },
                rate: 50)
            let turned = Motion.rotate(stretched, by: rotation)
            // Insert at a random point at least 2 s from either end; host gravity under the shake.
            let at = 100 + Int(random.next() * Double(host.count - 300))
            let before = host[max(0, at - 25)..<at]
            let n = Double(before.count)
            let g = (
                before.reduce(0) { $0 + $1.x } / n, before.reduce(0) { $0 + $1.y } / n,
                before.reduce(0) { $0 + $1.z } / n
            )
            let clip = { (v: Double) in max(-39.24, min(39.24, v)) }
            let block = turned.map {
                Sample(timestamp: 0, x: clip(g.0 + $0.x), y: clip(g.1 + $0.y), z: clip(g.2 + $0.z))
            }
            let limit = { (v: Double) in max(-range, min(range, v)) }
            var joined = (Array(host[..<at]) + block + Array(host[at...])).enumerated().map {
                Sample(
                    timestamp: Int64($0.offset) * 20_000_000, x: limit($0.element.x), y: limit($0.element.y),
                    z: limit($0.element.z))
            }
            if rate != 50 { joined = Motion.resample(joined, rate: rate) }
            let start = Double(at) * 0.02 + interval.start * stretch
            let end = Double(at) * 0.02 + interval.end * stretch
            let recognized = detect(joined, with: ShakeDetector(configuration: configuration)).map { Double($0.endedAt) / 1e9 }
            trials += 1
            if let hit = recognized.first(where: { $0 >= start && $0 <= end + Score.grace }) {
                hits += 1
                latencies.append(hit - end)
            }
        }
        return (hits, trials, latencies)
    }
}
