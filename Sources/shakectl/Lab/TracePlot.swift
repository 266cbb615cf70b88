import ShakeDetection
import Traces

/// Renders a trace as an SVG: x, y, z and |a| over time, labelled intervals shaded, and each
/// detector's detections marked on its own row.
struct TracePlot {
    let run: TraceRun
    let samples: [Sample]
    var width = 1400.0
    var plotHeight = 420.0
    let margin = (left: 60.0, right: 20.0, top: 40.0, bottom: 40.0)
    let laneHeight = 22.0

    private static let series: [(name: String, color: String, value: @Sendable (Sample) -> Double)] = [
        ("x", "#d62728", { $0.x }), ("y", "#2ca02c", { $0.y }), ("z", "#1f77b4", { $0.z }),
        ("|a|", "#222222", { $0.magnitude }),
    ]
    private static let markerColors = ["#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// The SVG document.
    func render() -> String {
        let lanes = Double(run.events.count)
        let height = margin.top + plotHeight + 30 + lanes * laneHeight + margin.bottom
        let duration = max(run.duration, 1e-3)
        let left = margin.left
        let right = width - margin.right
        let (low, high) = valueRange()
        func px(_ t: Double) -> Double { left + (right - left) * t / duration }
        func py(_ v: Double) -> Double { margin.top + plotHeight * (1 - (v - low) / (high - low)) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="16">\(escape(run.name)): \(decimal(run.duration, 1)) s, \
            \(samples.count) samples, \(run.labels.count) labelled shake\(run.labels.count == 1 ? "" : "s")</text>

            """
        for label in run.labels {
            svg +=
                "<rect x=\(q(px(label.start))) y=\(q(margin.top)) width=\(q(max(1, px(label.end) - px(label.start)))) "
                + "height=\(q(plotHeight + 30 + lanes * laneHeight)) fill=\"#ffe08a\" opacity=\"0.55\"><title>labelled shake "
                + "\(decimal(label.start, 2))-\(decimal(label.end, 2)) s</title></rect>\n"
        }
        svg += axes(low: low, high: high, duration: duration, px: px, py: py)
        for (name, color, value) in Self.series {
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1\" points=\""
            for sample in decimated() { svg += "\(q1(px(run.seconds(sample.timestamp)))),\(q1(py(value(sample)))) " }
            svg += "\"><title>\(name)</title></polyline>\n"
        }
        svg += legend()
        for (lane, entry) in run.events.enumerated() {
            let y = margin.top + plotHeight + 30 + Double(lane) * laneHeight
            let color = Self.markerColors[lane % Self.markerColors.count]
            svg += "<text x=\"4\" y=\(q(y + 15))>\(entry.kind.rawValue)</text>\n"
            svg +=
                "<line x1=\(q(left)) y1=\(q(y + laneHeight - 2)) x2=\(q(right)) y2=\(q(y + laneHeight - 2)) stroke=\"#ddd\"/>\n"
            for event in entry.events {
                let ended = run.seconds(event.ended ?? event.began)
                let x = px(ended)
                svg +=
                    "<line x1=\(q(x)) y1=\(q(margin.top)) x2=\(q(x)) y2=\(q(margin.top + plotHeight)) stroke=\"\(color)\" "
                    + "stroke-dasharray=\"3,3\" opacity=\"0.6\"/>\n"
                svg +=
                    "<path d=\"M\(q1(x)) \(q1(y + 3)) l6 8 l-6 8 l-6 -8 z\" fill=\"\(color)\"><title>\(entry.kind.rawValue) at "
                    + "\(decimal(ended, 2)) s</title></path>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// At most about four points per pixel column: min and max of each bucket keep the peaks.
    private func decimated() -> [Sample] {
        let budget = Int(width) * 2
        guard samples.count > budget * 2 else { return samples }
        let bucket = samples.count / budget + 1
        var out: [Sample] = []
        out.reserveCapacity(budget * 2 + 2)
        var i = 0
        while i < samples.count {
            let slice = samples[i..<min(i + bucket, samples.count)]
            let lo = slice.min { $0.magnitude < $1.magnitude }!
            let hi = slice.max { $0.magnitude < $1.magnitude }!
            out += lo.timestamp <= hi.timestamp ? [lo, hi] : [hi, lo]
            i += bucket
        }
        return out
    }

    private func valueRange() -> (Double, Double) {
        var low = -10.0
        var high = 20.0
        for s in samples {
            low = min(low, s.x, s.y, s.z)
            high = max(high, s.x, s.y, s.z, s.magnitude)
        }
        return (low - 2, high + 2)
    }

    private func axes(
        low: Double, high: Double, duration: Double, px: (Double) -> Double, py: (Double) -> Double
    ) -> String {
        var out =
            "<rect x=\(q(margin.left)) y=\(q(margin.top)) width=\(q(width - margin.left - margin.right)) "
            + "height=\(q(plotHeight)) fill=\"none\" stroke=\"#999\"/>\n"
        let step = niceStep(high - low, ticks: 8)
        var v = (low / step).rounded(.up) * step
        while v <= high {
            out +=
                "<line x1=\(q(margin.left)) y1=\(q(py(v))) x2=\(q(width - margin.right)) y2=\(q(py(v))) stroke=\"#eee\"/>"
            out += "<text x=\(q(margin.left - 6)) y=\(q(py(v) + 4)) text-anchor=\"end\">\(Int(v))</text>\n"
            v += step
        }
        let tstep = niceStep(duration, ticks: 12)
        var t = 0.0
        while t <= duration + 1e-9 {
            out +=
                "<text x=\(q(px(t))) y=\(q(margin.top + plotHeight + 16)) text-anchor=\"middle\">\(decimal(t, tstep < 1 ? 1 : 0))</text>\n"
            t += tstep
        }
        out +=
            "<text x=\"14\" y=\(q(margin.top + plotHeight / 2)) transform=\"rotate(-90 14 \(Int(margin.top + plotHeight / 2)))\" "
            + "text-anchor=\"middle\">m/s²</text>\n"
        return out
    }

    private func legend() -> String {
        var out = ""
        var x = width - margin.right - 300
        for (name, color, _) in Self.series {
            out += "<line x1=\(q(x)) y1=\"18\" x2=\(q(x + 20)) y2=\"18\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            out += "<text x=\(q(x + 24)) y=\"22\">\(escape(name))</text>\n"
            x += 60
        }
        return out
            + "<rect x=\(q(x)) y=\"10\" width=\"16\" height=\"14\" fill=\"#ffe08a\"/><text x=\(q(x + 20)) y=\"22\">label</text>\n"
    }

    private func niceStep(_ span: Double, ticks: Double) -> Double {
        let raw = span / ticks
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        let ratio = raw / magnitude
        return magnitude * (ratio <= 1 ? 1 : ratio <= 2 ? 2 : ratio <= 5 ? 5 : 10)
    }

    private func q(_ v: Double) -> String { "\"\(decimal(v, 1))\"" }
    private func q1(_ v: Double) -> String { decimal(v, 1) }
    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
