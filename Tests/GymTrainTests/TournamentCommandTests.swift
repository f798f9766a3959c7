import Foundation
import Testing

@Suite struct TournamentCommandTests {
    static let agents = ["--agent", "random", "--agent", "tracker:noise=4", "--agent", "tracker:noise=2,name=T2"]

    @Test func roundRobinWritesEveryOutputAndRanksAsExpected() throws {
        let dir = GymTrainProcess.temporaryFolder("rr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try GymTrainProcess.run(["tournament"] + Self.agents + ["--pairs", "6", "--seed", "3", "--workers", "2",
                                                                           "--bootstrap", "200", "--out", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        for file in ["ratings.csv", "matrix.csv", "summary.json", "matches.jsonl", "ratings.svg", "run.json", "config.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(file).path), "\(file)")
        }
        // The ranked Markdown table: T2, then noise=4, then random.
        let ranks = r.stdout.split(separator: "\n").filter { $0.hasPrefix("| 1 |") || $0.hasPrefix("| 2 |") || $0.hasPrefix("| 3 |") }
        #expect(ranks.count == 3)
        #expect(ranks.first?.contains("| T2 |") == true, "\(r.stdout)")
        #expect(ranks.last?.contains("| random |") == true, "\(r.stdout)")
        let lines = try String(contentsOf: dir.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 * 6 * 2)
        let svg = try String(contentsOf: dir.appendingPathComponent("ratings.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("T2"))
        let csv = try String(contentsOf: dir.appendingPathComponent("ratings.csv"), encoding: .utf8)
        #expect(csv.contains("\"tracker:noise=2,name=T2\""))   // specs with commas are quoted

        // Any match replays to the identical game.
        for index in [0, 13, 35] {
            let replay = try GymTrainProcess.run(["render", "--replay", dir.appendingPathComponent("matches.jsonl").path,
                                                  "--index", String(index), "--every", "1000", "--gif", dir.appendingPathComponent("m\(index).gif").path])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("replay identical to the record"), "\(replay.stdout)")
        }
        // A tampered record is caught.
        var tampered = String(lines[0])
        tampered = tampered.replacingOccurrences(of: "\"steps\":", with: "\"steps\":1")
        let bad = try GymTrainProcess.run(["render", "--replay", tampered, "--every", "1000", "--gif", dir.appendingPathComponent("x.gif").path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("replay differs from the record"), "\(bad.stderr)")
    }

    @Test func outputsAreIdenticalForOneAndSeveralWorkers() throws {
        let one = GymTrainProcess.temporaryFolder("w1"), two = GymTrainProcess.temporaryFolder("w3")
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        let common = ["tournament"] + Self.agents + ["--pairs", "4", "--seed", "8", "--bootstrap", "100"]
        let a = try GymTrainProcess.run(common + ["--workers", "1", "--out", one.path])
        let b = try GymTrainProcess.run(common + ["--workers", "3", "--out", two.path])
        #expect(a.status == 0 && b.status == 0)
        for file in ["ratings.csv", "matrix.csv", "summary.json", "matches.jsonl", "ratings.svg"] {
            let x = try Data(contentsOf: one.appendingPathComponent(file)), y = try Data(contentsOf: two.appendingPathComponent(file))
            #expect(x == y, "\(file) differs between 1 and 3 workers")
        }
    }

    @Test func gauntletPlaysTheCandidateAgainstTheField() throws {
        let dir = GymTrainProcess.temporaryFolder("g")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try GymTrainProcess.run(["tournament", "--mode", "gauntlet", "--candidate", "tracker:noise=2",
                                         "--agent", "random", "--agent", "tracker:noise=4", "--pairs", "3",
                                         "--bootstrap", "50", "--out", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2 pairings × 3 pairs × 2 sides = 12 games"), "\(r.stdout)")
    }

    @Test func breakoutDuplicateTournamentRanksTheTrackerFirst() throws {
        let dir = GymTrainProcess.temporaryFolder("bo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try GymTrainProcess.run(["tournament", "--game", "breakout", "--agent", "random", "--agent", "tracker",
                                         "--agent", "constant:action=0", "--episodes", "4", "--bootstrap", "50", "--out", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("| 1 | tracker |"), "\(r.stdout)")
        let lines = try String(contentsOf: dir.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 * 4)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("scores.csv").path))
        // A Breakout episode replays from its record too.
        let replay = try GymTrainProcess.run(["render", "--replay", dir.appendingPathComponent("matches.jsonl").path,
                                              "--index", "5", "--every", "1000", "--gif", dir.appendingPathComponent("b5.gif").path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("replay identical to the record"), "\(replay.stdout)")
    }

    @Test func sprtExitsZeroForABetterCandidateAndOneForAWorse() throws {
        let dir = GymTrainProcess.temporaryFolder("sprt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let common = ["tournament", "--mode", "sprt", "--preset", "fast", "--max-pairs", "400", "--seed", "2"]
        let better = try GymTrainProcess.run(common + ["--candidate", "tracker:noise=1.5", "--baseline", "tracker:noise=4",
                                                       "--out", dir.appendingPathComponent("a").path])
        #expect(better.status == 0, "\(better.stdout)\(better.stderr)")
        #expect(better.stdout.contains("H1 accepted"))
        let worse = try GymTrainProcess.run(common + ["--candidate", "tracker:noise=4", "--baseline", "tracker:noise=1.5",
                                                      "--out", dir.appendingPathComponent("b").path])
        #expect(worse.status == 1, "\(worse.stdout)\(worse.stderr)")
        #expect(worse.stdout.contains("H0 accepted"))
    }

    @Test(arguments: [
        (["tournament", "--agent", "random", "--agent", "robot"], "unknown agent \"robot\"; agents are: random, tracker, constant, linear, process"),
        (["tournament", "--agent", "random"], "round-robin needs at least two --agent options"),
        (["tournament", "--agent", "random", "--agent", "random"], "two agents are named \"random\""),
        (["tournament", "--agent", "random", "--agent", "tracker:noise=9"], "agent tracker: noise=9 is invalid; allowed: a number in 0.0 ... 4.0"),
        (["tournament", "--mode", "sprt", "--candidate", "tracker"], "--mode sprt needs --candidate SPEC and --baseline SPEC"),
        (["tournament", "--agent", "random", "--agent", "tracker", "--pairs", "0"], "--pairs 0 is out of range; allowed: 1 ... 1000000"),
        (["render", "--replay", "/nonexistent/m.jsonl"], "cannot read match file /nonexistent/m.jsonl"),
        (["tournament", "--game", "breakout", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random"], "--mode sprt is for --game pong"),
        (["tournament", "--game", "breakout", "--agent", "random", "--agent", "constant:action=4"], "Breakout actions are 0 ... 3"),
    ])
    func badInputGivesOneClearErrorLine(arguments: [String], fragment: String) throws {
        let r = try GymTrainProcess.run(arguments)
        #expect(r.status != 0)
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack"))
    }

    /// `--variants SET`: every game plays the rules its seed draws, each
    /// record names them, and every record replays identically under them.
    @Test(arguments: [["--game", "breakout", "--episodes", "2", "--variants", "train"],
                      ["--game", "pong", "--pairs", "2", "--variants", "near"]])
    func aTournamentUnderAVariantSetRecordsAndReplaysEachGamesRules(arguments: [String]) throws {
        let dir = GymTrainProcess.temporaryFolder("variants")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try GymTrainProcess.run(["tournament", "--agent", "tracker", "--agent", "tracker:noise=2", "--seed", "6",
                                         "--bootstrap", "20", "--out", dir.path] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        var rules: Set<String> = []
        for (index, line) in lines.enumerated() {
            #expect(line.contains("\"rules\":{\"set\":\"\(arguments.last ?? "")\""), "\(line)")
            rules.insert(String(line[line.range(of: "\"values\"")!.lowerBound...]))
            let replay = try GymTrainProcess.run(["render", "--replay", dir.appendingPathComponent("matches.jsonl").path,
                                                  "--index", String(index), "--every", "1000",
                                                  "--gif", dir.appendingPathComponent("g\(index).gif").path])
            #expect(replay.status == 0 && replay.stdout.contains("replay identical to the record"), "\(replay.stdout)\(replay.stderr)")
        }
        // Two seeds: a ranges set draws two different variants (the decoder checks each against its seed's draw).
        if arguments.contains("train") { #expect(rules.count == 2) }
    }

    /// `--mode sprt --variants SET`: both games of a pair play the rules the
    /// pair's seed draws, every record names them and replays identically
    /// under them, and 1 and 2 workers write the same files.
    @Test func anSPRTUnderAVariantSetRecordsAndReplaysEachGamesRules() throws {
        let dir = GymTrainProcess.temporaryFolder("sprt-variants")
        defer { try? FileManager.default.removeItem(at: dir) }
        var texts: [[String]] = []
        for workers in [1, 2] {
            let out = dir.appendingPathComponent("w\(workers)")
            let r = try GymTrainProcess.run(["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "tracker:noise=2",
                                             "--max-pairs", "3", "--seed", "5", "--variants", "near", "--workers", "\(workers)",
                                             "--out", out.path])
            #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
            texts.append(try ["matches.jsonl", "summary.json"].map {
                try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8)
            })
        }
        #expect(texts[0] == texts[1], "1 and 2 workers differ")
        let file = dir.appendingPathComponent("w1/matches.jsonl")
        let lines = texts[0][0].split(separator: "\n")
        #expect(lines.count == 6)
        var rules: [String] = []
        for (index, line) in lines.enumerated() {
            #expect(line.contains("\"rules\":{\"set\":\"near\""), "\(line)")
            rules.append(String(line[line.range(of: "\"rules\"")!.lowerBound...]))
            let replay = try GymTrainProcess.run(["render", "--replay", file.path, "--index", String(index), "--every", "1000",
                                                  "--gif", dir.appendingPathComponent("g\(index).gif").path])
            #expect(replay.status == 0 && replay.stdout.contains("replay identical to the record"), "\(replay.stdout)\(replay.stderr)")
        }
        for k in stride(from: 0, to: rules.count, by: 2) { #expect(rules[k] == rules[k + 1], "pair \(k / 2): its two games' rules differ") }
    }
}
