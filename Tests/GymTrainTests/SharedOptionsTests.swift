import Foundation
import Testing

/// The options several subcommands share take one rule and give one error.
@Suite struct SharedOptionsTests {
    /// `--workers` allows 0 ... 256 everywhere (bench took 1 ... 256 before it
    /// shared the option group).
    @Test func workersOutOfRangeIsTheSameErrorInEveryCommand() throws {
        for command in [["bench", "--game", "pong"], ["eval"], ["tournament", "--agent", "random", "--agent", "tracker"]] {
            let r = try CLI.run(command + ["--workers", "257"])
            #expect(r.status != 0, "\(command)")
            #expect(r.stderr.contains("--workers 257 is out of range; allowed: 0 ... 256 (0: the machine's cores)"),
                    "\(command): \(r.stderr)")
        }
    }

    /// `--episodes` allows 1 ... 10000000 in eval and tournament alike
    /// (tournament allowed 1 ... 1000000 before it shared the option group).
    @Test func episodesOutOfRangeIsTheSameErrorInEveryCommand() throws {
        for command in [["eval"], ["tournament", "--game", "breakout", "--agent", "random", "--agent", "tracker"]] {
            let r = try CLI.run(command + ["--episodes", "10000001"])
            #expect(r.status != 0, "\(command)")
            #expect(r.stderr.contains("--episodes 10000001 is out of range; allowed: 1 ... 10000000"), "\(command): \(r.stderr)")
        }
    }

    /// `--config` and `--preset` together: one error, the same in every command.
    @Test func configAndPresetTogetherIsTheSameErrorInEveryCommand() throws {
        for command in [["bench", "--game", "pong"], ["eval"], ["play"], ["render"]] {
            let r = try CLI.run(command + ["--config", "x.json", "--preset", "classic"])
            #expect(r.status != 0, "\(command)")
            #expect(r.stderr.contains("give either --config or --preset, not both"), "\(command): \(r.stderr)")
        }
    }
}
