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
        #expect(CLI.files(in: out) == ["config.json", "episodes.csv", "run.json", "summary.json", "timing.json"])
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
}

@Suite struct OtherCommandTests {
    @Test func configListsPresetsAndPrintsValidJSON() throws {
        let list = try CLI.run(["config", "--game", "pong", "--list"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n") == ["classic", "touch", "fast", "ale"])
        let touch = try CLI.run(["config", "--preset", "touch"])
        #expect(touch.stdout.contains("\"verticalMovement\": true"))
        let reference = try CLI.run(["config", "--reference"])
        #expect(reference.stdout.contains("| `paddleSpeed` | 0.5 ... 32 |"))
    }

    @Test func renderWritesAGIFAndPGMFrames() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("e.gif"), pgm = dir.appendingPathComponent("frames")
        let r = try CLI.run(["render", "--max-steps", "40", "--every", "10", "--gif", gif.path, "--pgm", pgm.path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: gif)
        #expect(data.prefix(6) == Data("GIF89a".utf8))
        #expect(data.last == 0x3B)
        #expect(CLI.files(in: pgm) == (0 ..< 5).map { String(format: "frame-%06d.pgm", $0) })
    }

    @Test func renderReplaysTheEvaluatedEpisode() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("eval")
        let e = try CLI.run(["eval", "--agent", "tracker:noise=1", "--opponent", "random", "--episodes", "4", "--seed", "9", "--out", out.path])
        #expect(e.status == 0)
        let rows = try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8).split(separator: "\n")
        let fields = rows[4].split(separator: ",")   // episode 3: agent on top
        let r = try CLI.run(["render", "--agent", "tracker:noise=1", "--opponent", "random", "--seed", "9", "--episode", "3",
                             "--max-steps", "0", "--gif", dir.appendingPathComponent("x.gif").path, "--every", "50"])
        #expect(r.status == 0, "\(r.stderr)")
        // bottom-top score printed by render: agent was top on an odd episode.
        #expect(r.stdout.contains("[bottom] \(fields[4])-\(fields[3]) "), "\(r.stdout) vs \(rows[4])")
        #expect(r.stdout.contains("after \(fields[5]) steps"), "\(r.stdout) vs \(rows[4])")
    }

    @Test func benchReportsStepsPerSecond() throws {
        // 64 ticks per dispatch: a debug build's round of the default 2048
        // ticks over every case took minutes.
        let r = try CLI.run(["bench", "--game", "pong", "--envs", "64", "--seconds", "0.2", "--workers", "2", "--ticks", "64"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 worker") && r.stdout.contains("steps/s") && r.stdout.contains("real time"))
    }
}
