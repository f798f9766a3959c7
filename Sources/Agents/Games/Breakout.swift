import Gym

/// Breakout as Agents plays it: one seat, records of whole episodes.
public enum Breakout: PlayableGame {
    public typealias Config = BreakoutConfig
    public typealias Record = BreakoutEpisode
    public typealias Tally = BreakoutEpisode

    public static var seats: Int { 1 }

    public static func makeVector(config: BreakoutConfig, count: Int) -> LegacyBreakoutVector {
        LegacyBreakoutVector(config: config, count: count)
    }

    public static var noEvents: BreakoutEvents { BreakoutEvents() }

    /// False: ``BreakoutBatch`` runs the same per-game step as
    /// ``BreakoutGame`` (no lane path), and the players act one row at a
    /// time, so batching saves nothing and the slots' players crowd the
    /// cache. The batched path stays available and tested.
    public static func batchIsFaster(_ config: BreakoutConfig) -> Bool { false }

    public static func policyTarget(_ config: BreakoutConfig) -> PolicyTarget { .breakout(config) }

    public static func check(_ spec: AgentSpec, config: BreakoutConfig) throws(AgentSpecError) {
        try spec.check(breakout: config)
    }

    public static func makeAgent(_ spec: AgentSpec, config: BreakoutConfig) -> any Agent {
        spec.makeBreakoutAgent(config: config)
    }

    public static func beginRecord(_ vector: LegacyBreakoutVector, _ i: Int, seed: UInt64) -> BreakoutEpisode {
        BreakoutEpisode(index: 0, seed: seed, score: 0, steps: 0, end: .none, levelsCleared: 0, livesLost: 0,
                        events: BreakoutEvents())
    }

    @inline(__always)
    public static func book(_ tally: inout BreakoutEpisode, _ events: BreakoutEvents) {
        tally.events.accumulate(events)
    }

    public static func endRecord(_ tally: BreakoutEpisode, _ vector: LegacyBreakoutVector, _ i: Int) -> BreakoutEpisode {
        tally.completed(by: vector.batch.state(i).core)
    }

    public static func playAlone(config: BreakoutConfig, seed: UInt64, agents: inout [any Agent]) -> BreakoutEpisode {
        var agent = agents[0]
        let record = BreakoutRun.play(config: config, seed: seed, index: 0, agent: &agent)
        agents[0] = agent
        return record
    }
}
