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

    /// A metrics.csv behind its checkpoint (rows lost) is refused on resume
    /// with one line, and nothing in the folder changes; before, the run went
    /// on and the lost iterations were silently missing from metrics.csv.
    @Test func aResumeRefusesMetricsBehindTheCheckpoint() throws {
        let dir = scratchFolder("behind")
        let config = try smokeConfig(in: dir)
        do {
            try gymTrain(["train", "--config", config, "--out", dir + "/run", "--workers", "1", "--stop-after", "2"])
            Issue.record("an interrupted run must exit non-zero")
        } catch let e as ExitCode {
            #expect(e.rawValue == 3)
        }
        let metricsPath = dir + "/run/metrics.csv", checkpointPath = dir + "/run/checkpoint.json"
        #expect(try Checkpoint.load(path: checkpointPath).training?.iteration == 2)
        let rows = try String(contentsOfFile: metricsPath, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 3)
        let checkpoint = try Data(contentsOf: URL(fileURLWithPath: checkpointPath))
        for (metrics, expected) in [(rows[0 ... 1].joined(separator: "\n") + "\n", "\(metricsPath) has no row for iteration 2 (its rows end at iteration 1) but checkpoint.json is at iteration 2"),
                                    ([rows[0], rows[2]].joined(separator: "\n") + "\n", "\(metricsPath) has no row for iteration 1 (its rows end at iteration 2)"),
                                    (nil, "\(metricsPath) is missing but checkpoint.json is at iteration 2")] {
            if let metrics {
                try Data(metrics.utf8).write(to: URL(fileURLWithPath: metricsPath))
            } else {
                try FileManager.default.removeItem(atPath: metricsPath)
            }
            do {
                try gymTrain(["train", "--resume", dir + "/run", "--workers", "1"])
                Issue.record("resumed with metrics behind the checkpoint")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
                #expect("\(error)".contains("--overwrite") && !"\(error)".contains("\n"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: checkpointPath)) == checkpoint)
            #expect((try? String(contentsOfFile: metricsPath, encoding: .utf8)) == metrics)
        }
    }

    /// The metrics are written before the checkpoint: when the metrics write
    /// fails (here metrics.csv is a folder; on a full disk alike) the run
    /// stops without a checkpoint newer than its metrics.
    @Test func aFailedMetricsWriteLeavesNoNewerCheckpoint() throws {
        let dir = scratchFolder("order")
        let config = try Train.decode("{ \"preset\": \"smoke\" }", overrides: [], source: "smoke")
        let folder = try ResultsFolder.claim(dir + "/run", mode: .fresh)
        try FileManager.default.createDirectory(atPath: dir + "/run/metrics.csv/blocked", withIntermediateDirectories: true)
        do {
            _ = try TrainingLoop(config: config, folder: folder, resumed: nil, stopAfter: nil, isStopped: { false }).run()
            Issue.record("the metrics write did not fail")
        } catch {
            #expect("\(error)".contains("cannot write \(dir)/run/metrics.csv"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/run/checkpoint.json"))
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

    /// Training across a variant set gives the same checkpoint bytes for 1
    /// and 2 workers, records the set in it (a visible context widens the
    /// policy by the set's keys), differs from training on the base rules,
    /// and the policy plays wherever agents are named.
    @Test(arguments: [
        ("pong", #""trainer": "es", "opponent": "tracker;self""#, #""variants": {"set": "train", "visible": true}"#),
        ("breakout", #""trainer": "reinforce""#, #""variants": {"set": "train"}"#),
    ])
    func trainingAcrossVariantsIsTheSameForOneAndTwoWorkers(game: String, training: String, variants: String) throws {
        let dir = scratchFolder("variants-\(game)")
        let base = "\"game\": \"\(game)\", \"episodeSteps\": 300, " + training
        let config = try smokeConfig(in: dir, base + ", " + variants)
        for w in ["1", "2"] { try gymTrain(["train", "--config", config, "--out", dir + "/w" + w, "--workers", w]) }
        let one = try String(contentsOfFile: dir + "/w1/policy.json", encoding: .utf8)
        #expect(one == (try String(contentsOfFile: dir + "/w2/policy.json", encoding: .utf8)))
        #expect(try comparable(dir + "/w1/checkpoint.json") == comparable(dir + "/w2/checkpoint.json"))
        let checkpoint = try Checkpoint.load(path: dir + "/w1/policy.json")
        let visible = variants.contains("\"visible\": true")
        let gameInputs = game == "pong" ? PolicyTarget.pong(PongConfig()).inputs
            : PolicyTarget.breakout(try BreakoutConfig.preset("classic")).inputs
        #expect(checkpoint.variants?.set == "train" && checkpoint.variants?.version == 1)
        #expect(checkpoint.variants?.visible == visible)
        #expect(checkpoint.target.inputs == gameInputs + (visible ? 6 : 0))
        // The same run on the base rules alone trains another policy.
        let plain = try smokeConfig(in: dir + "/w1", base)
        try gymTrain(["train", "--config", plain, "--out", dir + "/plain", "--workers", "1"])
        #expect(try Checkpoint.load(path: dir + "/plain/policy.json").policy != checkpoint.policy)
        try gymTrain(["eval", "--game", game, "--agent", "linear:\(dir)/w1/policy.json", "--opponent", "tracker",
                      "--episodes", "2", "--out", dir + "/eval"])
        #expect(FileManager.default.fileExists(atPath: dir + "/eval/summary.json"))
    }
}
