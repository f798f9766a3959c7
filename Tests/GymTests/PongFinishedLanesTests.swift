import Testing
@testable import Gym

/// ``PongBatch`` with autoreset disabled, as the slot engine runs it: a game
/// that finished (an idle slot's) keeps its state and repeats its end while
/// the seven other games of its block stay on the quiet lanes, each equal
/// to its own ``PongGame`` bit for bit.
@Suite struct PongFinishedLanesTests {
    @Test func aFinishedGameLeavesItsNeighboursOnTheQuietLanes() {
        var config = PongConfig()
        config.maxScore = 1
        let count = 8, seed: UInt64 = 3
        let batch = PongBatch(config: config, count: count, seed: seed, autoresetMode: .disabled, context: nil)
        let b = VectorBuffers(batch)
        var refs = (0 ..< count).map { ReferenceGame<PongContract>(config, batchSeed: seed, globalIndex: $0) }
        var rng = Xoshiro256(seed: 11)
        var quietAfterFirstEnd = -1, runningBesideFinished = 0
        for step in 0 ..< 20_000 {
            for k in 0 ..< 2 * count { b.actions[k] = Int32(rng.below(batch.actionCount)) }
            let before = (0 ..< count).map { batch.state($0) }
            b.step(batch)
            var running = 0
            for i in 0 ..< count {
                if before[i].end != .none {
                    // Finished: nothing changes, the end is repeated.
                    guard batch.state(i) == before[i], b.ends[i] == before[i].end.rawValue, b.terminated[i] == 1 else {
                        Issue.record("finished game \(i) changed at step \(step)")
                        return
                    }
                    continue
                }
                running += 1
                var events = PongEvents()
                let r = refs[i].game.step(top: Int(b.actions[2 * i + 1]), bottom: Int(b.actions[2 * i]), events: &events)
                guard b.rewards[2 * i].bitPattern == r.reward.bitPattern, b.ends[i] == r.end.rawValue,
                      b.events[i] == events, batch.state(i) == refs[i].game.state
                else {
                    Issue.record("game \(i) differs at step \(step)")
                    return
                }
            }
            let finished = count - running
            if finished > 0, quietAfterFirstEnd < 0 { quietAfterFirstEnd = batch.quietFrames }
            if finished > 0 { runningBesideFinished += running }
            if running == 0 { break }
        }
        #expect(quietAfterFirstEnd >= 0, "a game finished")
        // While a game is finished, the running ones beside it take quiet
        // frames (most frames are quiet), not the full path.
        #expect(runningBesideFinished > 100)
        #expect(batch.quietFrames - quietAfterFirstEnd > runningBesideFinished / 2,
                "quiet frames after the first end: \(batch.quietFrames - quietAfterFirstEnd) of \(runningBesideFinished)")
    }
}
