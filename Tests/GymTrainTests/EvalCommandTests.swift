import Foundation
import Testing

@Suite struct EvalCommandTests {
    @Test func evalWritesTheResultsFolder() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let r = try CLI.run(["eval", "--game", "pong", "--agent", "tracker", "--opponent", "random",
                             "--episodes", "6", "--workers", "2", "--seed", "3", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("win rate 1.000"))
        #expect(r.stdout.contains("whole games  won 6, lost 0 of 6 played to 11   whole-game win rate 1.000"))
        #expect(r.stdout.contains("truncated    0 at the 30000-step limit"))
        #expect(r.stdout.contains("steps/s") && r.stdout.contains("real time"))
        #expect(CLI.files(in: out) == [".gym-train-folder", "config.json", "episodes.csv", "run.json", "summary.json", "timing.json"])
        let csv = try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 7)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any]
        #expect(summary?["episodes"] as? Int == 6)
        #expect(summary?["wins"] as? Int == 6)
        #expect(summary?["wholeGameWins"] as? Int == 6)
        #expect(summary?["truncatedAhead"] as? Int == 0)
        // The written config reads back as a valid config.
        let check = try CLI.run(["config", "--config", out.appendingPathComponent("config.json").path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func sameSeedSameEpisodesWhateverTheWorkers() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var csvs: [String] = []
        for w in ["1", "2"] {
            let out = dir.appendingPathComponent("w\(w)")
            let r = try CLI.run(["eval", "--agent", "tracker:noise=1,reaction=3", "--opponent", "tracker:speed=0.5",
                                 "--episodes", "5", "--workers", w, "--out", out.path])
            #expect(r.status == 0, "\(r.stderr)")
            csvs.append(try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8))
        }
        #expect(csvs[0] == csvs[1])
    }

    /// `eval --variants SET`: episode `g` plays the rules its seed draws (those
    /// `config --draw SET` lists for the run's seed, as a tournament's games
    /// draw them), its record in matches.jsonl names them and replays
    /// identically under them, and 1 and 2 workers write the same files.
    @Test(arguments: [["--game", "pong", "--opponent", "tracker:speed=0.5", "--variants", "near"],
                      ["--game", "breakout", "--variants", "train"]])
    func anEvalUnderAVariantSetPlaysRecordsAndReplaysEachEpisodesRules(arguments: [String]) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var texts: [[String]] = []
        for w in ["1", "2"] {
            let out = dir.appendingPathComponent("w\(w)")
            let r = try CLI.run(["eval", "--agent", "tracker:noise=1", "--episodes", "4", "--seed", "4", "--workers", w,
                                 "--out", out.path] + arguments)
            #expect(r.status == 0, "\(r.stderr)")
            texts.append(try ["episodes.csv", "matches.jsonl", "summary.json"].map {
                try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8)
            })
        }
        #expect(texts[0] == texts[1], "1 and 2 workers differ")
        let set = arguments.last ?? ""
        let draw = try CLI.run(["config", "--draw", set, "--seed", "4", "--episodes", "4"] + arguments.prefix(2))
        #expect(draw.status == 0, "\(draw.stderr)")
        func values<S: StringProtocol>(_ line: S) -> String {
            guard let start = line.range(of: "\"values\":{") else { return "none" }
            return String(line[start.lowerBound...].prefix { $0 != "}" })
        }
        let drawn = draw.stdout.split(separator: "\n").map { values($0) }
        let lines = texts[0][1].split(separator: "\n")
        #expect(lines.count == 4 && drawn.count == 4)
        let file = dir.appendingPathComponent("w1/matches.jsonl")
        for (index, line) in lines.enumerated() {
            #expect(line.contains("\"rules\":{\"set\":\"\(set)\""), "\(line)")
            #expect(values(line) == drawn[index], "episode \(index): \(line) against the draw \(drawn[index])")
            let replay = try CLI.run(["render", "--replay", file.path, "--index", String(index), "--every", "1000",
                                      "--gif", dir.appendingPathComponent("g\(index).gif").path])
            #expect(replay.status == 0 && replay.stdout.contains("replay identical to the record"), "\(replay.stdout)\(replay.stderr)")
        }
        let rows = texts[0][0].split(separator: "\n")
        #expect(rows.count == 5 && rows[0].hasSuffix(",variant,rules"), "\(texts[0][0])")
    }

    @Test func badInputGetsOneLineAndNonZeroExit() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let badKey = dir.appendingPathComponent("bad.json")
        try #"{"paddleSped": 4}"#.write(to: badKey, atomically: true, encoding: .utf8)
        let range = dir.appendingPathComponent("range.json")
        try #"{"maxScore": 1000}"#.write(to: range, atomically: true, encoding: .utf8)
        let malformed = dir.appendingPathComponent("malformed.json")
        try "{\"maxScore\": 3,,}".write(to: malformed, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["eval", "--agent", "nobody"], "unknown agent \"nobody\""),
            (["eval", "--opponent", "tracker:reaction=-1"], "reaction=-1"),
            (["eval", "--config", badKey.path], "unknown key \"paddleSped\""),
            (["eval", "--config", range.path], "\"maxScore\" = 1000 is out of range; allowed: 1 ... 99"),
            (["eval", "--config", malformed.path], "malformed JSON at line 1, column 16"),
            (["eval", "--config", dir.appendingPathComponent("missing.json").path], "cannot read config file"),
            (["eval", "--preset", "turbo"], "unknown pong preset \"turbo\""),
            (["eval", "--episodes", "0"], "--episodes 0 is out of range"),
            (["config", "--config", badKey.path], "unknown key"),
        ]
        for (args, expected) in cases {
            let extra = args[0] == "eval" ? ["--out", dir.appendingPathComponent("never").path] : []
            let r = try CLI.run(args + extra, in: dir)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(expected), "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.contains("--help") }
            #expect(lines.count == 1, "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
        }
        // Nothing was written for the failed runs.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("never").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Results").path))
    }

    @Test func evalBreakoutWritesTheResultsFolder() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let r = try CLI.run(["eval", "--game", "breakout", "--agent", "tracker", "--episodes", "4", "--workers", "2",
                             "--seed", "5", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("eval breakout: tracker, 4 episodes"))
        #expect(r.stdout.contains("95% CI") && r.stdout.contains("steps/s") && r.stdout.contains("real time"))
        #expect(CLI.files(in: out) == [".gym-train-folder", "config.json", "episodes.csv", "run.json", "summary.json", "timing.json"])
        let csv = try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 5)
        #expect(csv.hasPrefix("episode,seed,score,steps,end,levels_cleared,lives_lost"))
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any]
        #expect(summary?["game"] as? String == "breakout" && summary?["episodes"] as? Int == 4)
        #expect(summary?["meanScore95"] as? [Double] != nil && summary?["clearRate"] as? Double != nil)
        let check = try CLI.run(["config", "--game", "breakout", "--config", out.appendingPathComponent("config.json").path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func badBreakoutConfigGetsOneLineAndNonZeroExit() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let layout = dir.appendingPathComponent("layout.json")
        try "{\"brickRows\": 1, \"rowValues\": [1], \"layout\": [\"##Q#######\"]}".write(to: layout, atomically: true, encoding: .utf8)
        let width = dir.appendingPathComponent("width.json")
        try "{\"brickRows\": 1, \"rowValues\": [1], \"layout\": [\"###\"]}".write(to: width, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["config", "--game", "breakout", "--config", layout.path], "has the unknown character \"Q\" at column 3"),
            (["eval", "--game", "breakout", "--config", width.path], "has 3 characters; every row needs brickColumns = 10"),
            (["eval", "--game", "breakout", "--preset", "arcade"], "unknown breakout preset \"arcade\""),
            (["eval", "--game", "breakout", "--agent", "constant:action=4"], "Breakout actions are 0 ... 3"),
        ]
        for (args, expected) in cases {
            let extra = args[0] == "eval" ? ["--out", dir.appendingPathComponent("never").path] : []
            let r = try CLI.run(args + extra)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(expected), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("never").path))
    }
}
