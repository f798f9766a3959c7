import Testing
import Gym
@testable import Agents

/// Breakout's tracker in a vector reads the batch's state
/// (``BreakoutStateTracker``): balance seats it, its seats need no rows, and
/// the column sums it keeps pick the aim the observation's cells pick.
@Suite struct BreakoutStateTrackerTests {
    /// The slot engine seats the state reader and marks its seats as needing
    /// no row; without a vector the tracker reads rows.
    @Test func theSlotEngineSeatsTheStateReader() throws {
        let config = BreakoutConfig()
        let vector = Breakout.makeVector(config: config, count: 11)
        let agents = try SlotAgents<Breakout>([AgentSpec.parse("tracker:noise=1.25")], config: config, vector: vector,
                                              slots: 11)
        #expect(agents.agents.allSatisfy { $0 is BreakoutGroupedTracker && !$0.readsObservations })
        try agents.start(0, slot: 9, seat: 0, seed: 4)
        let rows = try #require(agents.observedRows)
        #expect(rows[9] == 0 && rows[8] == 1)
        // A match's free seats (a slot without an episode) need no row either.
        let work = try MatchWork<Breakout>(config: config, roster: [AgentSpec.parse("random")], slots: 11, vector: vector,
                                           game: { SeatedGame(seed: UInt64($0), seats: [0]) },
                                           results: SlotPointer(base: nil), finished: nil)
        let free = try #require(work.observedRows)
        #expect((0 ..< 11).allSatisfy { free[$0] == 0 })
        let alone = try Breakout.makeBatchAgent(AgentSpec.parse("tracker"), context: AgentContext(
            config: config, seating: .everySeat(slots: 11, seats: 1)))
        #expect(alone.readsObservations)
    }

