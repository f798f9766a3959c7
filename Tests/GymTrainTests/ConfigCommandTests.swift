import Foundation
import Gym
import Testing

@Suite struct ConfigCommandTests {
    @Test func configListsPresetsAndPrintsValidJSON() throws {
        let list = try CLI.run(["config", "--game", "pong", "--list"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n") == ["classic", "touch", "fast", "ale"])
        let touch = try CLI.run(["config", "--preset", "touch"])
        #expect(touch.stdout.contains("\"verticalMovement\": true"))
        let reference = try CLI.run(["config", "--reference"])
        #expect(reference.stdout.contains("| `paddleSpeed` | 0.5 ... 32 |"))
    }

    @Test func configBreakoutPrintsPresetsAndReference() throws {
        let list = try CLI.run(["config", "--game", "breakout", "--list"])
        #expect(list.status == 0 && list.stdout == "classic\natari\nale\n")
        let reference = try CLI.run(["config", "--game", "breakout", "--reference"])
        #expect(reference.stdout.contains("| `layout` |") && reference.stdout.contains("| `pushCooldown` |"))
        let atari = try CLI.run(["config", "--game", "breakout", "--preset", "atari"])
        #expect(atari.stdout.contains("\"brickColumns\": 18"))
    }

    /// The shipped variant files pass `config --variants`, which lists their sets; a bad one is one line.
    @Test func configValidatesVariantFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let pong = try CLI.run(["config", "--variants", root.appendingPathComponent("Configs/variants/pong.json").path])
        #expect(pong.status == 0, "\(pong.stderr)")
        #expect(pong.stdout.hasPrefix("train: ranges (uniform) paddleWidth 48 ... 80, paddleSpeed 4.5 ... 7.5,"))
        #expect(pong.stdout.contains("far: 6 points (uniform) tiny-paddle, huge-paddle,"))
        #expect(pong.stderr.contains("valid pong variant file (version 1, preset classic)"))
        let breakout = try CLI.run(["config", "--game", "breakout", "--variants",
                                    root.appendingPathComponent("Configs/variants/breakout.json").path])
        #expect(breakout.status == 0 && breakout.stdout.contains("near: 5 points (uniform) narrow-quick"))
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        let text = try String(contentsOf: root.appendingPathComponent("Configs/variants/pong.json"), encoding: .utf8)
        try text.replacingOccurrences(of: "\"paddleSpeed\": 3 }", with: "\"paddleSpeed\": 99 }")
            .write(to: bad, atomically: true, encoding: .utf8)
        let r = try CLI.run(["config", "--variants", bad.path])
        #expect(r.status != 0 && r.stdout.isEmpty)
        #expect(r.stderr.contains("bad.json: set \"far\", point \"slow-paddle\": \"paddleSpeed\" = 99 is out of range; allowed: 0.5 ... 32"), "\(r.stderr)")
        // A Pong file is not a Breakout one.
        let wrong = try CLI.run(["config", "--game", "breakout", "--variants", root.appendingPathComponent("Configs/variants/pong.json").path])
        #expect(wrong.status != 0 && wrong.stderr.contains("\"game\" = \"pong\" is out of range; allowed: \"breakout\""))
    }

    /// `config --draw SET` prints, per episode of the seed's run, what the set draws from the episode's seed.
    @Test func configDrawPrintsEachEpisodesRules() throws {
        let r = try CLI.run(["config", "--game", "breakout", "--draw", "train", "--seed", "9", "--episodes", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let set = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "b").set("train", source: "b")
        let expected = (0 ..< 3).map { e -> String in
            let seed = Seeds.episode(runSeed: 9, index: e)
            return JSONValue.object([("episode", .number(e)), ("seed", .number(seed)), ("set", .string("train")),
                                     ("values", set.draw(episodeSeed: seed).json)]).serialized(pretty: false)
        }
        #expect(r.stdout.split(separator: "\n").map(String.init) == expected)
        let bad = try CLI.run(["config", "--draw", "middle"])
        #expect(bad.status != 0 && bad.stderr.contains("has no set \"middle\"; sets are: train, near, far"))
    }
}
