@testable import ShakeDetection
import TestSupport
import Testing

/// What the detector does with a stream that lost samples or repeats a timestamp: another reader that
/// drains a shared buffer (iio-sensor-proxy beside a time-shared one) takes stretches of it, and a busy
/// system polls late.
@Suite struct SampleGapTests {
    @Test("samples lost in a short gap are counted from the stream's usual step, a long gap is a break")
    func missingCount() {
        var device = DeviceMotion(configuration: .init())
        for i in 0..<50 { _ = device.advance(Sample(timestamp: Int64(i) * 8_000_000, x: 0, y: 0, z: 9.8)) }
        let last = Int64(49) * 8_000_000
        #expect(device.usualStep == 8_000_000)
        #expect(device.arrival(at: last + 8_000_000) == .next)
        #expect(device.arrival(at: last + 16_000_000) == .next, "one late sample is jitter")
        #expect(device.arrival(at: last + 24_000_000) == .afterGap(missing: 2))
        #expect(device.arrival(at: last + 100_000_000) == .afterGap(missing: 12), "13 steps of 7.7 ms")
        #expect(device.arrival(at: last + 600_000_000) == .restart, "past gapReset: a break, not a gap")
        #expect(device.arrival(at: last) == .repeated)
        #expect(device.arrival(at: last - 1) == .restart)
    }

    @Test("the samples filled in lie evenly in time and on the line between the two around the gap")
    func filling() {
        var device = DeviceMotion(configuration: .init())
        _ = device.advance(Sample(timestamp: 0, x: 0, y: 0, z: 9.8))
        _ = device.advance(Sample(timestamp: 10_000_000, x: 0, y: 0, z: 9.8))
        let next = Sample(timestamp: 50_000_000, x: 30, y: -3, z: 9.8)
        #expect(device.arrival(at: next.timestamp) == .afterGap(missing: 3))
        let filled = (1...3).map { device.filling($0, of: 3, toward: next) }
        #expect(filled.map(\.timestamp) == [20_000_000, 30_000_000, 40_000_000])
        #expect(filled.map(\.x) == [7.5, 15, 22.5])
        #expect(filled.map(\.y) == [-0.75, -1.5, -2.25])
    }

    @Test("a rate that changes for good carries the usual step along: no endless filling")
    func rateChange() {
        var device = DeviceMotion(configuration: .init())
        var t: Int64 = 0
        for _ in 0..<100 {
            t += 2_400_000  // 416 Hz
            _ = device.advance(Sample(timestamp: t, x: 0, y: 0, z: 9.8))
        }
        var filledIn = 0
        for _ in 0..<200 {
            t += 16_700_000  // polled at 60 Hz from now on
            if case .afterGap(let missing) = device.arrival(at: t) { filledIn += missing }
            _ = device.advance(Sample(timestamp: t, x: 0, y: 0, z: 9.8))
        }
        #expect(device.arrival(at: t + 16_700_000) == .next, "the new rate is the usual one")
        #expect(filledIn < 600, "filled in while the rate changed: \(filledIn)")
    }

    @Test("a timestamp read twice is skipped: it does not interrupt the shake under way")
    func repeatedTimestamp() {
        let shake = Motion.shake(rate: 100, frequency: 4, amplitude: 30)
        var doubled: [Sample] = []
        for s in shake {
            doubled.append(s)
            // Twice a second, the next reading stamped with this one's time.
            if s.timestamp % 500_000_000 == 0 { doubled.append(Sample(timestamp: s.timestamp, x: s.x * 0.9, y: s.y, z: s.z)) }
        }
        var detector = ShakeDetector()
        var phases: [ShakePhase] = []
        for s in doubled { if let p = detector.advance(s) { phases.append(p) } }
        #expect(phases.count == 2, "\(phases)")
        guard case .began = phases.first, case .ended = phases.last else {
            Issue.record("began, then ended: \(phases)")
            return
        }
    }

    @Test(
        "a shake with a tenth of a second taken out every 0.7 s, at any phase, is recognized once",
        arguments: [60.0, 125.0, 416.0])
    func drainedStretches(rate: Double) {
        let shake = Motion.shake(rate: rate, frequency: 4, amplitude: 30)
        for offset in stride(from: 0.0, to: 0.7, by: 0.05) {
            let kept = shake.filter { s in
                let phase = (s.seconds - offset).truncatingRemainder(dividingBy: 0.7)
                return s.seconds < offset || phase >= 0.1
            }
            let events = detect(kept, with: ShakeDetector())
            #expect(events.count == 1, "\(rate) Hz, taken out from \(offset) s: \(events)")
        }
    }

    @Test("phases of filled-in samples come out one per sample, in order, none lost")
    func heldPhases() {
        var held = HeldPhases()
        let event = ShakeEvent(onset: 1, began: 2, ended: 3, peak: 20, reversals: 4, axis: .x, direction: .positive)
        held.add(.began(event))
        held.add(nil)
        held.add(.ended(event))
        held.add(.dropped(event, .keptGoing, at: 4))
        #expect(held.next() == .began(event))
        #expect(held.next() == .ended(event))
        #expect(held.next() == .dropped(event, .keptGoing, at: 4))
        #expect(held.next() == nil && held.isEmpty)
    }
}
