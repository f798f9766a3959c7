/// One game of a batch's kind as its own value: how the batch draws a game
/// (``VectorEnvironment/render(_:into:)``) and what its snapshots hold.
protocol SingleGame {
    associatedtype Config
    associatedtype State: SnapshotState where State.Config == Config
    /// A game ready to play, seeded with `seed`.
    init(config: Config, seed: UInt64)
    var state: State { get set }
    /// Draws the state as a grayscale frame.
    func render(into frame: inout GrayFrame)
}

/// A batch whose games each keep their rules (a ``PerGameRules``), an
/// episode counter and a restart stream (``RestartStreams``): both games'
/// batches. Everything a game's episodes, rules, snapshots and restarts
/// follow is written here once (``VectorEnvironment`` states the contract:
/// "Seeds", "Rules"; ``RuleContextVector`` the drawn rules); a batch gives
/// its storage and how one game starts, reads and writes its state.
protocol GameBatch: RuleContextVector where SavedGame == Snapshot<Game.State, Config> {
    associatedtype Physics: GamePhysics where Physics.Config == Config
    associatedtype Game: SingleGame where Game.Config == Config
    /// `body` applied to the batch's columns of each game's rules
    /// (``rules(_:)``), restart stream (see ``VectorEnvironment``, "Seeds")
    /// and episodes started so far (the first is episode 0). A call, not
    /// three properties: reading a noncopyable property through a protocol
    /// is a coroutine, whose frame an unoptimised build allocates (steps
    /// allocate nothing in any build).
    func withGames<R>(_ body: GameColumns<R>) -> R
    /// Starts an episode of game `i` seeded `seed` under the rules the game
    /// plays now (``physics(_:)``); counts nothing.
    func start(_ i: Int, seed: UInt64)
    /// Game `i`'s full state as a value (`i` checked).
    func state(_ i: Int) -> Game.State
    /// Writes `state` as game `i`'s (`i` in range, the state valid under the
    /// game's rules).
    func store(_ state: Game.State, _ i: Int)
}

extension GameBatch {
    /// What ``withGames(_:)`` applies: each game's rules, restart streams, episode counters.
    typealias GameColumns<R> = (borrowing PerGameRules<Physics>, borrowing RestartStreams, borrowing Column<UInt64>) -> R

    // MARK: - Each game's rules

    /// Game `i`'s physics: its own rules' (``rules(_:)``).
    @inline(__always)
    func physics(_ i: Int) -> Physics { withGames { rules, _, _ in rules.physics(i) } }

    /// The rules game `i` is playing (its episode's; ``config`` until given others).
    public func rules(_ i: Int) -> Config { withGames { rules, _, _ in rules.rules(i) } }

    // MARK: - One game (snapshots)

    /// Game `i` as a saved game (state and config).
    public func snapshot(_ i: Int) -> SavedGame {
        SavedGame(config: rules(i), state: state(i))
    }

    /// Restores game `i` from a saved game whose config is the batch's or
    /// differs from it only in rule values: the game then plays the
    /// snapshot's rules (its episode counter and restart stream are kept).
    /// - Throws: ``SnapshotError/corrupt(_:)`` when the snapshot's config
    ///   differs from the batch's in a key that is not a rule value
    ///   (``VariantConfig/layoutDifference(_:)``: the field, seats, actions,
    ///   Breakout's wall, the observation layout),
    ///   ``SnapshotError/impossible(field:value:allowed:)`` when the state
    ///   breaks one of the game's invariants (``SnapshotState/checkInvariants(_:)``).
    public func restore(_ snapshot: SavedGame, into i: Int) throws(SnapshotError) {
        precondition(i >= 0 && i < count, "game index out of range")
        try checkSnapshotRules(snapshot.config)
        try snapshot.state.checkInvariants(snapshot.config)
        withGames { rules, _, _ in rules.set(snapshot.config, i) }
        store(snapshot.state, i)
    }

