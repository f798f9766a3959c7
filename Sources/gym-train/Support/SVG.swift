/// A minimal SVG writer for charts that are not line charts (the
/// tournament's rating chart): shapes and text in user units, serialised in
/// insertion order (so identical input gives an identical file). Tick values
/// and text escaping are ``SVGChart``'s, shared with the learning curves.
struct SVG {
    let width: Double
    let height: Double
    private var body: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil) {
        body.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(fill)\"\(stroke.map { " stroke=\"\($0)\"" } ?? "")/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil) {
        body.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>")
    }

    mutating func circle(cx: Double, cy: Double, r: Double, fill: String) {
        body.append("<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"\(fill)\"/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5) {
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"/>")
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(_ s: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start,
                       weight: String = "normal", fill: String = "#222") {
        body.append("<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(SVGChart.escape(s))</text>")
    }

    /// The document.
    var document: String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"sans-serif\">\n"
        for element in body { out += "  " + element + "\n" }
        return out + "</svg>\n"
    }

    /// A coordinate with two decimals (stable text, small files).
    private func n(_ x: Double) -> String {
        let r = (x * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
