import Foundation
import ShakeDetection
import TestSupport
import Testing
import Traces

/// Properties the detector must have whatever the recording: invariance to orientation and
/// sample rate, silence on gravity and noise, determinism.
@Suite struct DetectorPropertyTests {
    static let shakeTraces = [
        "qt_shake_left", "qt_shake_right", "qt_shake2_a", "spliced_dev_02_qt_negs",
        "spliced_dev_09_pebble_driving_2",
    ]

    static let rotations: [(String, [[Double]])] = [
        ("90° about z", Motion.rotation(axis: (0, 0, 1), angle: .pi / 2)),
        ("180° about x (face down)", Motion.rotation(axis: (1, 0, 0), angle: .pi)),
        ("37° about (1,2,3)", Motion.rotation(axis: (1, 2, 3), angle: 37 * .pi / 180)),
        ("-120° about (-2,1,0.5)", Motion.rotation(axis: (-2, 1, 0.5), angle: -2 * .pi / 3)),
    ]

    static func recognized(_ events: [ShakeEvent]) -> [Double] { events.map { Double($0.endedAt) / 1e9 } }

    @Test("rotating a trace by a fixed rotation keeps its detections", arguments: shakeTraces)
    func rotationInvariance(trace: String) throws {
        let samples = try TraceReader(path: TestPaths.trace(trace)).readAll()
        let original = detect(samples, with: ShakeDetector())
        #expect(!original.isEmpty, "the unrotated trace must be detected for this property to mean anything")
        for (name, matrix) in Self.rotations {
            let turned = detect(Motion.rotate(samples, by: matrix), with: ShakeDetector())
            #expect(Self.recognized(turned) == Self.recognized(original), "\(trace) rotated \(name)")
            #expect(turned.map(\.reversals) == original.map(\.reversals), "\(trace) rotated \(name)")
        }
    }

    @Test("resampling 50 → 100 → 200 Hz keeps the detections", arguments: shakeTraces)
    func resamplingInvariance(trace: String) throws {
        let samples = try TraceReader(path: TestPaths.trace(trace)).readAll()
        let original = Self.recognized(detect(samples, with: ShakeDetector()))
        for rate in [100.0, 200.0] {
            let resampled = Self.recognized(detect(Motion.resample(samples, rate: rate), with: ShakeDetector()))
            #expect(resampled.count == original.count, "\(trace) at \(rate) Hz: \(resampled) vs \(original)")
            for (a, b) in zip(resampled, original) {
                // The same shake: a finer grid may pass the shape checks a stroke or two later,
                // and a chain that looks lopsided on one grid needs one more reversal: within two
                // shake cycles (0.5 s).
                #expect(abs(a - b) <= 0.5, "\(trace) at \(rate) Hz: recognized at \(a) s instead of \(b) s")
            }
        }
    }

    @Test("gravity alone, in any direction, gives no event", arguments: 0..<24)
    func gravityAlone(seed: Int) {
        var random = Motion.Random(seed: UInt64(seed))
        let direction = (random.gaussian(), random.gaussian(), random.gaussian())
        let samples = Motion.rest(seconds: 20, rate: 100, direction: direction)
        #expect(detect(samples, with: ShakeDetector(sensitivity: .high)).isEmpty)
    }

    @Test("white noise at sensor level gives no event", arguments: [25.0, 100.0, 400.0])
    func whiteNoise(rate: Double) {
        // 0.5 m/s² RMS is several times the noise of a phone accelerometer.
        let samples = Motion.rest(seconds: 120, rate: rate, direction: (0.3, -0.5, 0.8), noise: 0.5, seed: 7)
        for sensitivity in Sensitivity.allCases {
            #expect(
                detect(samples, with: ShakeDetector(sensitivity: sensitivity)).isEmpty, "\(sensitivity) at \(rate) Hz")
        }
    }

    @Test("the same input gives the same output", arguments: shakeTraces)
    func determinism(trace: String) throws {
        let samples = try TraceReader(path: TestPaths.trace(trace)).readAll()
        var reused = ShakeDetector()
        let first = samples.compactMap { reused.process($0) }
        reused.reset()
        let afterReset = samples.compactMap { reused.process($0) }
        #expect(first == detect(samples, with: ShakeDetector()))
        #expect(first == afterReset)
    }
}
