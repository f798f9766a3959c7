import Foundation
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
}