    /// A balance run's tracker acts through the state reader for every step
    /// of its episodes (a fall back to rows or to per-game trackers acts
    /// through none).
    @Test func balanceActsThroughTheStateReader() throws {
        let set = try BalanceScenarioSet.decode("""
            { "game": "breakout", "config": { "preset": "classic", "maxSteps": 1500 }, "seed": 8,
              "scenarios": [ { "name": "tracker", "a": "tracker:noise=1.25", "games": 10 } ] }
            """, source: "b.json")
        let before = BreakoutStateTracker.gamesActed.load(ordering: .relaxed)
        let results = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 2))
        let acted = BreakoutStateTracker.gamesActed.load(ordering: .relaxed) - before
        let length = try #require(results[0].metrics.first { $0.name == "episodeLength" })
        let steps = Int((length.value * Double(results[0].games)).rounded())
        #expect(steps > 0 && acted >= steps, "\(acted) games acted for in \(steps) steps")
    }

    /// Every skill plays as its own per-game tracker in the slot engine's
    /// slots, in the lanes of the whole groups of eight (counted: a fall
    /// back to one game at a time fails the count) and alone past them:
    /// one ball and a manual serve, three balls, and gravity.
    @Test func everySkillPlaysInLanesAsItsPerGameTracker() throws {
        let skills = ["tracker", "tracker:reaction=3", "tracker:noise=1.25", "tracker:speed=0.2",
                      "tracker:predict=false", "tracker:aim=false", "tracker:reaction=30,noise=4,speed=0.05,predict=false"]
        let roster = try skills.map { try AgentSpec.parse($0) }
        var classic = BreakoutConfig()
        classic.maxSteps = 1200
        var atari = try BreakoutConfig.preset("atari")
        atari.maxSteps = 800
        var falling = classic
        falling.gravity = 0.05
        for (name, config) in [("classic", classic), ("atari", atari), ("gravity", falling)] {
            let count = 3 * roster.count
            let expected = MatchesTests.reference(Breakout.self, config: config, roster: roster, count: count)
            let before = BreakoutStateTracker.gamesInLanes.load(ordering: .relaxed)
            let got = try Matches.playBatched(Breakout.self, config: config, roster: roster, count: count, slots: 19,
                                              runner: ParallelRunner(workers: 1)) { g in
                MatchesTests.game(g, rosterCount: roster.count, seats: 1)
            }
            let inLanes = BreakoutStateTracker.gamesInLanes.load(ordering: .relaxed) - before
            for g in 0 ..< count where got[g] != expected[g] {
                Issue.record("\(name): game \(g) differs: \(got[g]) vs \(expected[g])")
            }
            let steps = expected.reduce(0) { $0 + $1.steps }
            #expect(inLanes * 2 >= steps, "\(name): \(inLanes) of \(steps) game steps acted for in lanes")
        }
    }

    /// The fold of a crossing point takes an offset within one period as
    /// its own remainder: the library's remainder's result, bit for bit.
    @Test func unfoldingMatchesTheRemainder() {
        func reference(_ x: Float, minX: Float, maxX: Float) -> Float {
            let span = maxX - minX
            var u = (x - minX).truncatingRemainder(dividingBy: 2 * span)
            if u < 0 { u += 2 * span }
            return minX + (u <= span ? u : 2 * span - u)
        }
        var rng = Xoshiro256(seed: 5)
        for k in 0 ..< 20000 {
            let x = k % 500 == 0 ? [-0.0, 2.0, 302.0, -298.0, 1e30][k / 500 % 5]
                : (Float(rng.below(1 << 24)) / Float(1 << 24) - 0.5) * 4000
            let got = BreakoutTracker.unfold(x, minX: 2, maxX: 152), want = reference(x, minX: 2, maxX: 152)
            if got.bitPattern != want.bitPattern { Issue.record("x \(x): \(got), the remainder's \(want)") }
        }
    }

    /// ``KeptWall`` (the candidates, or the scan on kept sums) gives the
    /// shift of the scan on the sums for walls of whole and of fractional
    /// hits (near ties included) and any x, bit for bit.
    @Test func keptWallsAimAsTheScan() {
        var config = BreakoutConfig()
        config.brickColumns = 13
        let rules = BreakoutTracker(config: config)
        var rng = Xoshiro256(seed: 21)
        var sums = [Float](repeating: 0, count: rules.cols)
        var decidedWalls = 0
        for wall in 0 ..< 4000 {
            let kind = wall % 4
            for c in 0 ..< rules.cols {
                switch kind {
                case 0: sums[c] = Float(rng.below(4))
                case 1: sums[c] = Float(rng.below(3)) / 3
                case 2: sums[c] = 2 + (rng.below(2) == 0 ? 0 : Float(rng.below(3)) * 4e-7)
                default: sums[c] = rng.below(5) == 0 ? 0 : 1
                }
            }
            sums.withUnsafeBufferPointer { s in
                let base = s.baseAddress!
                let kept = KeptWall.candidates(base, columns: rules.cols)
                if kept.decided { decidedWalls += 1 }
                let w = KeptWall(sums: base, candidates: kept.candidates, decided: kept.decided)
                for _ in 0 ..< 20 {
                    let x = rng.below(10) == 0 ? [Float.nan, -1e9, 1e9, 0, config.fieldWidth][rng.below(5)]
                        : Float(rng.below(1 << 20)) / Float(1 << 20) * (config.fieldWidth + 40) - 20
                    let want = rules.aimShift(from: x, halfW: 9, toward: rules.aimColumn(from: x, columnHits: base))
                    let got = w.aimShift(rules, from: x, halfW: 9)
                    if got.bitPattern != want.bitPattern {
                        Issue.record("wall \(wall) \(sums), x \(x): kept \(got), scan \(want)")
                    }
                }
            }
        }
        #expect(decidedWalls > 2000, "the candidates decide most walls")
    }

    /// ``KeptWall/nearest(lanes:to:guess:_:)`` finds each lane's column as
    /// the scalar search does, for walls of 1 to 24 columns, any candidate
    /// set (none included) and x in and around the field.
    @Test func laneSearchFindsTheScalarColumn() {
        var rng = Xoshiro256(seed: 33)
        for cols in [1, 2, 5, 10, 13, 24] {
            var config = BreakoutConfig()
            config.brickColumns = cols
            let rules = BreakoutTracker(config: config)
            for _ in 0 ..< 3000 {
                var candidates = SIMD8<UInt32>(), x = SIMD8<Float>()
                for j in 0 ..< 8 {
                    candidates[j] = rng.below(6) == 0 ? 0 : UInt32(truncatingIfNeeded: rng.next()) & ((1 << UInt32(cols)) - 1)
                    x[j] = rng.below(20) == 0 ? [0, -0.0, config.fieldWidth, -300, 500][rng.below(5)]
                        : Float(rng.below(1 << 20)) / Float(1 << 20) * (config.fieldWidth + 60) - 30
                }
                let got = KeptWall.nearest(lanes: candidates, to: x, guess: KeptWall.guess(rules, x), rules)
                for j in 0 ..< 8 {
                    let want = KeptWall.nearest(candidates[j], to: x[j], guess: KeptWall.guess(rules, x[j]), rules)
                    if got[j] != Float(want) {
                        Issue.record("\(cols) columns, candidates \(candidates[j]), x \(x[j]): lanes \(got[j]), scalar \(want)")
                    }
                }
            }
        }
    }
}
