import Foundation
import Testing
import Gym
@testable import Agents

func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gym-agents-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

func sampleCheckpoint(seed: UInt64 = 1, normalize: Bool = true, training: Bool = true) -> Checkpoint {
    var policy = randomPolicy(inputs: 12, outputs: 3, seed: seed, normalize: normalize)
    if normalize {
        var stats = ObservationStatistics(features: 12)
        var rng = Xoshiro256(seed: seed)
        for _ in 0 ..< 100 {
            let x = (0 ..< 12).map { _ in rng.nextGaussian() * 0.3 + 0.1 }
            x.withUnsafeBufferPointer { stats.add($0) }
        }
        var n = ObservationNormalizer(features: 12)
        n.merge(stats)
        policy.setNormalizer(n)
    }
    var state: TrainerState?
    if training {
        var adam = Adam(parameters: policy.parameterCount, learningRate: 0.03, weightDecay: 0.005)
        var theta = policy.parameters
        var rng = Xoshiro256(seed: seed ^ 77)
        for _ in 0 ..< 3 {
            let g = (0 ..< theta.count).map { _ in rng.nextGaussian() }
            theta.withUnsafeMutableBufferPointer { t in g.withUnsafeBufferPointer { adam.ascend(t, gradient: $0) } }
        }
        state = TrainerState(trainer: "es", trainConfigHash: 0xDEAD_BEEF_1234, iteration: 3, envSteps: 123_456,
                             wallSeconds: 1.25, optimizer: adam, bestScore: 0.75, bestIteration: 2)
    }
    return Checkpoint(pong: PongConfig(), policy: policy, training: state)
}

@Suite struct CheckpointTests {
    @Test func roundTripIsBitExact() throws {
        for seed in UInt64(1) ... 5 {
            for (normalize, training) in [(true, true), (false, false), (true, false)] {
                let c = sampleCheckpoint(seed: seed, normalize: normalize, training: training)
                let text = try c.encoded()
                let back = try Checkpoint.decode(text, path: "mem")
                #expect(back == c, "seed \(seed)")
                #expect(back.policy.weights.map(\.bitPattern) == c.policy.weights.map(\.bitPattern))
                #expect(back.training?.optimizer.v.map(\.bitPattern) == c.training?.optimizer.v.map(\.bitPattern))
                #expect(back.policy.foldedWeights.map(\.bitPattern) == c.policy.foldedWeights.map(\.bitPattern))
            }
        }
    }

    @Test func fileRoundTripAndLinearAgentSpec() throws {
        let path = temporaryPath("policy.json")
        let c = sampleCheckpoint(training: false)
        try Data(try c.encoded().utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Checkpoint.load(path: path) == c)
        for text in ["linear:\(path)", "linear:path=\(path),selection=softmax,name=Saved"] {
            let spec = try AgentSpec.parse(text)
            try Pong.check(spec, config: PongConfig())
            guard case let .linear(p, checkpoint, _) = spec.kind else { Issue.record("not linear"); continue }
            #expect(p == path && checkpoint == c)
        }
        #expect(try AgentSpec.parse("linear:path=\(path),name=Saved").displayName == "Saved")
    }

    @Test func everyMismatchGivesItsTypedError() throws {
        let c = sampleCheckpoint()
        var touch = PongConfig()
        touch.verticalMovement = true
        #expect(throws: CheckpointError.wrongShape(path: "p", found: .pong(PongConfig()), expected: .pong(touch))) {
            try c.check(for: .pong(touch), path: "p")
        }
        let breakout = PolicyTarget(game: "breakout", layoutVersion: 1, inputs: 12, outputs: 3)
        #expect(throws: CheckpointError.wrongGame(path: "p", found: "pong", expected: "breakout")) {
            try c.check(for: breakout, path: "p")
        }
        var future = PolicyTarget.pong(PongConfig())
        future.layoutVersion += 1
        #expect(throws: CheckpointError.wrongLayout(path: "p", game: "pong", found: future.layoutVersion - 1,
                                                    expected: future.layoutVersion)) {
            try c.check(for: future, path: "p")
        }
        // Through the agent grammar: a 3-action policy on the 5-action touch preset.
        let path = temporaryPath("shape.json")
        try Data(try c.encoded().utf8).write(to: URL(fileURLWithPath: path))
        let spec = try AgentSpec.parse("linear:\(path)")
        #expect(throws: AgentSpecError.self) { try Pong.check(spec, config: touch) }
    }

    @Test func corruptAndUnreadableFilesAreRefused() throws {
        let good = try sampleCheckpoint().encoded()
        let cases: [(String, String)] = [
            ("truncated", String(good.prefix(good.count / 2))),
            ("not json", "hello"),
            ("other format", good.replacingOccurrences(of: "\"linear-policy\"", with: "\"snapshot\"")),
            ("missing weights", good.replacingOccurrences(of: "\"weights\"", with: "\"weightz\"")),
            ("nan weight", good.replacingOccurrences(of: "\"bias\": [", with: "\"bias\": [\"x\", ")),
            ("wrong count", good.replacingOccurrences(of: "\"inputs\": 12", with: "\"inputs\": 11")),
        ]
        for (name, text) in cases {
            do {
                _ = try Checkpoint.decode(text, path: "f.json")
                Issue.record("\(name): decoded")
            } catch {
                guard case .corrupt(path: "f.json", _) = error else { Issue.record("\(name): \(error)"); continue }
            }
        }
        let future = good.replacingOccurrences(of: "\"formatVersion\": 1", with: "\"formatVersion\": 9")
        #expect(throws: CheckpointError.unsupportedVersion(path: "f.json", found: 9, supported: 1)) {
            try Checkpoint.decode(future, path: "f.json")
        }
        #expect(throws: CheckpointError.unreadable(path: "/nonexistent/x.json", reason: "no such file")) {
            try Checkpoint.load(path: "/nonexistent/x.json")
        }
        #expect(throws: AgentSpecError.checkpoint(.unreadable(path: "/nonexistent/x.json", reason: "no such file"))) {
            try AgentSpec.parse("linear:/nonexistent/x.json")
        }
    }

    @Test func divergedWeightsAreNotSaved() {
        var policy = LinearPolicy(inputs: 12, outputs: 3)
        var p = policy.parameters
        p[4] = .nan
        p.withUnsafeBufferPointer { policy.setParameters($0) }
        #expect(throws: CheckpointError.nonFinite("weights")) {
            try Checkpoint(pong: PongConfig(), policy: policy).encoded()
        }
    }
}
