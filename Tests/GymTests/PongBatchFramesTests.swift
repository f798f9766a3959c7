import Testing
@testable import Gym

/// ``PongBatch`` against one ``PongGame`` per slot in every preset at frame
/// skip 1, 4 and 8, without and with sticky actions (0.25): rewards per seat,
/// flags, end reasons, events, observations and whole states, bit for bit,
/// step after step (same-step autoreset, restarts included). The actions
/// include values outside the game's range and outside a byte (they act as
/// stay, and a kept sticky action is the byte the state stores).
@Suite struct PongBatchFramesTests {
    static let settings: [(frameSkip: Int, sticky: Float)] = [(1, 0), (4, 0), (8, 0), (1, 0.25), (4, 0.25), (8, 0.25)]

    @Test(arguments: PongConfig.presetNames)
    func batchEqualsSingleGamesInEveryFrameSetting(_ preset: String) throws {
        for (frameSkip, sticky) in Self.settings {
            var config = try PongConfig.preset(preset)
            config.frameSkip = frameSkip
            config.stickyActionProbability = sticky
            // Short games, so restarts come often.
            config.maxScore = 3
            config.maxSteps = 2400 / frameSkip
            try compare(config, label: "\(preset) frameSkip \(frameSkip) sticky \(sticky)")
        }
    }

    func compare(_ config: PongConfig, label: String) throws {
        // One block of eight lanes and three games on the scalar path.
        let count = 11, seed: UInt64 = 7, steps = 4000 / config.frameSkip
        let batch = PongBatch(config: config, count: count, seed: seed)
        let b = VectorBuffers(batch)
        var refs = (0 ..< count).map { ReferenceGame<PongContract>(config, batchSeed: seed, globalIndex: $0) }
        var rng = Xoshiro256(seed: 99)
        let odd: [Int32] = [7, 258, -1, 3, 4]
        var ended = 0
        var row = [Float](repeating: 0, count: PongGame.observationCount)
        for step in 0 ..< steps {
            for k in 0 ..< 2 * count {
                b.actions[k] = rng.below(40) == 0 ? odd[rng.below(odd.count)] : Int32(rng.below(batch.actionCount))
            }
            b.step(batch)
            for i in 0 ..< count {
                var events = PongEvents()
                let r = refs[i].game.step(top: Int(b.actions[2 * i + 1]), bottom: Int(b.actions[2 * i]), events: &events)
                var ok = b.rewards[2 * i].bitPattern == r.reward.bitPattern
                    && b.rewards[2 * i + 1].bitPattern == Float(events.pointsTop - events.pointsBottom).bitPattern
                    && (b.terminated[i] == 1) == r.terminated && (b.truncated[i] == 1) == r.truncated
                    && b.ends[i] == r.end.rawValue && b.events[i] == events
                if r.isDone {
                    ended += 1
                    refs[i].restart()
                }
                for s in 0 ..< 2 {
                    row.withUnsafeMutableBufferPointer { PongContract.observe(refs[i].game, seat: s, into: $0.baseAddress.unsafelyUnwrapped) }
                    ok = ok && b.observation(i, s) == row.map(\.bitPattern)
                }
                ok = ok && batch.state(i) == refs[i].game.state
                guard ok else {
                    Issue.record("\(label): game \(i) differs at step \(step)")
                    return
                }
            }
        }
        #expect(ended > 0, "\(label): no episode ended, restarts untested")
    }
}
