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
    /// for `games × 2` agent games (``AgentSeating/everySeat(slots:seats:)``),
    /// acting once per tick on every game's seat-1 row; each game's agent
    /// starts every episode from `Seeds.agent(episodeSeed, seat: 1)`. The
    /// agent must be a built-in one (they never fault). `make` is given the
    /// chunk's vector environment (for ``AgentContext/vector``); seat 1's
    /// rows are written only when the agent reads them.
    case seated(name: String, make: @Sendable (_ games: Int, _ vector: AnyObject) -> any BatchAgent)
}
