import Foundation
import ShakeDetection

/// One phase of a shake as `detect` prints it in JSON: times are seconds on the trace's own `t` axis
/// (or from the start of a live run). `phase` is `ended` for a shake to act on (the only phase printed
/// without `--phases`), `began` when its strokes first looked like a shake, `dropped` (with `reason`)
/// when it came to nothing, `nearMiss` (with the rule as `reason`) for a chain that one rule stopped
/// short of a shake; `time` is when this phase came, and `ended` when the hand stopped (an ended
/// shake's only).
struct DetectionRecord: Codable {
    /// A shake's phase, as ``ShakePhase`` has it.
    enum Phase: String, Codable {
        case began, ended, dropped, nearMiss
    }

    var detector: String
    var phase: Phase
    var onset: Double
    var began: Double
    var ended: Double?
    var time: Double
    var latency: Double
    var peak: Double
    var reversals: Int
    var axis: String
    var direction: String
    var reason: String?
    /// With `--learn`: how the prompt for an ended shake was answered (undo or cancel).
    var answer: String?

    init(detector: DetectorKind, phase: ShakePhase, origin: Int64) {
        let event = phase.event
        let seconds = { (t: Int64) in rounded(Double(t - origin) / 1e9) }
        self.detector = detector.rawValue
        onset = seconds(event.onset)
        began = seconds(event.began)
        switch phase {
        case .began: self.phase = .began
        case .ended:
            self.phase = .ended
            ended = event.ended.map(seconds)
        case .dropped(_, let why, _):
            self.phase = .dropped
            reason = why.rawValue
        case .nearMiss(_, let rule):
            self.phase = .nearMiss
            reason = rule.rawValue
        }
        time = seconds(phase.time)
        latency = rounded(time - onset)
        peak = rounded(event.peak, 2)
        reversals = event.reversals
        axis = event.axis.rawValue
        direction = event.direction.rawValue
    }

    /// The record as one JSON line with keys in a stable order.
    var jsonLine: String { encodeJSONLine(self) }

    /// The record as a line for people.
    var textLine: String {
        let along = "along \(direction == "positive" ? "+" : "-")\(axis)"
        switch phase {
        case .began:
            return "\(detector): shake began at \(decimal(time, 3)) s (onset \(decimal(onset, 3)) s, "
                + "\(reversals) reversals, peak \(decimal(peak, 1)) m/s², \(along))"
        case .dropped:
            return "\(detector): shake dropped at \(decimal(time, 3)) s (began \(decimal(began, 3)) s): "
                + (reason ?? "")
        case .nearMiss:
            return "\(detector): near miss at \(decimal(time, 3)) s (onset \(decimal(onset, 3)) s, "
                + "\(reversals) reversals, peak \(decimal(peak, 1)) m/s², \(along)): stopped by \(reason ?? "")"
        case .ended:
            return "\(detector): shake recognized at \(decimal(time, 3)) s (onset \(decimal(onset, 3)) s, "
                + "began \(decimal(began, 3)) s, \(reversals) reversals, peak \(decimal(peak, 1)) m/s², \(along))"
        }
    }
}

/// Runs one detector over samples in time order and prints each shake it recognizes (with `phases`,
/// also each shake that began or was dropped), as `detect` does for a file and for a live sensor alike.
struct DetectionPrinter {
    private var detector: any ShakeDetecting
    private let kind: DetectorKind
    private let format: OutputFormat
    private let phases: Bool
    private var origin: Int64?
    private var count = 0

    init(options: DetectorOptions, format: OutputFormat, phases: Bool = false) {
        detector = options.make()
        kind = options.detector
        self.format = format
        self.phases = phases
    }

    /// Feeds a sample; times are printed relative to the first sample fed.
    mutating func feed(_ sample: Sample) {
        let o = origin ?? sample.timestamp
        origin = o
        guard let phase = detector.advance(sample) else { return }
        if case .ended = phase { count += 1 } else if !phases { return }
        let record = DetectionRecord(detector: kind, phase: phase, origin: o)
        print(format == .json ? record.jsonLine : record.textLine)
    }

    /// Says so in text mode when nothing was recognized.
    func finish() {
        if format == .text && count == 0 { print("no shake recognized") }
    }
}

/// Encodes a value as one line of JSON with sorted keys.
func encodeJSONLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}

/// A value rounded to `digits` decimals (for stable JSON).
func rounded(_ value: Double, _ digits: Int = 3) -> Double {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (value * scale).rounded() / scale
}

/// A number with a fixed count of decimals.
func decimal(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

/// A number right-aligned in a column.
func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}
