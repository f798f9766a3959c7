import Foundation
import Testing

@Suite struct BreakoutCommandTests {
    @Test func evalBreakoutWritesTheResultsFolder() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let r = try CLI.run(["eval", "--game", "breakout", "--agent", "tracker", "--episodes", "4", "--workers", "2",
                             "--seed", "5", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("eval breakout: tracker, 4 episodes"))
        #expect(r.stdout.contains("95% CI") && r.stdout.contains("steps/s") && r.stdout.contains("real time"))
        #expect(CLI.files(in: out) == ["config.json", "episodes.csv", "run.json", "summary.json", "timing.json"])
        let csv = try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 5)
        #expect(csv.hasPrefix("episode,seed,score,steps,end,levels_cleared,lives_lost"))
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any]
        #expect(summary?["game"] as? String == "breakout" && summary?["episodes"] as? Int == 4)
        #expect(summary?["meanScore95"] as? [Double] != nil && summary?["clearRate"] as? Double != nil)
        let check = try CLI.run(["config", "--game", "breakout", "--config", out.appendingPathComponent("config.json").path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func configBreakoutPrintsPresetsAndReference() throws {
        let list = try CLI.run(["config", "--game", "breakout", "--list"])
        #expect(list.status == 0 && list.stdout == "classic\natari\n")
        let reference = try CLI.run(["config", "--game", "breakout", "--reference"])
        #expect(reference.stdout.contains("| `layout` |") && reference.stdout.contains("| `pushCooldown` |"))
        let atari = try CLI.run(["config", "--game", "breakout", "--preset", "atari"])
        #expect(atari.stdout.contains("\"brickColumns\": 18"))
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

    @Test func renderBreakoutWritesAGif() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("b.gif")
        let r = try CLI.run(["render", "--game", "breakout", "--max-steps", "120", "--gif", gif.path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: gif)
        #expect(data.starts(with: Array("GIF89a".utf8)))
        #expect(r.stdout.contains("episode 0"))
    }

    @Test func benchBreakoutReportsStepsPerSecond() throws {
        let r = try CLI.run(["bench", "--game", "breakout", "--envs", "16", "--seconds", "0.05", "--workers", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("bench breakout") && r.stdout.contains("steps/s"))
    }
}
