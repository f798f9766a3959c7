import Gym

/// A plain loop of `games` games on one vector environment, every seat
/// played by one batched agent per seat (agent `s` plays seat `s` of every
/// game), each game restarted with its next episode seed when it ends, for a
/// fixed number of steps: what `agent check` and the agent benchmark run.
/// Every game's episode `e` starts from `Seeds.episode(runSeed: seed, index:
/// e × games + i)`, so the actions played depend on the seed alone.
public enum AgentDrive {
    /// What one drive saw.
    public struct Outcome: Sendable, Equatable {
        /// FNV-1a digest of every action of seat 0, step by step.
        public var digest: UInt64
        /// Rows the seat-0 agent acted on (agent steps).
        public var agentSteps: Int
        /// Episodes that ended.
        public var episodes: Int
        /// Seconds spent in the seat-0 agent's `act`, in all and per call (sorted).
        public var actSeconds: Double
        public var callSeconds: [Double]
        /// Wall seconds of the whole drive.
        public var seconds: Double
    }

    /// Drives `games` games for `steps` steps; `agents[s]` plays seat `s`
    /// (made by `make(s, seating)`).
    /// - Throws: the first ``AgentFault`` of an agent.
    public static func run<G: PlayableGame>(_: G.Type, config: G.Config, games: Int, steps: Int, seed: UInt64,
                                            make: (_ seat: Int, _ context: AgentContext<G>) throws(AgentFault) -> any BatchAgent)
        throws(AgentFault) -> Outcome {
        let clock = ContinuousClock(), begin = clock.now
        let vector = G.makeVector(config: config, count: games)
        let seats = vector.seats, n = vector.observationLayout.count
        var agents: [any BatchAgent] = []
        for s in 0 ..< seats {
            agents.append(try make(s, AgentContext(config: config, seating: .oneSeat(s, slots: games, seats: seats), vector: vector)))
        }
        var observations = [Float](repeating: 0, count: games * seats * n)
        var perSeat = [Int32](repeating: 0, count: seats * games)
        var actions = [Int32](repeating: 0, count: games * seats)
        var rewards = [Float](repeating: 0, count: games * seats)
        var terminated = [UInt8](repeating: 0, count: games), truncated = [UInt8](repeating: 0, count: games)
        let ids = (0 ..< games).map { Int32($0) }
        var episodeOf = [Int](repeating: 0, count: games)
        var nextEpisode = 0
        func startSeed(_ i: Int) -> UInt64 {
            episodeOf[i] = nextEpisode
            nextEpisode += 1
            return Seeds.episode(runSeed: seed, index: episodeOf[i])
        }
        for i in 0 ..< games {
            let s = startSeed(i)
            vector.reset(i, seed: s)
            for seat in 0 ..< seats { try agents[seat].start(game: i, seed: Seeds.agent(s, seat: seat)) }
        }
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        var outcome = Outcome(digest: 0, agentSteps: 0, episodes: 0, actSeconds: 0, callSeconds: [], seconds: 0)
        outcome.callSeconds.reserveCapacity(steps)
        for _ in 0 ..< steps {
            try observations.withUnsafeMutableBufferPointer { (obs) throws(AgentFault) in
                vector.observe(into: obs.baseAddress!)
                for seat in 0 ..< seats {
                    let t0 = clock.now
                    try ids.withUnsafeBufferPointer { (g) throws(AgentFault) in
                        try perSeat.withUnsafeMutableBufferPointer { (a) throws(AgentFault) in
                            try agents[seat].act(AgentRows(count: games, games: g.baseAddress!,
                                                           observations: obs.baseAddress! + seat * n, stride: seats * n,
                                                           actions: a.baseAddress! + seat * games))
                        }
                    }
                    if seat == 0 {
                        let dt = (clock.now - t0).seconds
                        outcome.actSeconds += dt
                        outcome.callSeconds.append(dt)
                    }
                }
            }
            for i in 0 ..< games {
                for seat in 0 ..< seats { actions[i * seats + seat] = perSeat[seat * games + i] }
                let a = UInt64(UInt32(bitPattern: perSeat[i]))
                digest = (digest ^ a) &* 0x100_0000_01B3
            }
            outcome.agentSteps += games
            actions.withUnsafeBufferPointer { a in
                rewards.withUnsafeMutableBufferPointer { r in
                    terminated.withUnsafeMutableBufferPointer { te in
                        truncated.withUnsafeMutableBufferPointer { tr in
                            vector.step(actions: a.baseAddress!, into: VectorStepOutput(
                                observations: nil, rewards: r.baseAddress!, terminated: te.baseAddress!, truncated: tr.baseAddress!))
                        }
                    }
                }
            }
            for i in 0 ..< games where terminated[i] | truncated[i] != 0 {
                outcome.episodes += 1
                for seat in 0 ..< seats { try agents[seat].end(game: i) }
                let s = startSeed(i)
                vector.reset(i, seed: s)
                for seat in 0 ..< seats { try agents[seat].start(game: i, seed: Seeds.agent(s, seat: seat)) }
            }
        }
        outcome.digest = digest
        outcome.callSeconds.sort()
        outcome.seconds = (clock.now - begin).seconds
        return outcome
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
