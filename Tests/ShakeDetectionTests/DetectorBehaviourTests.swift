import ShakeDetection
import TestSupport
import Testing
import Traces

/// What the detector does with the motions it must and must not recognize.
@Suite struct DetectorBehaviourTests {
    @Test("a hand shake is recognized once, at 10 to 400 Hz", arguments: [10.0, 25.0, 50.0, 100.0, 400.0])
    func shakeAtRate(rate: Double) throws {
        // At 10 Hz a 3.5 Hz shake has under three samples a cycle and its sampled peaks alias
        // (docs/detector.md, "Limits"); 2.5 Hz, four samples a cycle, is what such a sensor can see.
        let frequency = rate < 20 ? 2.5 : 3.5
        let events = detect(Motion.shake(rate: rate, frequency: frequency, amplitude: 30), with: ShakeDetector())
        try #require(events.count == 1, "\(rate) Hz: \(events)")
        let event = events[0]
        #expect(event.axis == .x)
        #expect(event.reversals >= 3)
        #expect(event.onset >= 2_000_000_000 && event.began > event.onset)
        // It began at the third or fourth reversal, and is answered when the hand stops (the shake
        // ends at 3.2 s): after a whole cycle with no stroke of its size, 0.4 s at 2.5 Hz.
        #expect(Double(event.began) / 1e9 - 2 < (rate < 20 ? 1.0 : 0.8), "began soon after the start")
        let end = 3.2
        let bound = rate < 20 ? 0.6 : 0.4
        let answered = Double(event.endedAt) / 1e9
        #expect(answered > end && answered - end < bound, "answered within \(bound) s of the end: \(answered) s")
        #expect(event.peak >= 20 && event.peak <= 35)
    }

    @Test("a shake clipped by a ±4 g sensor is recognized")
    func clipped() {
        let events = detect(Motion.shake(rate: 50, frequency: 4, amplitude: 70, clip: 39.2), with: ShakeDetector())
        #expect(events.count == 1)
    }

