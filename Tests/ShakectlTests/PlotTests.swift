import Foundation
import TestSupport
import Testing

/// `shakectl plot` renders an SVG that a real browser draws as a picture.
@Suite struct PlotTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "the SVG renders in headless Chromium and the screenshot is not blank",
        .enabled(if: chromium != nil, "needs Chromium (apt-get install chromium); .ci/run installs it"))
    func renderInBrowser() throws {
        let dir = try TestPaths.temporaryDirectory()
        let svg = dir.appendingPathComponent("plot.svg").path
        let png = dir.appendingPathComponent("plot.png").path
        let plot = try runProcess(
            TestPaths.binary("shakectl"),
            [
                "plot", TestPaths.trace("spliced_dev_03_pebble_walk_100_heather_1"), "-o", svg, "--width", "1000",
            ])
        #expect(plot.status == 0, "\(plot.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg"))
        #expect(text.components(separatedBy: "<polyline").count - 1 == 4, "x, y, z and |a|")
        #expect(text.components(separatedBy: "<title>labelled shake").count - 1 == 3, "three shaded labels")
        #expect(text.contains("shaked at"))

        let shot = try runProcess(
            Self.chromium!,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(png)",
                "--window-size=1000,600", "file://\(svg)",
            ], environment: ["HOME": dir.path, "PATH": "/usr/bin:/bin"])
        #expect(shot.status == 0, "\(shot.stderr)")
        let stats = try runProcess(
            "/usr/bin/env", ["python3", TestPaths.packageRoot.appendingPathComponent("scripts/png-stats.py").path, png])
        #expect(stats.status == 0, "\(stats.stderr)")
        let fields = stats.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(fields.count == 2, "png-stats prints 'inked-fraction distinct-colours': \(stats.stdout)")
        // A blank page is all one colour; a plot has coloured traces over a good part of it.
        #expect(fields[0] > 0.05, "fraction of non-white pixels: \(fields[0])")
        #expect(fields[1] >= 6, "distinct colours: \(fields[1])")
    }
}
