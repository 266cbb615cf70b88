import Foundation
import TestSupport
import Testing
import Traces

/// One definition of a shake (`ContinuousShaking`): clips the hand never stopped between are one shake,
/// and a shake ends where the hand stopped, judged from the motion alone.
@Suite struct ContinuousShakingTests {
    static let rate = 50.0

    /// |a| at `t`: 1 g at rest, swinging ±`swing` m/s² at 3 Hz while `moving(t)`.
    static func magnitude(_ t: Double, swing: Double, moving: (Double) -> Bool) -> Double {
        9.81 + (moving(t) ? swing * sin(2 * .pi * 3 * t) : 0.02 * sin(2 * .pi * 7 * t))
    }

    /// Feeds `seconds` of samples to `shaking`.
    static func feed(_ shaking: inout ContinuousShaking, seconds: Double, swing: Double = 12, moving: (Double) -> Bool) {
        for i in 0..<Int(seconds * rate) {
            let t = Double(i) / rate
            shaking.add(at: t, magnitude: magnitude(t, swing: swing, moving: moving))
        }
    }

    static let shakes = [LabelledInterval(start: 1, end: 2), LabelledInterval(start: 4, end: 5)]
    static let clips = shakes.map { GestureClip(start: $0.start, end: $0.end, gesture: GestureClip.shake) }

    @Test("shaking on through the gap makes two clips one shake, ending where the hand stops")
    func shakingThrough() {
        var shaking = ContinuousShaking(labels: Self.shakes, clips: Self.clips)
        Self.feed(&shaking, seconds: 9) { $0 >= 1 && $0 < 6 }
        #expect(shaking.joinsNext(0))
        // The hand went on 1 s after the second clip: two half seconds.
        #expect(shaking.merged(Self.shakes) == [LabelledInterval(start: 1, end: 6)])
        #expect(shaking.merged(Self.clips) == [GestureClip(start: 1, end: 6, gesture: GestureClip.shake)])
    }

    @Test("a pause of half a second between clips keeps them two shakes")
    func pauseBetween() {
        var shaking = ContinuousShaking(labels: Self.shakes, clips: Self.clips)
        Self.feed(&shaking, seconds: 9) { ($0 >= 1 && $0 < 2.5) || ($0 >= 3.2 && $0 < 5) }
        #expect(!shaking.joinsNext(0))
        #expect(shaking.merged(Self.shakes) == [LabelledInterval(start: 1, end: 2.5), LabelledInterval(start: 4, end: 5)])
    }

    @Test("a gentle motion between clips (spread under 4 m/s²) is a hand that stopped")
    func gentleBetween() {
        var shaking = ContinuousShaking(labels: Self.shakes, clips: Self.clips)
        Self.feed(&shaking, seconds: 9, swing: 4) { $0 >= 1 && $0 < 5 }
        // A 3 Hz sine of amplitude 4 has a spread of 4/√2: under the floor.
        #expect(!shaking.joinsNext(0))
        #expect(shaking.merged(Self.shakes) == Self.shakes)
    }

    @Test("another clip between two shakes keeps them apart, and a shake never runs into it")
    func otherClipBetween() {
        let clips = [Self.clips[0], GestureClip(start: 2.5, end: 3.5, gesture: "Backhand Tennis"), Self.clips[1]]
        var shaking = ContinuousShaking(labels: Self.shakes, clips: clips)
        Self.feed(&shaking, seconds: 9) { $0 >= 1 && $0 < 5 }
        #expect(!shaking.joinsNext(0))
        #expect(shaking.merged(Self.shakes) == [LabelledInterval(start: 1, end: 2.5), LabelledInterval(start: 4, end: 5)])
        #expect(shaking.merged(clips).count == 3)
    }

    @Test("a gap with no samples is not the hand going on")
    func missingSamples() {
        var shaking = ContinuousShaking(labels: Self.shakes, clips: Self.clips)
        Self.feed(&shaking, seconds: 9) { $0 >= 1 && $0 < 5 }
        var holed = ContinuousShaking(labels: Self.shakes, clips: Self.clips)
        for i in 0..<Int(9 * Self.rate) {
            let t = Double(i) / Self.rate
            if t >= 2.9 && t < 3.5 { continue }
            holed.add(at: t, magnitude: Self.magnitude(t, swing: 12) { $0 >= 1 && $0 < 5 })
        }
        #expect(shaking.joinsNext(0))
        #expect(!holed.joinsNext(0))
    }

    /// Writes a trace of shaking from 1 s to `until` s, labelled 1-2 and 4-5, with an events file when
    /// `events`; returns its path.
    static func writeTrace(in folder: URL, until: Double, events: Bool) throws -> String {
        var csv = "t,x,y,z\n"
        for i in 0..<Int(10 * rate) {
            let t = Double(i) / rate
            let a = magnitude(t, swing: 12) { $0 >= 1 && $0 < until }
            csv += String(format: "%.3f,0,0,%.4f\n", t, a)
        }
        let trace = folder.appendingPathComponent("session.csv")
        try csv.write(to: trace, atomically: true, encoding: .utf8)
        try Labels.format(shakes).write(
            to: folder.appendingPathComponent("session.labels"), atomically: true, encoding: .utf8)
        if events {
            let text = "0.2 0.8 At Rest\n" + Events.format(clips) + "8 9 At Rest\n"
            try text.write(to: folder.appendingPathComponent("session.events"), atomically: true, encoding: .utf8)
        }
        return trace.path
    }

    @Test("TraceRun scores merged shakes where a trace has an events file, and says how many clips it joined")
    func traceRunMerges() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeTrace(in: folder, until: 5, events: true)
        let run = try TraceRun.run(path: path, detectors: [.shaked])
        #expect(run.labels == [LabelledInterval(start: 1, end: 5)])
        #expect(run.mergedClips == 1)
        #expect(run.scores().allSatisfy { $0.score.labelled == 1 && $0.score.mergedClips == 1 })
        #expect(run.clips?.filter(\.isShake).count == 1)
    }

    @Test("a trace without an events file (a spliced one) keeps its labels as they are")
    func splicedTraceKeepsLabels() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeTrace(in: folder, until: 5, events: false)
        let run = try TraceRun.run(path: path, detectors: [.shaked])
        #expect(run.labels == Self.shakes)
        #expect(run.mergedClips == 0)
    }
}
