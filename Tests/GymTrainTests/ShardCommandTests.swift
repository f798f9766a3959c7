import Foundation
import Testing

/// `--shard K/N` and `merge`: three shards (on different worker counts),
/// merged, give the unsharded run's files byte for byte (run.json and
/// timing.json aside), and merge refuses shards that are not one run.
@Suite struct ShardCommandTests {
    /// Files not compared between two runs of one configuration: provenance, wall time, the (empty) folder marker.
    static let uncompared: Set<String> = ["run.json", "timing.json", ".gym-train-folder"]

    /// Runs `arguments` whole (4 workers) and as 3 shards (workers 1, 2, 3), merges
    /// the shards given out of order, and returns the whole and the merged folders.
    static func wholeAndMerged(_ arguments: [String], in dir: URL) throws -> (whole: URL, merged: URL) {
        let whole = dir.appendingPathComponent("whole"), merged = dir.appendingPathComponent("merged")
        let r = try CLI.run(arguments + ["--workers", "4", "--out", whole.path])
        #expect(r.status == 0, "\(r.stderr)")
        var shards: [String] = []
        for k in 1 ... 3 {
            let out = dir.appendingPathComponent("shard\(k)")
            let s = try CLI.run(arguments + ["--workers", "\(k)", "--shard", "\(k)/3", "--out", out.path])
            #expect(s.status == 0, "\(s.stderr)")
            #expect(CLI.files(in: out).contains("records.jsonl"))
            shards.append(out.path)
        }
        let m = try CLI.run(["merge", "--out", merged.path, shards[2], shards[0], shards[1]])
        #expect(m.status == 0, "\(m.stderr)")
        return (whole, merged)
    }

    /// Every file of `whole` but the uncompared ones is in `merged` with the same bytes.
    static func expectIdentical(_ whole: URL, _ merged: URL, comparing expected: [String]) throws {
        #expect(CLI.files(in: whole) == CLI.files(in: merged))
        let compared = CLI.files(in: whole).filter { !uncompared.contains($0) }
        #expect(compared == expected.sorted())
        for name in compared {
            let a = try Data(contentsOf: whole.appendingPathComponent(name))
            let b = try Data(contentsOf: merged.appendingPathComponent(name))
            #expect(!a.isEmpty)
            #expect(a == b, "\(name) differs between the whole run and the merged shards")
        }
    }

    @Test func pongEvalMergesToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["eval", "--agent", "tracker:noise=1,reaction=3", "--opponent", "tracker:speed=0.5",
                    "--episodes", "7", "--seed", "5"]
        let (whole, merged) = try Self.wholeAndMerged(args, in: dir)
        try Self.expectIdentical(whole, merged, comparing: ["config.json", "episodes.csv", "summary.json"])
        let csv = try String(contentsOf: merged.appendingPathComponent("episodes.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 8)
    }

    @Test func breakoutEvalMergesToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["eval", "--game", "breakout", "--agent", "tracker:noise=2", "--episodes", "5", "--seed", "9"]
        let (whole, merged) = try Self.wholeAndMerged(args, in: dir)
        try Self.expectIdentical(whole, merged, comparing: ["config.json", "episodes.csv", "summary.json"])
    }

    static let tournamentFiles = ["config.json", "matches.jsonl", "matrix.csv", "ratings.csv", "ratings.svg", "summary.json"]