    /// Checks that `rules` (a snapshot's config) differs from the batch's
    /// config only in rule values (``VariantConfig/layoutDifference(_:)``).
    /// - Throws: ``SnapshotError/corrupt(_:)`` naming the first key that
    ///   differs and is not a rule value, and the keys that may differ.
    func checkSnapshotRules(_ rules: Config) throws(SnapshotError) {
        guard let key = config.layoutDifference(rules) else { return }
        throw .corrupt("the snapshot's config (hash \(String(rules.configHash, radix: 16))) differs from the batch's (hash \(String(config.configHash, radix: 16))) in \"\(key)\", which is not a rule value (allowed to differ: \(Config.variantKeys.joined(separator: ", ")))")
    }

    /// Draws game `i` as its game type's `render(into:)` does
    /// (``PongGame/render(into:)``, ``BreakoutGame/render(into:)``).
    public func render(_ i: Int, into frame: inout GrayFrame) {
        var game = Game(config: rules(i), seed: 0)
        game.state = state(i)
        game.render(into: &frame)
    }

    // MARK: - Episodes

    /// Starts a new episode of game `i` with seed `seed` (counted as an
    /// episode of that game); its later restarts draw from `seed`'s restart
    /// stream (see ``VectorEnvironment``, "Seeds").
    public func reset(_ i: Int, seed: UInt64) {
        reset(i, seed: seed, rules: episodeRules(seed: seed))
    }

    /// Starts a new episode of game `i` with seed `seed` under `rules`
    /// (which differ from ``config`` only in rule values: a precondition;
    /// callers taking rules from outside check them with
    /// ``VariantConfig/layoutDifference(_:)`` and ``GameConfig/validate(source:)``),
    /// as ``reset(_:seed:)`` does under ``config``; its automatic restarts
    /// keep these rules.
    public func reset(_ i: Int, seed: UInt64, rules: Config) {
        precondition(i >= 0 && i < count, "game index out of range")
        precondition(rules == config || config.layoutDifference(rules) == nil,
                     "rules must differ from the batch's config only in rule values")
        withGames { table, restarts, episodes in
            table.set(rules, i)
            episodes[i] &+= 1
            restarts.follow(i, resetSeed: seed)
        }
        start(i, seed: seed)
    }

    public func reset(mask: UnsafePointer<UInt8>, seeds: UnsafePointer<UInt64>?) {
        for i in 0 ..< count where mask[i] != 0 {
            if let seeds { reset(i, seed: seeds[i]) } else { nextEpisode(i) }
        }
    }

    /// Episodes started so far by game `i` (1 after `init`).
    public func episodesStarted(_ i: Int) -> UInt64 { withGames { _, _, episodes in episodes[i] &+ 1 } }

    /// Starts every game's episode 0 (the end of `init`).
    func startFirstEpisodes() {
        for i in 0 ..< count { startDrawnEpisode(i) }
    }

    /// An automatic restart of game `i` (out of line: rare).
    @inline(never)
    func nextEpisode(_ i: Int) {
        withGames { _, _, episodes in episodes[i] &+= 1 }
        startDrawnEpisode(i)
    }

    /// Starts game `i`'s episode seeded by the next seed of its restart
    /// stream, under the rules the context draws from that seed (without a
    /// context, the rules it plays).
    @inline(__always)
    func startDrawnEpisode(_ i: Int) {
        let s = withGames { table, restarts, _ in
            let s = restarts.draw(i)
            if let ruleContext { table.set(ruleContext.rules(episodeSeed: s).config, i) }
            return s
        }
        start(i, seed: s)
    }

    // MARK: - Restart streams (``VectorEnvironment``, "Seeds")

    /// Restarts game `i`'s stream at `runSeed` and plays its episode 0
    /// (counted as an episode of that game) under the batch's config.
    public func reset(_ i: Int, stream runSeed: UInt64) {
        withGames { table, restarts, _ in
            table.set(config, i)
            restarts.set(RestartStream(runSeed: runSeed, next: 0), i)
        }
        nextEpisode(i)
    }

    public func restartStream(_ i: Int) -> RestartStream { withGames { _, restarts, _ in restarts.stream(i) } }
    public func setRestartStream(_ stream: RestartStream, _ i: Int) { withGames { _, restarts, _ in restarts.set(stream, i) } }
}
