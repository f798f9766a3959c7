import Agents

/// The tournament's chart: one row per agent (best first), its rating as a
/// dot and its confidence interval as a bar, on a shared Elo axis.
enum RatingChart {
    static func svg(title: String, names: [String], ratings: [RatedAgent], level: Double) -> String {
        let ranked = ratings.ranked
        let labelWidth = 240.0, plotWidth = 520.0, rowHeight = 28.0, top = 56.0, bottomMargin = 48.0
        let width = labelWidth + plotWidth + 40
        let height = top + rowHeight * Double(ranked.count) + bottomMargin
        var lo = ranked.map(\.low).min() ?? -100, hi = ranked.map(\.high).max() ?? 100
        if hi - lo < 1 { lo -= 50; hi += 50 }
        let pad = (hi - lo) * 0.05
        lo -= pad; hi += pad
        func x(_ elo: Double) -> Double { labelWidth + (elo - lo) / (hi - lo) * plotWidth }
        var svg = SVG(width: width, height: height)
        svg.rect(x: 0, y: 0, width: width, height: height, fill: "#ffffff")
        svg.text(title, x: width / 2, y: 22, size: 15, anchor: .middle, weight: "bold")
        svg.text("Bradley–Terry rating (Elo scale, mean 0) with \(Int((level * 100).rounded()))% bootstrap interval",
                 x: width / 2, y: 40, size: 11, anchor: .middle, fill: "#555")
        let plotBottom = top + rowHeight * Double(ranked.count)
        for t in SVGChart.ticks(lo ... hi) where t >= lo && t <= hi {
            svg.line(x1: x(t), y1: top - 6, x2: x(t), y2: plotBottom, stroke: t == 0 ? "#999" : "#e4e4e4")
            svg.text(String(Int(t.rounded())), x: x(t), y: plotBottom + 16, size: 10, anchor: .middle, fill: "#555")
        }
        svg.text("Elo", x: labelWidth + plotWidth / 2, y: plotBottom + 34, size: 11, anchor: .middle, fill: "#555")
        for (row, r) in ranked.enumerated() {
            let y = top + rowHeight * (Double(row) + 0.5)
            svg.text("\(row + 1). \(names[r.index])", x: labelWidth - 10, y: y + 4, size: 12, anchor: .end)
            svg.line(x1: x(r.low), y1: y, x2: x(r.high), y2: y, stroke: "#4878a8", width: 4)
            svg.line(x1: x(r.low), y1: y - 6, x2: x(r.low), y2: y + 6, stroke: "#4878a8", width: 1.5)
            svg.line(x1: x(r.high), y1: y - 6, x2: x(r.high), y2: y + 6, stroke: "#4878a8", width: 1.5)
            svg.circle(cx: x(r.elo), cy: y, r: 5, fill: "#c0392b")
            svg.text(String(Int(r.elo.rounded())), x: x(r.high) + 8, y: y + 4, size: 10, fill: "#333")
        }
        return svg.document
    }
}
