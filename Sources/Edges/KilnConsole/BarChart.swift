import WebReader

/// A bar chart of attempts ended, drawn as SVG on the server, split in two so that a few failures stay visible beside
/// a burst of work: the jobs done rise above the axis, the failures (retried or failed, and dead, in their own colour)
/// hang below it, each half on its own scale. The axes say what a bar counts and which times the chart spans; the
/// picture says in words what it shows (`role="img"` and a title), for screen readers.
struct BarChart {
    /// What each bar counted.
    struct Bar {
        let done: Int
        /// Retried or failed.
        let failed: Int
        let dead: Int

        var failures: Int { failed + dead }
    }

    let bars: [Bar]
    let window: ChartWindow
    let label: String

    private static let width = 240.0
    private static let left = 30.0
    private static let top = 2.0
    private static let doneHeight = 34.0
    private static let gap = 2.0
    private static let failureHeight = 16.0
    private static var axis: Double { top + doneHeight }
    private static var bottom: Double { axis + gap + failureHeight }
    private static var height: Double { bottom + 12 }

    /// The `<svg>` element; only numbers and the escaped label go into it.
    var svg: String {
        let peakDone = bars.map(\.done).max() ?? 0
        let peakFailures = bars.map(\.failures).max() ?? 0
        let slot = (Self.width - Self.left) / Double(max(bars.count, 1))
        let barWidth = max(slot - (slot > 2 ? 0.5 : 0), 0.5)
        var shapes = ""
        for (index, bar) in bars.enumerated() {
            let x = Self.left + Double(index) * slot
            if bar.done > 0 {
                let height = Self.scaled(bar.done, of: peakDone, into: Self.doneHeight)
                shapes += Self.rect("bar", x: x, y: Self.axis - height, width: barWidth, height: height)
            }
            var y = Self.axis + Self.gap
            for (count, kind) in [(bar.failed, "fail"), (bar.dead, "dead")] where count > 0 {
                let height = Self.scaled(count, of: peakFailures, into: Self.failureHeight)
                shapes += Self.rect(kind, x: x, y: y, width: barWidth, height: height)
                y += height
            }
        }
        let axes =
            #"<path class="axis" d="M\#(Self.left) \#(Self.top)V\#(Self.bottom)M\#(Self.left) \#(Self.axis + Self.gap / 2)H\#(Self.width)"/>"#
            + Self.text(String(peakDone), x: Self.left - 2, y: Self.top + 6, anchor: "end")
            + Self.text(window.unit, x: Self.left - 2, y: Self.axis - 1, anchor: "end")
            + Self.text(String(peakFailures), x: Self.left - 2, y: Self.bottom, anchor: "end")
            + Self.text(window.start, x: Self.left, y: Self.height - 1, anchor: "start")
            + Self.text(window.middle, x: (Self.left + Self.width) / 2, y: Self.height - 1, anchor: "middle")
            + Self.text("now", x: Self.width, y: Self.height - 1, anchor: "end")
        let done = bars.reduce(0) { $0 + $1.done }
        let failed = bars.reduce(0) { $0 + $1.failed }
        let dead = bars.reduce(0) { $0 + $1.dead }
        let title =
            "\(label): \(done) done, \(failed) failed, \(dead) dead; at most \(peakDone) done and \(peakFailures) failed \(window.unit)".xmlEscaped
        return
            #"<svg class="chart" viewBox="0 0 \#(Self.width) \#(Self.height)" role="img" aria-label="\#(title)"><title>\#(title)</title>\#(axes)\#(shapes)</svg>"#
    }

    /// A count's bar, at least half a unit high so that one failure beside a thousand still shows.
    private static func scaled(_ count: Int, of peak: Int, into height: Double) -> Double {
        max(Double(count) / Double(max(peak, 1)) * height, 0.5)
    }

    private static func rect(_ kind: String, x: Double, y: Double, width: Double, height: Double) -> String {
        #"<rect class="\#(kind)" x="\#(format(x))" y="\#(format(y))" width="\#(format(width))" height="\#(format(height))"/>"#
    }

    private static func text(_ text: String, x: Double, y: Double, anchor: String) -> String {
        #"<text x="\#(format(x))" y="\#(format(y))" text-anchor="\#(anchor)">\#(text.xmlEscaped)</text>"#
    }

    private static func format(_ value: Double) -> String {
        String(Double((value * 10).rounded()) / 10)
    }
}
