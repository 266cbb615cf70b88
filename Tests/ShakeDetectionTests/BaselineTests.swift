import ShakeDetection
import TestSupport
import Testing
import Traces

/// The baselines reproduce the published behaviour they stand for.
@Suite struct BaselineTests {
    /// Counts from ../shared/notes/shake-detection.md: 55 s of walking and 81 s of running.
    @Test(
        "baselines fire as often as reported on walking and running",
        arguments: [
            (DetectorKind.seismic, 136, 145), (.qtShake, 8, 14), (.qtShake2, 9, 3),
        ])
    func publishedCounts(kind: DetectorKind, walking: Int, running: Int) throws {
        let walk = try TraceReader(path: TestPaths.trace("pebble_walk_100_heather_1")).readAll()
        let run = try TraceReader(path: TestPaths.trace("pebble_run_200")).readAll()
        #expect(detect(walk, with: kind.make()).count == walking)
        #expect(detect(run, with: kind.make()).count == running)
    }

    @Test("every detector catches a real shake", arguments: DetectorKind.allCases)
    func realShake(kind: DetectorKind) throws {
        let samples = try TraceReader(path: TestPaths.trace("qt_shake_right")).readAll()
        #expect(detect(samples, with: kind.make()).count >= 1)
    }

    @Test("seismic fires on |a| including gravity, so a still device at 1 g never does")
    func seismicStill() {
        #expect(detect(Motion.rest(seconds: 10, rate: 50, direction: (0, 0, 1)), with: SeismicDetector()).isEmpty)
    }
}
