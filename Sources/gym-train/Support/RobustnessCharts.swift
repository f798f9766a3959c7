import Foundation

/// The robustness report's two SVGs: a heatmap of the headline score
/// (agents × rules, the classic column outlined) and one panel per rule
/// parameter with each agent's score against the parameter's value (95%
/// intervals as whiskers, the classic value a dashed line).
enum RobustnessCharts {
    /// Series colours, one per agent (cycled).
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    /// Rows `rows`, columns `columns` (the first the classic rules), `values[row][column]`;
    /// shade from the lowest (light) to the highest (dark) value, each printed in its cell.
    static func heatmap(title: String, rows: [String], columns: [String], values: [[Double?]]) -> String {
        let cellW = max(70, 7.0 * Double(columns.map(\.count).max() ?? 0) + 12), cellH = 34.0
        let left = min(420, 7.0 * Double(rows.map(\.count).max() ?? 0) + 20), top = 70.0
        var svg = SVG(width: max(left + cellW * Double(columns.count) + 20, 7.5 * Double(title.count) + 20),
                      height: top + cellH * Double(rows.count) + 40)
        svg.rect(x: 0, y: 0, width: svg.width, height: svg.height, fill: "white")
        svg.text(title, x: svg.width / 2, y: 22, size: 14, anchor: .middle)
        svg.text("agent", x: 8, y: top - 10, size: 11, weight: "bold")
        svg.text("rules →", x: left, y: 44, size: 11, weight: "bold")
        let finite = values.flatMap { $0 }.compactMap { $0 }
        let lo = finite.min() ?? 0, hi = finite.max() ?? 1
        for (c, name) in columns.enumerated() {
            svg.text(name, x: left + cellW * (Double(c) + 0.5), y: top - 10, size: 11, anchor: .middle,
                     weight: c == 0 ? "bold" : "normal")
        }
        for (r, name) in rows.enumerated() {
            svg.text(name, x: left - 8, y: top + cellH * (Double(r) + 0.6), size: 11, anchor: .end)
            for (c, v) in values[r].enumerated() {
                let t = v.map { hi > lo ? ($0 - lo) / (hi - lo) : 0.5 } ?? 0
                let shade = Int((235 - 170 * t).rounded())
                svg.rect(x: left + cellW * Double(c), y: top + cellH * Double(r), width: cellW, height: cellH,
                         fill: v == nil ? "#eee" : "rgb(\(shade),\(shade),255)", stroke: "white")
                svg.text(v.map { String(format: "%.3g", $0) } ?? "n/a", x: left + cellW * (Double(c) + 0.5),
                         y: top + cellH * (Double(r) + 0.6), size: 11, anchor: .middle, fill: t > 0.6 ? "white" : "#222")
            }
        }
        // The classic column, outlined.
        svg.rect(x: left, y: top, width: cellW, height: cellH * Double(rows.count), fill: "none", stroke: "#222")
        svg.text("classic = the run's base rules; darker = higher", x: left, y: top + cellH * Double(rows.count) + 22, size: 10)
        return svg.document
    }

    /// One panel per parameter `keys[k]`: per agent `curves[agent][k].points` (x, estimate, interval),
    /// the classic value `classic[k]` dashed. Panels share the y range.
    static func sensitivity(title: String, score: String, agents: [String], keys: [String],
                            curves: [[(key: String, points: [(x: Double, y: Double?, lower: Double?, upper: Double?)])]],
                            classic: [Double?]) -> String {
        let panelW = 300.0, panelH = 200.0, gapX = 70.0, gapY = 70.0, left = 70.0, top = 50.0
        let perRow = 2, panelRows = (keys.count + perRow - 1) / perRow
        let legendH = 18.0 * Double(agents.count) + 10
        var svg = SVG(width: left + Double(perRow) * (panelW + gapX), height: top + Double(panelRows) * (panelH + gapY) + legendH)
        svg.rect(x: 0, y: 0, width: svg.width, height: svg.height, fill: "white")
        svg.text(title, x: svg.width / 2, y: 24, size: 14, anchor: .middle)
        let ys = curves.flatMap { $0.flatMap { $0.points.flatMap { [$0.y, $0.lower, $0.upper].compactMap { $0 } } } }
        let yr = SVGChart.range(ys, fallback: 0 ... 1)
        for (k, key) in keys.enumerated() {
            let ox = left + Double(k % perRow) * (panelW + gapX), oy = top + Double(k / perRow) * (panelH + gapY)
            let xs = curves.flatMap { $0[k].points.map(\.x) }
            let xr = SVGChart.range(xs, fallback: 0 ... 1)
            func px(_ x: Double) -> Double { ox + (xr.upperBound > xr.lowerBound ? (x - xr.lowerBound) / (xr.upperBound - xr.lowerBound) : 0.5) * panelW }
            func py(_ y: Double) -> Double { oy + panelH - (yr.upperBound > yr.lowerBound ? (y - yr.lowerBound) / (yr.upperBound - yr.lowerBound) : 0.5) * panelH }
            svg.rect(x: ox, y: oy, width: panelW, height: panelH, fill: "none", stroke: "#999")
            for t in SVGChart.ticks(yr) {
                svg.line(x1: ox - 4, y1: py(t), x2: ox, y2: py(t), stroke: "#999")
                svg.text(SVGChart.label(t), x: ox - 6, y: py(t) + 4, size: 10, anchor: .end)
            }
            for x in Set(xs).sorted() {
                svg.line(x1: px(x), y1: oy + panelH, x2: px(x), y2: oy + panelH + 4, stroke: "#999")
                svg.text(SVGChart.label(x), x: px(x), y: oy + panelH + 16, size: 10, anchor: .middle)
            }
            svg.text(key, x: ox + panelW / 2, y: oy + panelH + 34, size: 12, anchor: .middle, weight: "bold")
            svg.text(score, x: ox - 40, y: oy - 8, size: 10)
            if let c = classic[k] {
                svg.line(x1: px(c), y1: oy, x2: px(c), y2: oy + panelH, stroke: "#555", dash: "4 3")
                svg.text("classic", x: px(c) + 3, y: oy + 12, size: 10, fill: "#555")
            }
            for (a, agentCurves) in curves.enumerated() {
                let color = palette[a % palette.count]
                let pts = agentCurves[k].points
                svg.polyline(pts.compactMap { p in p.y.map { (px(p.x), py($0)) } }, stroke: color)
                for p in pts {
                    if let l = p.lower, let u = p.upper { svg.line(x1: px(p.x), y1: py(l), x2: px(p.x), y2: py(u), stroke: color) }
                    if let y = p.y { svg.circle(cx: px(p.x), cy: py(y), r: 3, fill: color) }
                }
            }
        }
        let ly = top + Double(panelRows) * (panelH + gapY)
        for (a, agent) in agents.enumerated() {
            let y = ly + 18 * Double(a)
            svg.line(x1: left, y1: y, x2: left + 24, y2: y, stroke: palette[a % palette.count], width: 2)
            svg.text(agent, x: left + 30, y: y + 4, size: 11)
        }
        return svg.document
    }
}
