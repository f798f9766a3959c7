import Agents
import Gym
import Testing

/// The `recorded` agent: a game played by hand, kept as runs of actions in a spec.
struct RecordedAgentTests {
    @Test func runsRoundTripForManySequences() {
        var rng = SplitMix64(seed: 42)
        for trial in 0 ..< 50 {
            let n = Int(rng.next() % 300)
            var actions: [UInt8] = []
            for _ in 0 ..< n { actions.append(UInt8(rng.next() % 4 == 0 ? rng.next() % 5 : UInt64(actions.last ?? 0))) }
            let text = RecordedActions.encode(actions)
            #expect(RecordedActions.decode(text) == actions, "trial \(trial): \(text)")
        }
        #expect(RecordedActions.encode([0, 0, 0, 2, 1, 1]) == "0x3.2.1x2")
    }

    @Test func malformedRunsAreRejected() {
        for text in ["x3", "1x", "1x0", "12", "1..2", "a", "1x3x4", "-1"] {
            #expect(RecordedActions.decode(text) == nil, "\(text)")
        }
        #expect(throws: AgentSpecError.self) { try AgentSpec.parse("recorded:actions=7x") }
    }

    @Test func aRecordedSpecReplaysAPongGameExactly() throws {
        let config = PongConfig()
        var person: [UInt8] = []
        var rng = SplitMix64(seed: 7)
        for _ in 0 ..< 400 { person.append(UInt8(rng.next() % 3)) }
        let spec = try AgentSpec.parse("recorded:actions=\(RecordedActions.encode(person)),name=you")
        #expect(spec.displayName == "you")
        var bottom = Pong.makeAgent(spec, config: config)
        var top = try Pong.makeAgent(AgentSpec.parse("tracker"), config: config)
        let played = PongMatch.play(config: config, seed: 99, bottom: &bottom, top: &top)

        var game = PongGame(config: config, seed: 99)
        var tracker = try Pong.makeAgent(AgentSpec.parse("tracker"), config: config)
        tracker.reset(seed: Seeds.stream(99, 11))
        var obs = [Float](repeating: 0, count: PongGame.observationCount)
        var k = 0
        while !game.isOver {
            obs.withUnsafeMutableBufferPointer { game.observe(.top, into: $0) }
            let t = obs.withUnsafeBufferPointer { tracker.act($0) }
            _ = game.step(top: t, bottom: k < person.count ? Int(person[k]) : 0)
            k += 1
        }
        #expect(played.steps == Int(game.state.steps))
        #expect(played.scoreBottom == Int(game.state.scoreBottom) && played.scoreTop == Int(game.state.scoreTop))
    }
}
