/// Who plays seat 0 in a ``VectorBench``.
public enum BatchControl: Sendable {
    /// Uniform random actions, from one generator per game.
    case random
    /// The greedy action of a linear policy (observation length in, the
    /// game's action count out), computed for a whole chunk with one
    /// `cblas_sgemm` per tick.
    case linear(LinearPolicy)
    /// Uniform random actions for seat 0, and seat 1 (the opponent's, in a
    /// two-seat game: Pong as users run it) played by a batched agent made
    /// for seat 1 of each of the chunk's `games` games
    /// (``AgentSeating/oneSeat(_:slots:seats:)``: agent game `i` is game
    /// `i`'s seat 1, as the C ABI seats its opponent), acting once per tick
    /// on every game; each game's agent starts every episode from
    /// `Seeds.agent(episodeSeed, seat: 1)`. The agent must be a built-in one
    /// (they never fault). `make` is given the chunk's vector environment
    /// (for ``AgentContext/vector``: an agent may read its state instead of
    /// rows, as Pong's lane tracker does); seat 1's rows are written only
    /// when the agent reads them.
    case seated(name: String, make: @Sendable (_ games: Int, _ vector: AnyObject) -> any BatchAgent)
}

extension BatchControl {
    /// A two-seat game as users run it (nil for a one-seat game): `spec`
    /// (the game's default opponent) in seat 1, made as the C ABI seats its
    /// opponent, with ``PlayableGame/makeBatchAgent(_:context:)`` for seat 1
    /// of each of the chunk's games and the chunk's vector environment, so a
    /// built-in agent takes the form it takes there (Pong's plain tracker:
    /// the lane form, ``PongLaneTracker``).
    public static func seated<G: PlayableGame>(_: G.Type, spec: AgentSpec, config: G.Config) -> BatchControl? {
        guard G.seats == 2 else { return nil }
        return .seated(name: spec.text) { games, vector in
            do {
                return try G.makeBatchAgent(spec, context: AgentContext(
                    config: config, seating: .oneSeat(1, slots: games, seats: 2), vector: vector as? G.Vector))
            } catch { preconditionFailure("a built-in agent never faults: \(error)") }
        }
    }
}
