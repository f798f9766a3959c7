import Agents
import Gym

/// The one place the C ABI uses Agents: the built-in opponent of
/// single-agent Pong, named by an agent spec as on the command line, as one
/// batched agent (``BatchAgent``) playing the opponent's seat of every game
/// of the session's batch: one call per step over all the games.
final class Opponents {
    let agent: any BatchAgent
    let count: Int
    /// The rows of a step over every game (`0 ..< count`) and of a single game.
    private var everyGame: [Int32], oneGame: [Int32] = [0]
    /// The opponents' actions (game `i` at `i`).
    private(set) var actions: [Int32]
    /// Whether game `i`'s opponent is in an episode (started, not ended).
    private var running: [Bool]

    /// The opponent of `spec` (parsed and checked against the config) in
    /// seat `side` of every game of `batch`.
    init(spec: String, config: PongConfig, batch: PongBatch, side: PongSide) throws(ABIError) {
        let parsed: AgentSpec
        do {
            parsed = try AgentSpec.parse(spec)
            try Pong.check(parsed, config: config)
        } catch { throw ABIError(.badConfig, "config: opponent: \(error.description)") }
        count = batch.count
        let seating = AgentSeating.oneSeat(side == .bottom ? 0 : 1, slots: count, seats: Pong.seats)
        do {
            agent = try Pong.makeBatchAgent(parsed, context: AgentContext(config: config, seating: seating, vector: batch))
        } catch { throw Self.fault(error) }
        everyGame = (0 ..< count).map { Int32($0) }
        actions = [Int32](repeating: 0, count: count)
        running = [Bool](repeating: false, count: count)
    }

    /// The seed an opponent is started with for an episode seeded `seed`
    /// (as every match does: the agent stream of its seat, bottom 0, top 1).
    static func seed(episodeSeed: UInt64, side: PongSide) -> UInt64 {
        Seeds.agent(episodeSeed, seat: side == .bottom ? 0 : 1)
    }

    static func fault(_ error: AgentFault) -> ABIError { ABIError(.agentFault, "opponent: \(error.description)") }

    /// Game `i`'s opponent starts an episode with `seed` (ending the one it was in).
    func start(_ i: Int, seed: UInt64) throws(ABIError) {
        do {
            if running[i] { try agent.end(game: i) }
            try agent.start(game: i, seed: seed)
        } catch { throw Self.fault(error) }
        running[i] = true
    }

    /// Every game's opponent acts on its row of `observations` (game `i`'s at
    /// `observations + i × stride`); the actions are in ``actions``.
    func actAll(observations: UnsafePointer<Float>, stride: Int) throws(ABIError) {
        try act(rows: everyGame, observations: observations, stride: stride)
    }

    /// Game `i`'s opponent alone acts on its row of `observations` (at
    /// `observations + i × stride`), replaying an observation the batch no
    /// longer holds (an agent reading the batch's state reads the row
    /// instead: ``StateReadingAgent/act(observationRows:)``); its action is `actions[i]`.
    func replay(_ i: Int, observations: UnsafePointer<Float>, stride: Int) throws(ABIError) {
        oneGame[0] = Int32(i)
        try act(rows: oneGame, observations: observations, stride: stride, fromRows: true)
    }

    private func act(rows: [Int32], observations: UnsafePointer<Float>, stride: Int, fromRows: Bool = false)
        throws(ABIError) {
        let agent = self.agent
        do {
            try rows.withUnsafeBufferPointer { (g) throws(AgentFault) in
                try actions.withUnsafeMutableBufferPointer { (a) throws(AgentFault) in
                    guard let games = g.baseAddress, let out = a.baseAddress, !g.isEmpty else { return }
                    let rows = AgentRows(count: g.count, games: games, observations: observations, stride: stride,
                                         actions: out)
                    if fromRows, let reader = agent as? any StateReadingAgent {
                        reader.act(observationRows: rows)
                    } else {
                        try agent.act(rows)
                    }
                }
            }
        } catch { throw Self.fault(error) }
    }
}
