import Agents
import Foundation
import Gym
import Testing

@Suite struct RenderCommandTests {
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

    /// A record under drawn rules replays identically with `render --replay`;
    /// the same line with another draw's rules is refused with one line.
    @Test func renderReplaysARecordUnderItsRules() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let seed = Seeds.episode(runSeed: 4, index: 1)
        let base = try BreakoutConfig.preset("classic")
        let file = RecordedRules.shippedFile(game: "breakout")
        let set = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: file).set("train", source: file)
        let context = try RuleContext(base: base, set: set, visible: false, source: "test")
        let (variant, played) = context.rules(episodeSeed: seed)
        let result = try Matches.play(Breakout.self, config: base, roster: [try AgentSpec.parse("tracker")], count: 1,
                                      runner: ParallelRunner(workers: 1), game: { _ in SeatedGame(seed: seed, seats: [0]) },
                                      rules: { _ in played })[0]
        let rules = RecordedRules(set: "train", file: file, version: 1, variant: variant)
        let line = BreakoutEpisodeRecord(agent: "tracker", episode: 1, config: base, result: result, rules: rules,
                                         played: played).line
        let r = try CLI.run(["render", "--replay", line, "--every", "1000", "--gif", dir.appendingPathComponent("r.gif").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("replay identical to the record: \(result.score) points after \(result.steps) steps"), "\(r.stdout)")
        var forged = rules
        forged.variant.values = context.rules(episodeSeed: seed &+ 1).variant.values
        let bad = try CLI.run(["render", "--replay", BreakoutEpisodeRecord(agent: "tracker", episode: 1, config: base, result: result,
                                                                          rules: forged, played: played).line,
                               "--every", "1000", "--gif", dir.appendingPathComponent("f.gif").path])
        #expect(bad.status != 0)
        let lines = bad.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("are not what set \"train\""), "\(bad.stderr)")
    }
}
