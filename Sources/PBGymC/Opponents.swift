import Agents
import Gym

/// The one place the C ABI uses Agents: the built-in opponent of
/// single-agent Pong, named by an agent spec as on the command line, as one
/// batched agent (``BatchAgent``) playing the opponent's seat of every game
/// of the session's batch: one call per step over all the games. Under
/// per-episode rules (a batch with a rule context) each game's built-in
/// opponent is instead an agent of its own made at each episode's start for
/// that episode's rules, so it plays as in an environment of those rules.
///
/// The caller named the spec in code, so an external agent (`process:`) is
/// started: one process per session, started as a library inside the
/// caller's process does (``AgentChildren/useEmbedded()``: no signal handler
/// of the host's is touched; the process dies with the host) and told
/// goodbye when the session is destroyed. It plays every game, under
/// per-episode rules too (one process, not one per episode: it learns an
/// episode's rules only from visible context features).
final class Opponents {
    /// Who acts: one agent over every game's seat, or (per-episode rules,
    /// game `i`'s rules given) each game's own agent in ``own``.
    private enum Players {
        case shared(any BatchAgent)
        case perEpisode(rules: (Int) -> PongConfig)
    }

    let count: Int
    let spec: AgentSpec, side: PongSide
    private let players: Players
    /// Under per-episode rules: each game's opponent for its running episode.
    private var own: [(any BatchAgent)?]
    private let slotZero: [Int32] = [0]
    /// The rows of a step over every game (`0 ..< count`) and of a single game.
    private var everyGame: [Int32], oneGame: [Int32] = [0]
    /// The opponents' actions (game `i` at `i`).
    private(set) var actions: [Int32]
    /// Whether game `i`'s opponent is in an episode (started, not ended).
    private var running: [Bool]

    /// The opponent of `spec` (parsed and checked against the config) in
    /// seat `side` of every game of `batch`.
    init(spec: String, config: PongConfig, batch: PongBatch, side: PongSide,
         rules: ((Int) -> PongConfig)? = nil) throws(ABIError) {
        let parsed: AgentSpec
        AgentChildren.useEmbedded()
        do {
            parsed = try AgentSpec.parse(spec, commandLine: true)
            try Pong.check(parsed, config: config)
        } catch { throw ABIError(.badConfig, "config: opponent: \(error.description)") }
        count = batch.count
        self.spec = parsed
        self.side = side
        // A process plays every game under any rules (one process per session).
        let perEpisode: ((Int) -> PongConfig)?
        if case .process = parsed.kind { perEpisode = nil } else { perEpisode = rules }
        if let perEpisode {
            players = .perEpisode(rules: perEpisode)
            own = Array(repeating: nil, count: batch.count)
        } else {
            let seating = AgentSeating.oneSeat(side == .bottom ? 0 : 1, slots: count, seats: Pong.seats)
            do {
                players = .shared(try Pong.makeBatchAgent(parsed, context: AgentContext(config: config, seating: seating,
                                                                                         vector: batch)))
            } catch { throw Self.fault(error) }
            own = []
        }
        everyGame = (0 ..< count).map { Int32($0) }
        actions = [Int32](repeating: 0, count: count)
        running = [Bool](repeating: false, count: count)
    }

    /// Whether the opponents act on observation rows (false: they read the
    /// batch's state, so their rows need not be written). Under per-episode
    /// rules each game's own agent reads rows.
    var readsObservations: Bool {
        guard case let .shared(agent) = players else { return true }
        return agent.readsObservations
    }

    /// The seed an opponent is started with for an episode seeded `seed`
    /// (as every match does: the agent stream of its seat, bottom 0, top 1).
    static func seed(episodeSeed: UInt64, side: PongSide) -> UInt64 {
        Seeds.agent(episodeSeed, seat: side == .bottom ? 0 : 1)
    }

    static func fault(_ error: AgentFault) -> ABIError { ABIError(.agentFault, "opponent: \(error.description)") }

    /// Game `i`'s opponent starts an episode with `seed` (ending the one it was in).
    func start(_ i: Int, seed: UInt64) throws(ABIError) {
        switch players {
        case let .perEpisode(rules):
            // An agent of the episode's rules (checked like the config's: a
            // spec valid for the base is valid for every variant of it).
            let seating = AgentSeating.oneSeat(side == .bottom ? 0 : 1, slots: 1, seats: Pong.seats)
            do {
                if running[i], let old = own[i] { try old.end(game: 0) }
                let made = try Pong.makeBatchAgent(spec, context: AgentContext(config: rules(i), seating: seating))
                try made.start(game: 0, seed: seed)
                own[i] = made
            } catch { throw Self.fault(error) }
        case let .shared(agent):
            do {
                if running[i] { try agent.end(game: i) }
                try agent.start(game: i, seed: seed)
            } catch { throw Self.fault(error) }
        }
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
        guard case let .shared(agent) = players else {
            do {
                try slotZero.withUnsafeBufferPointer { (z) throws(AgentFault) in
                    try actions.withUnsafeMutableBufferPointer { (a) throws(AgentFault) in
                        guard let zero = z.baseAddress, let out = a.baseAddress else { return }
                        for g in rows {
                            let i = Int(g)
                            guard let agent = own[i] else { continue }
                            try agent.act(AgentRows(count: 1, games: zero, observations: observations + i * stride,
                                                    stride: stride, actions: out + i))
                        }
                    }
                }
            } catch { throw Self.fault(error) }
            return
        }
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
