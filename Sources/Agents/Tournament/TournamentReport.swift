import Gym

/// A finished tournament's tables: the ranked ratings and the win/draw/loss
/// matrix, as Markdown (printed), CSV and JSON (written).
public struct TournamentReport: Sendable {
    public var names: [String]
    public var specs: [String]
    public var outcomes: PairwiseOutcomes
    public var ratings: [RatedAgent]
    public var level: Double

    public init(names: [String], specs: [String], outcomes: PairwiseOutcomes, ratings: [RatedAgent], level: Double) {
        self.names = names; self.specs = specs; self.outcomes = outcomes; self.ratings = ratings; self.level = level
    }

    var percent: String { "\(Int((level * 100).rounded()))%" }

    /// The ranking: rank, agent, rating, interval, games, score share, W-D-L.
    public var rankingMarkdown: String {
        var out = "| rank | agent | Elo | \(percent) CI | games | score | W-D-L |\n|---:|---|---:|---|---:|---:|---|\n"
        for (rank, r) in ratings.ranked.enumerated() {
            let t = outcomes.totals(r.index)
            let wdl = wdlTotals(r.index)
            out += "| \(rank + 1) | \(names[r.index]) | \(f0(r.elo)) | [\(f0(r.low)), \(f0(r.high))] | \(t.games) | "
            out += "\(t.games > 0 ? f3(t.score / Double(t.games)) : "-") | \(wdl.0)-\(wdl.1)-\(wdl.2) |\n"
        }
        return out
    }

    /// Row agent's wins-draws-losses against each column agent (ranked order).
    public var matrixMarkdown: String {
        let order = ratings.ranked.map(\.index)
        var out = "| W-D-L (row vs column) | " + order.map { names[$0] }.joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: order.count) + "\n"
        for i in order {
            out += "| \(names[i]) | "
            out += order.map { j in
                if i == j { return "—" }
                let r = outcomes.record(i, j)
                return r.wins + r.draws + r.losses == 0 ? "" : "\(r.wins)-\(r.draws)-\(r.losses)"
            }.joined(separator: " | ")
            out += " |\n"
        }
        return out
    }

    public var ratingsCSV: String {
        var out = CSV.row(["rank", "agent", "spec", "elo", "low", "high", "games", "score", "wins", "draws", "losses"])
        for (rank, r) in ratings.ranked.enumerated() {
            let t = outcomes.totals(r.index)
            let wdl = wdlTotals(r.index)
            out += CSV.row([String(rank + 1), names[r.index], specs[r.index], "\(r.elo)", "\(r.low)", "\(r.high)",
                            String(t.games), "\(t.score)", String(wdl.0), String(wdl.1), String(wdl.2)])
        }
        return out
    }

    /// One row per ordered pair that met: row agent, column agent, W, D, L.
    public var matrixCSV: String {
        var out = CSV.row(["agent", "opponent", "wins", "draws", "losses"])
        for i in 0 ..< names.count {
            for j in 0 ..< names.count where i != j {
                let r = outcomes.record(i, j)
                if r.wins + r.draws + r.losses > 0 {
                    out += CSV.row([names[i], names[j], String(r.wins), String(r.draws), String(r.losses)])
                }
            }
        }
        return out
    }

    public var json: JSONValue {
        .object([
            ("level", .number(level)),
            ("ranking", .array(ratings.ranked.enumerated().map { rank, r in
                let t = outcomes.totals(r.index)
                let wdl = wdlTotals(r.index)
                return .object([
                    ("rank", .number(rank + 1)), ("agent", .string(names[r.index])), ("spec", .string(specs[r.index])),
                    ("elo", .number(r.elo)), ("low", .number(r.low)), ("high", .number(r.high)),
                    ("games", .number(t.games)), ("score", .number(t.score)),
                    ("wins", .number(wdl.0)), ("draws", .number(wdl.1)), ("losses", .number(wdl.2)),
                ])
            })),
            ("matrix", .array(outcomes.pairings.map { p in
                .object([("agent", .string(names[p.a])), ("opponent", .string(names[p.b])),
                         ("wins", .number(p.wins)), ("draws", .number(p.draws)), ("losses", .number(p.losses)),
                         ("units", .number(p.unitScores.count))])
            })),
        ])
    }

    func wdlTotals(_ i: Int) -> (Int, Int, Int) {
        var w = 0, d = 0, l = 0
        for j in 0 ..< names.count where j != i {
            let r = outcomes.record(i, j)
            w += r.wins; d += r.draws; l += r.losses
        }
        return (w, d, l)
    }
}

func f0(_ x: Double) -> String {
    guard x.isFinite else { return x > 0 ? "inf" : "-inf" }
    let r = Int(x.rounded())
    return r > 0 ? "+\(r)" : String(r)
}

func f3(_ x: Double) -> String {
    let r = (x * 1000).rounded() / 1000
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let decimals = s.distance(from: dot, to: s.endIndex) - 1
        if decimals < 3 { s += String(repeating: "0", count: 3 - decimals) }
    }
    return s
}
