import Testing
import Gym
@testable import Agents

/// The batched agent contract (``BatchAgent``): every built-in kind has its
/// own batched form with exactly the per-game agent's actions; the commands'
/// paths never fall back to the per-game adapter; an agent's fault reaches
/// the caller as an error.
///
/// Serialized: the per-game adapter counter is process-wide, and only this
/// suite's tests act through the adapter.
@Suite(.serialized) struct BatchAgentTests {
    /// Plays `games` Pong or Breakout games with random actions for the
    /// observed seats, feeding every row to `batch` (in an order and a subset
    /// that change every step) and to per-game agents, and compares actions.
    ///
    /// A ``StateReadingAgent`` (reading `vector`'s state) is shown the rows
    /// on every fifth step instead (``StateReadingAgent/act(observationRows:)``).
    /// `make` (given the vector) makes the batched agent instead of the game's factory.
    func expectSameActions<G: PlayableGame>(_: G.Type, config: G.Config, spec: AgentSpec, games: Int = 10,
                                            steps: Int = 400, label: String,
                                            make: ((G.Vector) -> any BatchAgent)? = nil) throws {
        let vector = G.makeVector(config: config, count: games)
        let seats = vector.seats, n = vector.observationLayout.count, agentGames = games * seats
        let batch = try make?(vector) ?? G.makeBatchAgent(spec, context: AgentContext(
            config: config, seating: .everySeat(slots: games, seats: seats), vector: vector))
        #expect(batch.games == agentGames)
        #expect(!(batch is PerGameAgents<AnyAgent>), "\(label): a built-in kind has its own batched form")
        var single = (0 ..< agentGames).map { _ in G.makeAgent(spec, config: config) }
        var observations = [Float](repeating: 0, count: agentGames * n)
        var actions = [Int32](repeating: -1, count: agentGames)
        var rewards = [Float](repeating: 0, count: agentGames)
        var terminated = [UInt8](repeating: 0, count: games), truncated = terminated
        var driver = Xoshiro256(seed: 41)
        func startEpisode(_ i: Int, _ episode: Int) throws {
            let seed = Seeds.episode(runSeed: 5, index: episode)
            vector.reset(i, seed: seed)
            for s in 0 ..< seats {
                try batch.start(game: i * seats + s, seed: Seeds.agent(seed, seat: s))
                single[i * seats + s].reset(seed: Seeds.agent(seed, seat: s))
            }
        }
        var episodes = 0
        for i in 0 ..< games { try startEpisode(i, episodes); episodes += 1 }
        var compared = 0
        for step in 0 ..< steps {
            observations.withUnsafeMutableBufferPointer { vector.observe(into: $0.baseAddress!) }
            // Rows: a subset (about three quarters) in a shuffled order.
            var rows = (0 ..< agentGames).filter { _ in driver.below(4) != 0 }.map { Int32($0) }
            if rows.isEmpty { rows = [0] }
            for k in stride(from: rows.count - 1, to: 0, by: -1) { rows.swapAt(k, driver.below(k + 1)) }
            try rows.withUnsafeBufferPointer { g in
                try observations.withUnsafeBufferPointer { o in
                    try actions.withUnsafeMutableBufferPointer { a in
                        let rows = AgentRows(count: g.count, games: g.baseAddress!, observations: o.baseAddress!,
                                             stride: n, actions: a.baseAddress!)
                        if step % 5 == 4, let reader = batch as? any StateReadingAgent {
                            reader.act(observationRows: rows)
                        } else {
                            try batch.act(rows)
                        }
                    }
                }
            }
            for r in rows {
                let g = Int(r)
                let expected = observations.withUnsafeBufferPointer {
                    single[g].act(UnsafeBufferPointer(rebasing: $0[g * n ..< (g + 1) * n]))
                }
                if Int(actions[g]) != expected {
                    Issue.record("\(label): step \(step), game \(g): batched \(actions[g]), per game \(expected)")
                    return
                }
                compared += 1
            }
            // Unrowed seats play random actions (the games go on).
            for g in 0 ..< agentGames where !rows.contains(Int32(g)) { actions[g] = Int32(driver.below(vector.actionCount)) }
            actions.withUnsafeBufferPointer { a in
                observations.withUnsafeMutableBufferPointer { o in
                    rewards.withUnsafeMutableBufferPointer { r in
                        terminated.withUnsafeMutableBufferPointer { t in
                            truncated.withUnsafeMutableBufferPointer { u in
                                vector.step(actions: a.baseAddress!, into: VectorStepOutput(
                                    observations: o.baseAddress!, rewards: r.baseAddress!, terminated: t.baseAddress!,
                                    truncated: u.baseAddress!))
                            }
                        }
                    }
                }
            }
            for i in 0 ..< games where terminated[i] | truncated[i] != 0 {
                for s in 0 ..< seats { try batch.end(game: i * seats + s) }
                try startEpisode(i, episodes); episodes += 1
            }
        }
        #expect(compared > steps * agentGames / 2, "\(label): rows were compared")
    }

