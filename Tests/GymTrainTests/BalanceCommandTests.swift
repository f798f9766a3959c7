import Foundation
import Testing

/// The committed baselines (Results/baselines/) against the shipped presets:
/// an unintended balance change fails this suite. The scenario sets are
/// sized to run at full size in a debug build: about 16 s of CPU for all
/// six sets (Pong: 440 games per preset; Breakout: 164 and 72 episodes).
@Suite struct BalanceCommandTests {
    @Test func everyShippedPresetMatchesItsCommittedBaselineExactly() throws {
        let r = try GymTrainProcess.run(["balance", "check", "--workers", "2"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        for file in ["pong-classic", "pong-touch", "pong-fast", "pong-ale", "breakout-classic", "breakout-atari"] {
            #expect(r.stdout.contains("PASS Configs/balance/\(file).json"), "\(file)")
        }
        // Unchanged rules reproduce every number. A deliberate change to the
        // game (or to the reference agents) needs `gym-train balance record`
        // and the new baselines committed with it.
        #expect(!r.stdout.contains("| ok |") && !r.stdout.contains("| CHANGED |"),
                "the game no longer reproduces Results/baselines exactly; if intended, re-record with `gym-train balance record`:\n\(r.stdout)")
    }

    /// A rule changed against a shipped baseline fails the check: Pong's
    /// paddle 20% narrower, Breakout's ball faster.
    @Test(arguments: [
        ("Configs/balance/pong-classic.json", "{ \"preset\": \"classic\", \"paddleWidth\": 51.2 }"),
        ("Configs/balance/breakout-classic.json", "{ \"preset\": \"classic\", \"ballSpeed\": 5 }"),
    ])
    func aChangedRuleIsFlagged(scenarios: String, override: String) throws {
        let dir = GymTrainProcess.temporaryFolder("changed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("changed.json")
        try Data(override.utf8).write(to: config)
        let r = try GymTrainProcess.run(["balance", "check", "--scenarios", scenarios,
                                         "--config", config.path, "--workers", "2"])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("| CHANGED |"))
        #expect(r.stdout.contains("FAIL \(scenarios)"))
    }

    @Test func recordThenCheckRoundTripsAndAMissingBaselineIsExplained() throws {
        let dir = GymTrainProcess.temporaryFolder("record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("tiny.json")
        try Data("""
        { "game": "pong", "preset": "fast", "seed": 9,
          "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 10 } ] }
        """.utf8).write(to: scenarios)
        let baselines = dir.appendingPathComponent("baselines").path
        let missing = try GymTrainProcess.run(["balance", "check", "--scenarios", scenarios.path, "--baselines", baselines])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no baseline at"), "\(missing.stderr)")
        let clash = try GymTrainProcess.run(["balance", "record", "--scenarios", scenarios.path, "--baselines", dir.path])
        #expect(clash.status != 0)
        #expect(clash.stderr.contains("would overwrite the scenario file"), "\(clash.stderr)")
        let record = try GymTrainProcess.run(["balance", "record", "--scenarios", scenarios.path, "--baselines", baselines])
        #expect(record.status == 0, "\(record.stderr)")
        let check = try GymTrainProcess.run(["balance", "check", "--scenarios", scenarios.path, "--baselines", baselines])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("7 identical"), "\(check.stdout)")
    }
}