    @Test func pongRoundRobinMergesToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["tournament", "--agent", "random", "--agent", "tracker", "--agent", "tracker:noise=2,name=T2",
                    "--pairs", "2", "--bootstrap", "40", "--seed", "4"]
        let (whole, merged) = try Self.wholeAndMerged(args, in: dir)
        try Self.expectIdentical(whole, merged, comparing: Self.tournamentFiles)
        let lines = try String(contentsOf: merged.appendingPathComponent("matches.jsonl"), encoding: .utf8)
        #expect(lines.split(separator: "\n").count == 12)
    }

    @Test func breakoutGauntletMergesToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["tournament", "--game", "breakout", "--mode", "gauntlet", "--candidate", "tracker",
                    "--agent", "random", "--agent", "tracker:noise=3", "--episodes", "4", "--bootstrap", "30"]
        let (whole, merged) = try Self.wholeAndMerged(args, in: dir)
        try Self.expectIdentical(whole, merged, comparing: Self.tournamentFiles + ["scores.csv"])
    }

    static let scenarios = """
    { "game": "pong", "preset": "fast", "seed": 9,
      "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 6 },
                     { "name": "even", "a": "tracker", "b": "tracker:noise=1", "games": 4 } ] }
    """

    /// `balance record` whole and as 3 shards give the same baseline; `balance check`
    /// under other rules, whole and merged, prints the same table and fails alike.
    @Test func balanceRecordAndCheckMergeToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tiny.json")
        try Data(Self.scenarios.utf8).write(to: file)
        let baselines = dir.appendingPathComponent("baselines")
        let record = try CLI.run(["balance", "record", "--scenarios", "tiny.json", "--baselines", baselines.path],
                                 in: dir)
        #expect(record.status == 0, "\(record.stderr)")
        for sub in ["record", "check"] {
            var shards: [String] = []
            for k in 1 ... 3 {
                let out = dir.appendingPathComponent("\(sub)\(k)").path
                let r = try CLI.run(["balance", sub, "--scenarios", "tiny.json", "--baselines", baselines.path,
                                     "--shard", "\(k)/3", "--workers", "\(k)", "--out", out]
                                    + (sub == "check" ? ["--preset", "classic"] : []), in: dir)
                #expect(r.status == 0, "\(r.stderr)")
                shards.append(out)
            }
            let merged = dir.appendingPathComponent("merged-\(sub)")
            let m = try CLI.run(["merge", "--out", merged.path, shards[1], shards[2], shards[0]], in: dir)
            if sub == "record" {
                #expect(m.status == 0, "\(m.stderr)")
                let whole = try Data(contentsOf: baselines.appendingPathComponent("tiny.json"))
                #expect(!whole.isEmpty)
                #expect(try Data(contentsOf: merged.appendingPathComponent("tiny.json")) == whole)
            } else {
                let whole = try CLI.run(["balance", "check", "--scenarios", "tiny.json", "--baselines", baselines.path,
                                         "--preset", "classic"], in: dir)
                #expect(whole.status == 1 && m.status == 1, "\(whole.stderr) \(m.stderr)")
                #expect(whole.stdout.contains("FAIL tiny.json"))
                #expect(m.stdout == whole.stdout)
            }
        }
    }

    @Test func sweepMergesToTheWholeSweepAndNamesBadGridValues() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tiny.json")
        try Data("""
        { "game": "pong", "preset": "fast", "seed": 9,
          "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 4 } ] }
        """.utf8).write(to: file)
        let args = ["sweep", "--scenarios", file.path, "--grid", "paddleWidth=40,56", "--grid", "serveSpeed=2,3"]
        let (whole, merged) = try Self.wholeAndMerged(args, in: dir)
        let heatmaps = ["gameLength", "pointSpeed", "pointsPerGame", "rallyLength", "receiverWinRate",
                        "truncationRate", "winRateA"].map { "heatmap-gap-\($0).svg" }
        try Self.expectIdentical(whole, merged, comparing: heatmaps + ["sweep.csv", "sweep.json"])
        let csv = try String(contentsOf: whole.appendingPathComponent("sweep.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 4 * 7)
        let bad = try CLI.run(["sweep", "--scenarios", file.path, "--grid", "paddleWidth=40,500"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("\"paddleWidth\" = 500 is out of range; allowed: 8 ... 256"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    /// `tournament --variants SET --shard K/N`: the merged files, each game's
    /// rules in matches.jsonl included, are the whole run's byte for byte.
    @Test(arguments: [
        ["tournament", "--agent", "tracker", "--agent", "tracker:noise=2", "--agent", "random", "--pairs", "2",
         "--bootstrap", "20", "--seed", "3", "--variants", "train"],
        ["tournament", "--game", "breakout", "--mode", "gauntlet", "--candidate", "tracker", "--agent", "random",
         "--agent", "tracker:noise=3", "--episodes", "3", "--bootstrap", "20", "--variants", "far"],
    ])
    func aTournamentUnderVariantsMergesToTheWholeRun(arguments: [String]) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (whole, merged) = try Self.wholeAndMerged(arguments, in: dir)
        try Self.expectIdentical(whole, merged,
                                 comparing: Self.tournamentFiles + (arguments.contains("breakout") ? ["scores.csv"] : []))
        let set = arguments.last ?? ""
        let lines = try String(contentsOf: merged.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == (arguments.contains("breakout") ? 9 : 12))
        for line in lines { #expect(line.contains("\"rules\":{\"set\":\"\(set)\""), "\(line)") }
    }

    /// `eval --variants SET` with a variant file of its own, whole (2 workers)
    /// and as 2 shards (1 and 2 workers): the shards carry the file's text, so
    /// they merge to the whole run's files even once the file is gone.
    @Test(arguments: [["--game", "pong", "--opponent", "tracker:speed=0.5"], ["--game", "breakout"]])
    func anEvalUnderAVariantFileMergesToTheWholeRunWithoutTheFile(game: [String]) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("v.json")
        let pong = game.contains("pong")
        let key = pong ? "paddleWidth" : "paddleSpeed", low = pong ? 40 : 5, high = pong ? 90 : 9
        try Data("""
        { "game": "\(pong ? "pong" : "breakout")", "version": 3, "preset": "classic", "sets": {
          "train": { "sampling": "uniform", "ranges": { "\(key)": [\(low), \(high)] } },
          "near": { "sampling": "uniform", "points": [ { "name": "n", "values": { "\(key)": \(low + 1) } } ] },
          "far": { "sampling": "uniform", "points": [ { "name": "f", "values": { "\(key)": \(high + 1) } } ] } } }
        """.utf8).write(to: file)
        let args = ["eval", "--agent", "tracker:noise=1", "--episodes", "5", "--seed", "8", "--variants", "train",
                    "--variants-file", "v.json"] + game
        let whole = dir.appendingPathComponent("whole"), merged = dir.appendingPathComponent("merged")
        let w = try CLI.run(args + ["--workers", "2", "--out", whole.path], in: dir)
        #expect(w.status == 0, "\(w.stderr)")
        var shards: [String] = []
        for k in 1 ... 2 {
            let out = dir.appendingPathComponent("shard\(k)")
            let s = try CLI.run(args + ["--workers", "\(k)", "--shard", "\(k)/2", "--out", out.path], in: dir)
            #expect(s.status == 0, "\(s.stderr)")
            shards.append(out.path)
        }
        try FileManager.default.removeItem(at: file)
        let m = try CLI.run(["merge", "--out", merged.path, shards[1], shards[0]], in: dir)
        #expect(m.status == 0, "\(m.stderr)")
        try Self.expectIdentical(whole, merged, comparing: ["config.json", "episodes.csv", "matches.jsonl", "summary.json"])
        let lines = try String(contentsOf: merged.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        var values: Set<String> = []
        for line in lines {
            #expect(line.contains("\"rules\":{\"set\":\"train\",\"file\":\"v.json\",\"version\":3"), "\(line)")
            values.insert(String(line[line.range(of: "\"values\"")!.lowerBound...]))
        }
        #expect(values.count == 5, "every episode draws its own rules from its seed")
        let csv = try String(contentsOf: merged.appendingPathComponent("episodes.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("episode,") && csv.split(separator: "\n")[0].hasSuffix(",variant,rules"), "\(csv)")
    }

    @Test func sprtRefusesShards() throws {
        let r = try CLI.run(["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random",
                             "--shard", "1/2"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--shard 1/2 is for --mode round-robin or gauntlet"), "\(r.stderr)")
    }

    @Test func mergeRefusesShardsThatAreNotOneRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func shard(_ name: String, _ k: Int, _ extra: [String] = []) throws -> String {
            let out = dir.appendingPathComponent(name)
            let r = try CLI.run(["eval", "--episodes", "4", "--seed", "2", "--shard", "\(k)/3", "--out", out.path] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return out.path
        }
        let s1 = try shard("s1", 1), s2 = try shard("s2", 2), s3 = try shard("s3", 3)
        let otherSeed = try shard("seed", 3, ["--seed", "3"])
        let otherConfig = try shard("config", 3, ["--preset", "fast"])
        let cases: [([String], String)] = [
            ([s1, s2, otherSeed], "seed"),
            ([s1, s2, otherConfig], "config"),
            ([s1, s2], "missing shard 3/3"),
            ([s1, s2, s2, s3], "given twice"),
        ]
        for (folders, reason) in cases {
            let r = try CLI.run(["merge", "--out", dir.appendingPathComponent("m").path] + folders)
            #expect(r.status != 0)
            #expect(r.stderr.contains(reason), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        let ok = try CLI.run(["merge", "--out", dir.appendingPathComponent("ok").path, s1, s2, s3])
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
