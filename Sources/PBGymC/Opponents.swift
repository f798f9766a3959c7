import Agents
import Gym

/// The one place the C ABI uses Agents: the built-in opponent of
/// single-agent Pong, named by an agent spec as on the command line.
struct Opponent {
    var agent: any Agent

    /// One opponent per game from `spec` (parsed and checked against the config).
    static func make(spec: String, config: PongConfig, count: Int) throws(ABIError) -> [Opponent] {
        let parsed: AgentSpec
        do {
            parsed = try AgentSpec.parse(spec)
            try Pong.check(parsed, config: config)
        } catch { throw ABIError(.badConfig, "config: opponent: \(error.description)") }
        return (0 ..< count).map { _ in Opponent(agent: Pong.makeAgent(parsed, config: config)) }
    }

    /// The seed an opponent is reset with for an episode seeded `seed`
    /// (as every match does: the agent stream of its seat, bottom 0, top 1).
    static func seed(episodeSeed: UInt64, side: PongSide) -> UInt64 {
        Seeds.agent(episodeSeed, seat: side == .bottom ? 0 : 1)
    }

    mutating func reset(seed: UInt64) { agent.reset(seed: seed) }

    mutating func act(_ observation: UnsafePointer<Float>, count: Int) -> Int {
        agent.act(UnsafeBufferPointer(start: observation, count: count))
    }
}
