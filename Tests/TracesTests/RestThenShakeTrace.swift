import Foundation
import ShakeDetection
import TestSupport
import Traces

/// A labeled trace in a temporary folder: held still for 3.45 s, then a 4 Hz shake for 1.2 s
/// (labeled 3.35-4.65 s), then still again, to 7 s at 100 Hz. Its path.
func restThenShakeTrace() throws -> String {
    let dir = try TestPaths.temporaryDirectory()
    let csv = dir.appendingPathComponent("rest-then-shake.csv").path
    let samples = Motion.shake(rate: 100, frequency: 4, amplitude: 30, duration: 1.2, start: 3.45, total: 7)
    let writer = try TraceWriter(path: csv)
    for sample in samples { try writer.write(sample) }
    try writer.close()
    try "3.35 4.65\n".write(toFile: Labels.path(forTrace: csv), atomically: true, encoding: .utf8)
    return csv
}
