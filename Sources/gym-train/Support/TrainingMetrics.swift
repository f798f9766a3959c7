import Foundation

/// The rows of a training run's `metrics.csv`, one per iteration, and the
/// learning-curve plot drawn from them.
struct TrainingMetrics {
    struct Row: Equatable {
        var iteration: Int
        var envSteps: Int
        var wallSeconds: Double
        var meanReturn: Double, minReturn: Double, maxReturn: Double
        /// Evaluation score (Pong: point share vs the evaluation opponent), when evaluated.
        var evalScore: Double?
        var evalReturn: Double?
    }

    static let header = "iteration,env_steps,wall_seconds,mean_return,min_return,max_return,eval_score,eval_return"

    var rows: [Row] = []

    var csv: String {
        var out = Self.header + "\n"
        for r in rows {
            out += "\(r.iteration),\(r.envSteps),\(String(format: "%.3f", r.wallSeconds)),"
            out += "\(r.meanReturn),\(r.minReturn),\(r.maxReturn),"
            out += "\(r.evalScore.map { String($0) } ?? ""),\(r.evalReturn.map { String($0) } ?? "")\n"
        }
        return out
    }

    /// Reads a `metrics.csv` written by ``csv``, keeping the rows up to
    /// `iteration` (a resumed run continues from its checkpoint, which may
    /// be older than the last rows written).
    static func parse(_ text: String, upTo iteration: Int, path: String) throws -> TrainingMetrics {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first.map(String.init) == header else {
            throw CLIError("\(path) is not a metrics file written by gym-train train (unexpected header)")
        }
        lines.removeFirst()
        var metrics = TrainingMetrics()
        for (k, line) in lines.enumerated() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 8, let it = Int(f[0]), let steps = Int(f[1]), let wall = Double(f[2]),
                  let mean = Double(f[3]), let lo = Double(f[4]), let hi = Double(f[5]) else {
                throw CLIError("\(path): line \(k + 2) is malformed")
            }
            guard it <= iteration else { break }
            metrics.rows.append(Row(iteration: it, envSteps: steps, wallSeconds: wall, meanReturn: mean, minReturn: lo,
                                    maxReturn: hi, evalScore: Double(f[6]), evalReturn: Double(f[7])))
        }
        return metrics
    }

    /// The metrics a resumed run continues: the rows of `text` (the run's
    /// metrics.csv, nil when missing) up to the checkpoint's `iteration`,
    /// which must be exactly iterations 1 ... `iteration`. A file behind its
    /// checkpoint (rows lost, or the file truncated) is refused: the missing
    /// rows cannot be recomputed from the checkpoint.
    static func resuming(_ text: String?, at iteration: Int, path: String, folder: String) throws -> TrainingMetrics {
        let metrics = try text.map { try parse($0, upTo: iteration, path: path) } ?? TrainingMetrics()
        let have = metrics.rows.map(\.iteration)
        guard have != Array(stride(from: 1, through: iteration, by: 1)) else { return metrics }
        let what: String
        if text == nil {
            what = "\(path) is missing"
        } else if let missing = (1 ... iteration).first(where: { !have.contains($0) }) {
            what = "\(path) has no row for iteration \(missing) (its rows end at iteration \(have.last ?? 0))"
        } else {
            what = "the rows of \(path) are not iterations 1 ... \(iteration), one each"
        }
        throw CLIError("cannot resume \(folder): \(what) but checkpoint.json is at iteration \(iteration); "
            + "restore metrics.csv, or start the run again with --out \(folder) --overwrite")
    }

    /// The learning curve: training returns and the evaluation score
    /// against environment steps.
    func svg(title: String, scoreName: String) -> String {
        let x = { (r: Row) in Double(r.envSteps) }
        let evaluated = rows.filter { $0.evalScore != nil }
        let chart = SVGChart(title: title, xLabel: "environment steps", panels: [
            .init(title: "Training return per episode (population mean, min, max)", yLabel: "return", series: [
                .init(name: "mean", color: "#1f77b4", points: rows.map { (x($0), $0.meanReturn) }),
                .init(name: "min", color: "#9ecae1", points: rows.map { (x($0), $0.minReturn) }, dashed: true),
                .init(name: "max", color: "#08519c", points: rows.map { (x($0), $0.maxReturn) }, dashed: true),
            ]),
            .init(title: "Evaluation of the greedy policy: \(scoreName)", yLabel: "score", series: [
                .init(name: scoreName, color: "#d62728", points: evaluated.map { (x($0), $0.evalScore ?? 0) }),
            ], yRange: scoreName.hasPrefix("point share") ? 0 ... 1 : nil),
        ])
        return chart.render()
    }
}