    static let trackerSkills = ["tracker", "tracker:reaction=3", "tracker:noise=0.7", "tracker:speed=0.6",
                                "tracker:predict=false", "tracker:reaction=2,noise=1.5,speed=0.8,predict=false",
                                "tracker:reaction=30,noise=4,speed=0.05"]

    @Test func everyPongKindActsAsItsPerGameAgent() throws {
        var short = PongConfig()
        short.maxScore = 2
        var vertical = short
        vertical.verticalMovement = true
        for (name, config) in [("short", short), ("vertical", vertical)] {
            let specs = try (Self.trackerSkills + ["random", "constant:action=2", "recorded:actions=1x30.2x7.0.1x50"])
                .map { try AgentSpec.parse($0) }
                + [MatchesTests.linearSpec(config: config, seed: 7, selection: .greedy),
                   MatchesTests.linearSpec(config: config, seed: 8, selection: .softmax)]
            for spec in specs {
                // Two blocks of eight lanes and three games alone.
                try expectSameActions(Pong.self, config: config, spec: spec, games: 19,
                                      label: "pong \(name), \(spec.text)")
            }
        }
    }

    /// Pong's tracker in a vector reads the batch's state, eight games at a
    /// time (``PongLaneTracker``), where that pays (a skill without state);
    /// otherwise, and without a vector, it reads rows. The lane form plays
    /// as the per-game tracker for every skill; so does the row form
    /// (``TrackerBatch``), which takes rows eight at a time (the aim in
    /// lanes, the moves too for a skill without state), rows in any order and
    /// counts that leave a block part empty.
    @Test func pongTrackersReadTheBatchState() throws {
        var config = PongConfig()
        config.maxScore = 2
        let vector = Pong.makeVector(config: config, count: 9)
        for text in Self.trackerSkills {
            let spec = try AgentSpec.parse(text)
            // One seat of every game (the C ABI's opponent): lanes where the skill keeps no state.
            let inVector = try Pong.makeBatchAgent(spec, context: AgentContext(
                config: config, seating: .oneSeat(1, slots: 9, seats: 2), vector: vector))
            let lanes = text == "tracker" || text == "tracker:predict=false"
            #expect((inVector is PongLaneTracker) == lanes && inVector.readsObservations == !lanes, "\(text)")
            // Every seat (the slot engine's, shared with other agents): rows.
            let inSlots = try Pong.makeBatchAgent(spec, context: AgentContext(
                config: config, seating: .everySeat(slots: 9, seats: 2), vector: vector))
            #expect(inSlots.readsObservations && inSlots is TrackerBatch<PongTracker>, "\(text)")
            guard case let .tracker(skill) = spec.kind else { continue }
            try expectSameActions(Pong.self, config: config, spec: spec, games: 19, steps: 300,
                                  label: "pong lanes, \(text)") { vector in
                PongLaneTracker(Pong.makeTracker(config: config, skill: skill), batch: vector,
                                seating: .everySeat(slots: 19, seats: 2), observationCount: PongBatch.observationCount)
            }
            var rows: TrackerBatch<PongTracker>?
            try expectSameActions(Pong.self, config: config, spec: spec, games: 19, steps: 300,
                                  label: "pong rows, \(text)") { _ in
                let made = TrackerBatch(Pong.makeTracker(config: config, skill: skill), games: 38,
                                        observationCount: PongBatch.observationCount)
                rows = made
                return made
            }
            // About 28 rows a step: a skill without state takes every row's
            // move in the lanes, any other steers each row through its game's columns.
            let inLanes = rows?.rowsInLanes ?? -1
            #expect(lanes ? inLanes >= 300 * 16 : inLanes == 0, "\(text): rows' moves taken in lanes: \(inLanes)")
            let alone = try Pong.makeBatchAgent(spec, context: AgentContext(
                config: config, seating: .everySeat(slots: 9, seats: 2)))
            #expect(alone.readsObservations, "\(text)")
        }
    }

    @Test func everyBreakoutKindActsAsItsPerGameAgent() throws {
        var short = BreakoutConfig()
        short.maxSteps = 300
        var atari = try BreakoutConfig.preset("atari")
        atari.maxSteps = 300
        for (name, config) in [("short", short), ("atari", atari)] {
            let checkpoint = Checkpoint(target: .breakout(config), gameConfigHash: config.configHash,
                                        gameConfig: config.json,
                                        policy: MatchesTests.randomPolicy(.breakout(config), seed: 9))
            let specs = try (Self.trackerSkills + ["tracker:aim=false", "random", "constant:action=3"])
                .map { try AgentSpec.parse($0) }
                + [MatchesTests.linearSpec(checkpoint, seed: 9, selection: .greedy),
                   MatchesTests.linearSpec(checkpoint, seed: 9, selection: .softmax)]
            for spec in specs {
                try expectSameActions(Breakout.self, config: config, spec: spec, steps: 300,
                                      label: "breakout \(name), \(spec.text)")
            }
        }
    }

