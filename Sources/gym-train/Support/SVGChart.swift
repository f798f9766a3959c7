import Foundation

/// A small SVG line chart: stacked panels sharing one x axis, each with
/// any number of series, nice tick labels and a legend. Self-contained
/// SVG 1.1 text (opens in any browser).
struct SVGChart {
    struct Series {
        var name: String
        var color: String
        var points: [(x: Double, y: Double)]
        var dashed = false
    }

    struct Panel {
        var title: String
        var yLabel: String
        var series: [Series]
        /// Fixed y range (nil: fit the data).
        var yRange: ClosedRange<Double>?
    }

    var title: String
    var xLabel: String
    var panels: [Panel]
    var width: Double = 760
    var panelHeight: Double = 260

    func render() -> String {
        let left = 70.0, right = 20.0, top = 40.0, gap = 50.0, bottom = 45.0
        let height = top + Double(panels.count) * panelHeight + Double(max(0, panels.count - 1)) * gap + bottom
        let allX = panels.flatMap { $0.series.flatMap { $0.points.map(\.x) } }
        let xr = Self.range(allX, fallback: 0 ... 1)
        let xTicks = Self.ticks(xr)
        let plotW = width - left - right
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(Int(width / 2))" y="20" text-anchor="middle" font-size="14">\(Self.escape(title))</text>

        """
        for (k, panel) in panels.enumerated() {
            let y0 = top + Double(k) * (panelHeight + gap)
            let plotH = panelHeight - 20
            let ys = panel.series.flatMap { $0.points.map(\.y) }
            let yr = panel.yRange ?? Self.range(ys, fallback: 0 ... 1)
            let yTicks = Self.ticks(yr)
            let yLow = min(yr.lowerBound, yTicks.first ?? yr.lowerBound)
            let yHigh = max(yr.upperBound, yTicks.last ?? yr.upperBound)
            let xLow = min(xr.lowerBound, xTicks.first ?? xr.lowerBound)
            let xHigh = max(xr.upperBound, xTicks.last ?? xr.upperBound)
            func px(_ x: Double) -> Double { left + (x - xLow) / max(xHigh - xLow, 1e-12) * plotW }
            func py(_ y: Double) -> Double { y0 + 20 + plotH - (y - yLow) / max(yHigh - yLow, 1e-12) * plotH }
            out += "<text x=\"\(Int(left))\" y=\"\(Int(y0 + 12))\" font-size=\"12\">\(Self.escape(panel.title))</text>\n"
            out += "<rect x=\"\(Int(left))\" y=\"\(Int(y0 + 20))\" width=\"\(Int(plotW))\" height=\"\(Int(plotH))\" fill=\"none\" stroke=\"#999\"/>\n"
            for t in yTicks where t >= yLow && t <= yHigh {
                let y = py(t)
                out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", left, y, left + plotW, y)
                out += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%@</text>\n", left - 5, y + 4, Self.label(t))
            }
            for t in xTicks where t >= xLow && t <= xHigh {
                let x = px(t)
                out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", x, y0 + 20, x, y0 + 20 + plotH)
                out += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>\n", x, y0 + 20 + plotH + 14, Self.label(t))
            }
            out += String(format: "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">%@</text>\n",
                          16.0, y0 + 20 + plotH / 2, Self.escape(panel.yLabel))
            for (s, series) in panel.series.enumerated() where !series.points.isEmpty {
                let path = series.points.map { String(format: "%.1f,%.1f", px($0.x), py($0.y)) }.joined(separator: " ")
                out += "<polyline fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"1.5\"\(series.dashed ? " stroke-dasharray=\"4 3\"" : "") points=\"\(path)\"/>\n"
                if series.points.count == 1, let p = series.points.first {
                    out += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%@\"/>\n", px(p.x), py(p.y), series.color)
                }
                let ly = y0 + 32 + Double(s) * 14
                out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"2\"/>\n",
                              left + 10, ly - 4, left + 28, ly - 4, series.color)
                out += String(format: "<text x=\"%.1f\" y=\"%.1f\">%@</text>\n", left + 32, ly, Self.escape(series.name))
            }
        }
        out += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>\n",
                      left + plotW / 2, height - 8, Self.escape(xLabel))
        out += "</svg>\n"
        return out
    }

    static func range(_ values: [Double], fallback: ClosedRange<Double>) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max() else { return fallback }
        if lo == hi { return (lo - 1) ... (hi + 1) }
        return lo ... hi
    }

    /// Round tick values over `r`: the step is the smallest 1, 2 or 5 × 10^k of
    /// at least a fifth of the span; ticks run from below `r` to within half a
    /// step of its top (the plot extends its range to the ticks).
    static func ticks(_ r: ClosedRange<Double>) -> [Double] {
        let span = r.upperBound - r.lowerBound
        guard span > 0, span.isFinite else { return [r.lowerBound] }
        let raw = span / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var t = floor(r.lowerBound / step) * step
        var out: [Double] = []
        while t <= r.upperBound + step * 0.5, out.count < 20 {
            out.append(t)
            t += step
        }
        return out
    }

    static func label(_ x: Double) -> String {
        let a = abs(x)
        if a >= 1e9 { return String(format: "%.3gG", x / 1e9) }
        if a >= 1e6 { return String(format: "%.3gM", x / 1e6) }
        if a >= 1e4 { return String(format: "%.3gk", x / 1e3) }
        return String(format: "%.3g", x)
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
