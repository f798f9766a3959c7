import ArgumentParser
import Foundation
import Testing
import Agents
import Gym
@testable import gym_train

/// A fresh temporary folder for one test.
func scratchFolder(_ name: String) -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("gym-train-tests-\(getpid())-\(name)").path
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs `gym-train <arguments>` in process.
func gymTrain(_ arguments: [String]) throws {
    var command = try GymTrain.parseAsRoot(arguments)
    try command.run()
}

/// A tiny training config file (the `smoke` preset plus `extra` members).
func smokeConfig(in folder: String, _ extra: String = "") throws -> String {
    let path = folder + "/train.json"
    try Data("{ \"preset\": \"smoke\"\(extra.isEmpty ? "" : ", " + extra) }".utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// The checkpoint with its wall-clock time zeroed (the only field allowed to differ).
func comparable(_ path: String) throws -> Checkpoint {
    var c = try Checkpoint.load(path: path)
    c.training?.wallSeconds = 0
    return c
}

@Suite(.serialized) struct TrainCommandTests {
    @Test func trainWritesTheRunFolder() throws {
        let dir = scratchFolder("folder")
        let config = try smokeConfig(in: dir)
        try gymTrain(["train", "--config", config, "--out", dir + "/run", "--workers", "2"])
        for file in ["config.json", "game.json", "run.json", "metrics.csv", "checkpoint.json", "best.json", "policy.json", "curve.svg"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/run/" + file), "missing \(file)")
        }
        let metrics = try String(contentsOfFile: dir + "/run/metrics.csv", encoding: .utf8)
        let lines = metrics.split(separator: "\n")
        #expect(lines.first.map(String.init) == TrainingMetrics.header)
        #expect(lines.count == 5)   // header + 4 iterations
        let svg = try String(contentsOfFile: dir + "/run/curve.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("polyline"))
        let checkpoint = try Checkpoint.load(path: dir + "/run/checkpoint.json")
        #expect(checkpoint.training?.iteration == 4)
        #expect(try Checkpoint.load(path: dir + "/run/policy.json").training == nil)
        for it in [2, 4] {
            let snap = try Checkpoint.load(path: dir + "/run/checkpoints/" + String(format: "iteration-%06d.json", it))
            #expect(snap.training == nil)
        }
        #expect(try Checkpoint.load(path: dir + "/run/checkpoints/iteration-000004.json").policy == checkpoint.policy)
        // The saved policy plays wherever agents are named.
        try gymTrain(["eval", "--agent", "linear:\(dir)/run/policy.json", "--opponent", "random",
                      "--episodes", "2", "--out", dir + "/eval"])
        #expect(FileManager.default.fileExists(atPath: dir + "/eval/summary.json"))
    }

    @Test func anInterruptedRunResumesBitIdentically() throws {
        let dir = scratchFolder("resume")
        let config = try smokeConfig(in: dir, "\"normalizeObservations\": true, \"opponent\": \"tracker:noise=1;random\", \"episodesPerMember\": 2")
        try gymTrain(["train", "--config", config, "--out", dir + "/straight", "--workers", "1"])
        do {
            try gymTrain(["train", "--config", config, "--out", dir + "/stopped", "--workers", "2", "--stop-after", "1"])
            Issue.record("an interrupted run must exit non-zero")
        } catch let e as ExitCode {
            #expect(e.rawValue == 3)
        }
        #expect(try Checkpoint.load(path: dir + "/stopped/checkpoint.json").training?.iteration == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/stopped/policy.json"))
        try gymTrain(["train", "--resume", dir + "/stopped", "--workers", "3"])
        #expect(try comparable(dir + "/stopped/checkpoint.json") == comparable(dir + "/straight/checkpoint.json"))
        let a = try String(contentsOfFile: dir + "/straight/policy.json", encoding: .utf8)
        let b = try String(contentsOfFile: dir + "/stopped/policy.json", encoding: .utf8)
        #expect(a == b)
        let rows = try String(contentsOfFile: dir + "/stopped/metrics.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 5)
    }

    @Test func badInputGivesOneClearError() throws {
        let dir = scratchFolder("errors")
        let bad = try smokeConfig(in: dir, "\"sigma\": 50")
        #expect(throws: ConfigError.outOfRange(source: bad, key: "sigma", value: "50", allowed: "0.0001 ... 10")) {
            try gymTrain(["train", "--config", bad, "--out", dir + "/x"])
        }
        let config = try smokeConfig(in: dir)
        do {
            try gymTrain(["train", "--config", config, "--opponent", "tracker:speed=9", "--out", dir + "/x"])
            Issue.record("accepted a bad opponent")
        } catch {
            #expect("\(error)".contains("speed=9"))
        }
        try gymTrain(["train", "--config", config, "--out", dir + "/run"])
        do {
            try gymTrain(["train", "--resume", dir + "/run", "--sigma", "0.5"])
            Issue.record("resume accepted a changed sigma")
        } catch {
            #expect("\(error)".contains("--sigma cannot be changed when resuming"))
        }
        do {
            try gymTrain(["train", "--resume", dir + "/nothing-here"])
            Issue.record("resumed a missing run")
        } catch {
            #expect("\(error)".contains("nothing-here"))
        }
        // A 3-action Pong policy on the 5-action touch preset: one clear error.
        do {
            try gymTrain(["eval", "--preset", "touch", "--agent", "linear:\(dir)/run/policy.json", "--episodes", "1",
                          "--out", dir + "/e"])
            Issue.record("a policy of the wrong shape was fielded")
        } catch {
            #expect("\(error)".contains("3 actions") && "\(error)".contains("5"))
        }
        // A corrupt checkpoint.
        try Data("{ \"format\": \"linear-policy\"".utf8).write(to: URL(fileURLWithPath: dir + "/corrupt.json"))
        do {
            try gymTrain(["eval", "--agent", "linear:\(dir)/corrupt.json", "--episodes", "1", "--out", dir + "/e2"])
            Issue.record("a corrupt checkpoint was loaded")
        } catch {
            #expect("\(error)".contains("is corrupt"))
        }
    }

    @Test func svgTicksAreRoundAndCoverTheRange() {
        #expect(SVGChart.ticks(0 ... 1) == [0, 0.2, 0.4, 0.6000000000000001, 0.8, 1])
        // Step: the smallest 1, 2 or 5 × 10^k of at least span/5 (500 k here);
        // ticks are its multiples from below the range to within half a step of its top.
        let t = SVGChart.ticks(3 ... 1_234_567)
        #expect(t == [0, 500_000, 1_000_000])
    }
}