    /// The per-game adapter is counted, and plays as its agents.
    @Test func theAdapterIsCounted() throws {
        let before = PerGameAgentCalls.count.load(ordering: .relaxed)
        let adapter = PerGameAgents(games: 2, observationCount: 1) { _ in ConstantAgent(action: 3) }
        let games: [Int32] = [1, 0], observations: [Float] = [0, 0]
        var actions: [Int32] = [0, 0]
        games.withUnsafeBufferPointer { g in
            observations.withUnsafeBufferPointer { o in
                actions.withUnsafeMutableBufferPointer { a in
                    adapter.act(AgentRows(count: 2, games: g.baseAddress!, observations: o.baseAddress!, stride: 1,
                                          actions: a.baseAddress!))
                }
            }
        }
        #expect(actions == [3, 3])
        #expect(PerGameAgentCalls.count.load(ordering: .relaxed) == before + 1)
    }

    /// What the commands run (eval, tournament, SPRT, balance, training with
    /// its evaluation, replays) seats built-in agents batched: the per-game
    /// adapter never acts.
    @Test func commandsNeverFallBackToPerGameAgents() throws {
        let before = PerGameAgentCalls.count.load(ordering: .relaxed)
        let pongConfigs = PongConfig.shortPlainAndSticky().map(\.config)
        let runner = ParallelRunner(workers: 2)
        let tracker = try AgentSpec.parse("tracker:reaction=2,noise=0.5"), random = try AgentSpec.parse("random")
        for config in pongConfigs {
            _ = try PongEvaluation.run(config: config, agent: tracker, opponent: random, episodes: 6, runSeed: 1,
                                       runner: runner)
            let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: 2, seed: 3)
            let games = try PongTournament.run(config: config, agents: [tracker, try AgentSpec.parse("tracker")],
                                               schedule: schedule, runner: runner)
            let agents = [tracker, try AgentSpec.parse("tracker")]
            #expect(try PongMatchRecord(games[0], agents: agents, config: config).replay() == games[0].result)
        }
        _ = try PongSPRT.run(config: pongConfigs[0], candidate: tracker, baseline: random, test: SPRT(elo0: 0, elo1: 50),
                             maxPairs: 3, seed: 2, batch: 2, runner: runner)
        var breakout = BreakoutConfig()
        breakout.maxSteps = 500
        _ = try BreakoutEvaluation.run(config: breakout, agent: tracker, episodes: 3, runSeed: 1, runner: runner)
        for opponent in ["tracker:speed=0.9;tracker", "self;random"] {
            var session = try TrainingSession(config: try smallConfig(opponent: opponent, workers: 2))
            try runIterations(&session, 1, workers: 2)
            _ = try session.evaluate(runner: runner)
        }
        #expect(PerGameAgentCalls.count.load(ordering: .relaxed) == before)
    }

    /// An agent that faults on its `failAt`-th act call.
    final class FaultyAgent: BatchAgent {
        let games: Int
        let failAt: Int
        var calls = 0
        init(games: Int, failAt: Int) { self.games = games; self.failAt = failAt }
        func start(game _: Int, seed _: UInt64) {}
        func end(game _: Int) {}
        func act(_ rows: AgentRows) throws(AgentFault) {
            calls += 1
            if calls >= failAt { throw AgentFault(agent: "faulty", message: "gave up at call \(calls)") }
            for k in 0 ..< rows.count { rows.setAction(k, 0) }
        }
    }

    /// Pong training against ``FaultyAgent``.
    struct FaultyTask: GameTrainingTask {
        typealias Game = Pong
        let base: PongTask
        let failAt: Int
        var config: PongConfig { base.config }
        var target: PolicyTarget { base.target }
        var episodeSteps: Int { base.episodeSteps }
        func makeEnvironment(centre: LinearPolicy) -> PongEnvironments { base.makeEnvironment(centre: centre) }
        func reset(_ env: inout PongEnvironments, seed: UInt64, index: Int) { base.reset(&env, seed: seed, index: index) }
        func seating(_ k: Int) -> (learner: Int, opponent: Int) { base.seating(k) }
        func makeOpponents(centre _: LinearPolicy, context: AgentContext<Pong>) -> [any BatchAgent] {
            [FaultyAgent(games: context.games, failAt: failAt)]
        }
    }

    @Test func anAgentFaultStopsTheRunAsAnError() throws {
        let base = PongTask(config: PongConfig(), opponent: .selfPlay, episodeSteps: 200)
        let policy = LinearPolicy(inputs: base.target.inputs, outputs: base.target.outputs)
        for (workers, failAt) in [(1, 1), (1, 50), (2, 30)] {
            let plan = RolloutPlan(members: 4, episodes: 2, maxSteps: 200, seedBase: 1, collectStatistics: false,
                                   centre: policy) { _, _ in }
            #expect(throws: AgentFault(agent: "faulty", message: "gave up at call \(failAt)"),
                    "workers \(workers), fault at call \(failAt)") {
                _ = try Rollout.play(plan, task: FaultyTask(base: base, failAt: failAt), path: .batched, slots: 3,
                                     runner: ParallelRunner(workers: workers))
            }
        }
        #expect(AgentFault(agent: "x", message: "exited").description == "agent x: exited")
    }
}
