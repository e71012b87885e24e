import WebReader

/// A small bar chart drawn as SVG on the server: one bar a minute, its failures stacked on top in another colour. The
/// picture says in words what it shows (`role="img"` and a title), for screen readers.
struct BarChart {
    /// What each minute counted: done (succeeded) and failed (retried, failed or dead).
    struct Minute {
        let done: Int
        let failed: Int
    }

    let minutes: [Minute]
    let label: String

    /// The `<svg>` element; only numbers and the escaped label go into it.
    var svg: String {
        let width = 300.0
        let height = 60.0
        let peak = Double(max(minutes.map { $0.done + $0.failed }.max() ?? 0, 1))
        let slot = width / Double(max(minutes.count, 1))
        var bars = ""
        for (index, minute) in minutes.enumerated() {
            let x = Double(index) * slot
            let doneHeight = Double(minute.done) / peak * height
            let failedHeight = Double(minute.failed) / peak * height
            let barWidth = max(slot - 1, 1)
            if minute.done > 0 {
                bars +=
                    #"<rect class="bar" x="\#(format(x))" y="\#(format(height - doneHeight))" width="\#(format(barWidth))" height="\#(format(doneHeight))"/>"#
            }
            if minute.failed > 0 {
                bars +=
                    #"<rect class="fail" x="\#(format(x))" y="\#(format(height - doneHeight - failedHeight))" width="\#(format(barWidth))" height="\#(format(failedHeight))"/>"#
            }
        }
        let total = minutes.reduce(0) { $0 + $1.done }
        let failures = minutes.reduce(0) { $0 + $1.failed }
        let title = "\(label): \(total) done, \(failures) failed, peak \(Int(peak)) a minute".xmlEscaped
        return
            #"<svg class="chart" viewBox="0 0 300 60" preserveAspectRatio="none" role="img" aria-label="\#(title)"><title>\#(title)</title>\#(bars)</svg>"#
    }

    private func format(_ value: Double) -> String {
        String(Double((value * 10).rounded()) / 10)
    }
}
