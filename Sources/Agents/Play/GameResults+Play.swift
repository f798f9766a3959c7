import Gym

// Public ways to build the records of games played outside the runners
// (by a person in `gym-train play`), whose memberwise initializers are internal.

extension PongMatchResult {
    /// An empty result of a game from `seed` (scores 0, no steps), to be filled in as it is played.
    public init(startingFrom seed: UInt64) {
        self.init(seed: seed, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                  hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0)
    }
}

extension BreakoutEpisode {
    /// The record of episode `index` from `seed` that ended in `core`, with
    /// `events` summed over its steps (as ``BreakoutRun/play(config:seed:index:agent:)`` sums them).
    public init(index: Int, seed: UInt64, final core: BreakoutCore, events: BreakoutEvents) {
        self.init(index: index, seed: seed, score: Int(core.score), steps: Int(core.steps), end: core.end,
                  levelsCleared: Int(core.levelsCleared), livesLost: Int(events.livesLost), events: events)
    }
}