    @Test("a long shake gives one event, not one per second")
    func oneEventPerShake() {
        let events = detect(Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.8), with: ShakeDetector())
        #expect(events.count == 1)
    }

    @Test("a gap in the samples resets the detector cleanly")
    func gapResets() {
        // Half a shake (two strokes), a one-second gap in which the device was turned over, then
        // a full shake: one event, starting after the gap, with gravity re-estimated.
        let half = Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 0.25, start: 1, total: 1.3)
        let turned = Motion.rotate(Motion.shake(rate: 100), by: Motion.rotation(axis: (1, 0, 0), angle: .pi))
            .map { Sample(timestamp: $0.timestamp + 2_300_000_000, x: $0.x, y: $0.y, z: $0.z) }
        let events = detect(half + turned, with: ShakeDetector())
        #expect(events.count == 1)
        #expect((events.first?.onset ?? 0) >= 4_300_000_000, "onset after the gap: \(events)")
        // Time going backwards is treated the same way: a fresh start, no crash, no stale event.
        let backwards = half + Motion.shake(rate: 100)
        #expect(detect(backwards, with: ShakeDetector()).count == 1)
    }

    @Test("jittered timestamps do not stop recognition")
    func jitter() {
        var random = Motion.Random(seed: 3)
        let samples = Motion.shake(rate: 50, frequency: 4, amplitude: 30).map { s in
            Sample(timestamp: s.timestamp + Int64((random.next() - 0.5) * 8_000_000), x: s.x, y: s.y, z: s.z)
        }
        #expect(detect(samples, with: ShakeDetector()).count == 1)
    }

    @Test(
        "single transients are ignored",
        arguments: [
            ("one flick (there and back)", 1.5 / 4.0), ("a tap", 0.06), ("a slam", 0.2),
        ])
    func transients(name: String, duration: Double) {
        let samples = Motion.shake(rate: 100, frequency: 4, amplitude: 35, duration: duration)
        #expect(detect(samples, with: ShakeDetector()).isEmpty, "\(name)")
    }

    @Test("slow periodic motion (gait, 1.8 Hz) is ignored even when strong")
    func gait() {
        let samples = Motion.shake(rate: 50, frequency: 1.8, amplitude: 25, duration: 20, total: 25)
        #expect(detect(samples, with: ShakeDetector(sensitivity: .high)).isEmpty)
    }

    @Test("a gentler shake needs a higher sensitivity")
    func sensitivityLevels() {
        let gentle = Motion.shake(rate: 100, frequency: 4, amplitude: 16)
        #expect(detect(gentle, with: ShakeDetector(sensitivity: .low)).isEmpty)
        #expect(detect(gentle, with: ShakeDetector(sensitivity: .high)).count == 1)
        let thresholds = Sensitivity.allCases.map { ShakeDetectorConfiguration(sensitivity: $0).strokeThreshold }
        #expect(thresholds == thresholds.sorted(by: >), "low needs the strongest strokes, high the weakest")
    }

    @Test("non-finite samples are ignored, not trusted")
    func nonFinite() {
        var detector = ShakeDetector()
        #expect(detector.process(Sample(timestamp: 0, x: .nan, y: 0, z: 9.8)) == nil)
        #expect(detector.process(Sample(timestamp: 10_000_000, x: .infinity, y: 0, z: 9.8)) == nil)
        let events = detect(Motion.shake(rate: 100), with: detector)
        #expect(events.count == 1)
    }

    @Test(
        "configuration checks name the setting at fault",
        arguments: [
            "strokeThreshold", "reversals", "halfPeriod", "linearity", "endLevel",
        ])
    func configurationValidation(key: String) {
        var configuration = ShakeDetectorConfiguration()
        #expect(throws: Never.self) { try configuration.validate() }
        switch key {
        case "strokeThreshold": configuration.strokeThreshold = -1
        case "reversals": configuration.reversals = 1
        case "halfPeriod": configuration.halfPeriod = 0...2
        case "linearity": configuration.linearity = 2
        default: configuration.endLevel = 1
        }
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch { #expect(error.key == key) }
    }

    @Test("at rest after a second held still, never from a shake's first stroke until it has settled")
    func atRest() throws {
        var detector = ShakeDetector()
        var restSpans: [(from: Double, to: Double)] = []
        var recognizedAt: Double?
        for sample in Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.2, start: 2, total: 6) {
            let t = Double(sample.timestamp) / 1e9
            if detector.process(sample) != nil { recognizedAt = t }
            if detector.isAtRest {
                if let last = restSpans.last, abs(last.to - (t - 0.01)) < 1e-6 {
                    restSpans[restSpans.count - 1].to = t
                } else {
                    restSpans.append((t, t))
                }
            }
        }
        // Still from 0 s to 2 s (the sine starts from 0 there: motion from 2.01 s), and again from the
        // end of the shake (3.2 s): at rest once a second has passed in each, and at no other time.
        try #require(restSpans.count == 2, "\(restSpans)")
        #expect(restSpans[0].from >= 1.0 && restSpans[0].from < 1.1 && abs(restSpans[0].to - 2.0) < 1e-6)
        #expect(restSpans[1].from >= 4.2 && restSpans[1].from < 4.6, "\(restSpans[1])")
        let recognized = try #require(recognizedAt)
        #expect(recognized > 3.2 && recognized < 3.7, "answered when the hand stopped (3.2 s): \(recognized) s")
        // Baselines do not track stillness, so their samples never wait.
        var seismic = SeismicDetector()
        for sample in Motion.rest(seconds: 3, rate: 100, direction: (0, 0, 1)) { _ = seismic.process(sample) }
        #expect(!seismic.isAtRest)
    }

    @Test("every negative recording in the corpus stays silent")
    func corpusNegatives() throws {
        let negatives = TestPaths.allTraces().filter {
            (try? Labels.read(path: Labels.path(forTrace: $0)))?.isEmpty == true
        }
        try #require(negatives.count >= 30, "the shared corpus must be beside the checkout (../shared/traces)")
        for path in negatives {
            let events = detect(try TraceReader(path: path).readAll(), with: ShakeDetector())
            #expect(events.isEmpty, "\(path): \(events.map { Double($0.endedAt) / 1e9 })")
        }
    }
}
