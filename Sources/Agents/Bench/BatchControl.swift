/// Who plays seat 0 in a ``VectorBench``.
public enum BatchControl: Sendable {
    /// Uniform random actions, from one generator per game.
    case random
    /// The greedy action of a linear policy (observation length in, the
    /// game's action count out), computed for a whole chunk with one
    /// `cblas_sgemm` per tick.
    case linear(LinearPolicy)
}
