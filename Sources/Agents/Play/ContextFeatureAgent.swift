import Gym

/// A batched agent that reads each game's observation followed by the
/// context features of the rules that game plays (``ContextFeatures``): the
/// rules of its vector game (``VectorEnvironment/rules(_:)``) at the
/// episode's start, or the context's config when its games are in no
/// vector. Wraps a policy trained with a visible context
/// (``PolicyContext/visible``), and a visible self-play opponent.
///
/// Each row is copied with its features into the agent's own rows (one
/// allocation at creation), so the inner agent sees rows of the wider
/// width; its actions are the inner agent's on those rows.
final class ContextFeatureAgent<Game: PlayableGame>: BatchAgent {
    let inner: any BatchAgent
    let features: ContextFeatures
    /// The game's own observation count, and the row width with the features.
    let observationCount: Int, width: Int
    let seating: AgentSeating
    let vector: Game.Vector?
    let config: Game.Config
    let rows: UnsafeMutableBufferPointer<Float>

    init(_ inner: any BatchAgent, features: ContextFeatures, context: AgentContext<Game>) {
        precondition(inner.games == context.games, "the inner agent plays the context's games")
        self.inner = inner
        self.features = features
        observationCount = context.target.inputs
        width = observationCount + features.count
        seating = context.seating
        vector = context.vector
        config = context.config
        rows = .allocate(capacity: max(1, context.games * width))
        rows.initialize(repeating: 0)
    }

    deinit { rows.deallocate() }

    var games: Int { inner.games }

    func start(game g: Int, seed: UInt64) throws(AgentFault) {
        if let base = rows.baseAddress {
            features.write(of: vector?.rules(seating.slot(g)) ?? config, into: base + g * width + observationCount)
        }
        try inner.start(game: g, seed: seed)
    }

    func end(game g: Int) throws(AgentFault) { try inner.end(game: g) }

    func act(_ r: AgentRows) throws(AgentFault) {
        guard let base = rows.baseAddress else { return }
        for k in 0 ..< r.count {
            let g = r.game(k)
            (base + g * width).update(from: r.observations + g * r.stride, count: observationCount)
        }
        try inner.act(AgentRows(count: r.count, games: r.games, observations: base, stride: width, actions: r.actions))
    }
}
