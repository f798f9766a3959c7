import Testing
import Gym
@testable import Agents

/// ``PongLaneTracker`` seated as the C ABI seats its opponent (one seat of
/// every slot, in order): asked for every game in order it stores whole
/// blocks of eight actions (``PongLaneTracker/actWhole(_:)``), asked in any
/// other order it gathers the asked lanes; both play as per-game trackers.
@Suite struct PongLaneTrackerTests {
    @Test func wholeBlocksPlayAsPerGameTrackers() throws {
        var config = PongConfig()
        config.maxScore = 2
        // Episodes end within the run (by steps when not by points), so episode starts are checked too.
        config.maxSteps = 120
        // Two blocks of eight lanes and three games alone.
        let games = 19, n = PongBatch.observationCount, steps = 300
        for text in ["tracker", "tracker:predict=false"] {
            let spec = try AgentSpec.parse(text)
            guard case let .tracker(skill) = spec.kind else {
                Issue.record("\(text) is a tracker")
                continue
            }
            for seat in 0 ..< 2 {
                let vector = Pong.makeVector(config: config, count: games)
                let lanes = PongLaneTracker(Pong.makeTracker(config: config, skill: skill), batch: vector,
                                            seating: .oneSeat(seat, slots: games, seats: 2), observationCount: n)
                var single = (0 ..< games).map { _ in Pong.makeAgent(spec, config: config) }
                var observations = [Float](repeating: 0, count: games * 2 * n)
                var actions = [Int32](repeating: 0, count: games * 2), chosen = [Int32](repeating: -1, count: games)
                var rewards = [Float](repeating: 0, count: games * 2)
                var terminated = [UInt8](repeating: 0, count: games), truncated = terminated
                var driver = Xoshiro256(seed: 17)
                var episodes = 0
                func startEpisode(_ i: Int) {
                    let seed = Seeds.episode(runSeed: 3, index: episodes)
                    episodes += 1
                    vector.reset(i, seed: seed)
                    lanes.start(game: i, seed: Seeds.agent(seed, seat: seat))
                    single[i].reset(seed: Seeds.agent(seed, seat: seat))
                }
                for i in 0 ..< games { startEpisode(i) }
                let inOrder = (0 ..< games).map { Int32($0) }, reversed = Array(inOrder.reversed())
                var whole = 0, mismatches = 0
                for step in 0 ..< steps {
                    observations.withUnsafeMutableBufferPointer { vector.observe(into: $0.baseAddress!) }
                    // Every third step in reverse order: the gathering path.
                    let rows = step % 3 == 2 ? reversed : inOrder
                    if rows == inOrder { whole += 1 }
                    rows.withUnsafeBufferPointer { g in
                        observations.withUnsafeBufferPointer { o in
                            chosen.withUnsafeMutableBufferPointer { a in
                                lanes.act(AgentRows(count: games, games: g.baseAddress!, observations: o.baseAddress! + seat * n,
                                                    stride: 2 * n, actions: a.baseAddress!))
                            }
                        }
                    }
                    for g in 0 ..< games {
                        let row = (2 * g + seat) * n
                        let expected = observations.withUnsafeBufferPointer {
                            single[g].act(UnsafeBufferPointer(rebasing: $0[row ..< row + n]))
                        }
                        if Int(chosen[g]) != expected { mismatches += 1 }
                        actions[2 * g + seat] = chosen[g]
                        actions[2 * g + 1 - seat] = Int32(driver.below(vector.actionCount))
                    }
                    actions.withUnsafeBufferPointer { a in
                        observations.withUnsafeMutableBufferPointer { o in
                            rewards.withUnsafeMutableBufferPointer { r in
                                terminated.withUnsafeMutableBufferPointer { t in
                                    truncated.withUnsafeMutableBufferPointer { u in
                                        vector.step(actions: a.baseAddress!, into: VectorStepOutput(
                                            observations: o.baseAddress!, rewards: r.baseAddress!,
                                            terminated: t.baseAddress!, truncated: u.baseAddress!))
                                    }
                                }
                            }
                        }
                    }
                    for i in 0 ..< games where terminated[i] | truncated[i] != 0 { startEpisode(i) }
                }
                #expect(mismatches == 0, "\(text), seat \(seat): actions unlike the per-game tracker's")
                #expect(lanes.wholeCalls == whole, "\(text), seat \(seat): every in-order call stores whole blocks")
                #expect(episodes > games, "\(text), seat \(seat): no episode ended")
            }
        }
    }
}
