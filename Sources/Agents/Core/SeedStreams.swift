import Gym

/// The named sub-streams (``Seeds/stream(_:_:)``) that Agents draws from.
///
/// Every path that plays the same episode (one game alone, a batch slot,
/// a replay in `gym-train render`) resets its agents from the same stream of
/// the episode's seed, which is what makes the batched and reference paths
/// give bit-identical results; so the numbers are named here once and used
/// everywhere. Gym's own streams (``Seeds/serveStream`` and the others, 1 to 4)
/// are the game's and never collide with these.
public enum SeedStream {
    /// An episode's first seat (Pong: the bottom; Breakout: the player;
    /// training: the learner): its agent is reset with `stream(episodeSeed, seat0)`.
    public static let seat0: UInt64 = 10
    /// An episode's second seat (Pong: the top; training: the opponent).
    public static let seat1: UInt64 = 11
    /// The seat `seat`'s agent stream (seat 0 or 1).
    @inline(__always)
    public static func seat(_ seat: Int) -> UInt64 { seat0 + UInt64(truncatingIfNeeded: seat) }
    /// A benchmark runner's random actions: game `g` draws from
    /// `stream(stream(seed, randomActions), g)`.
    public static let randomActions: UInt64 = 0xAC7
    /// A benchmark's fixed random linear policy draws its weights from `stream(seed, benchPolicy)`.
    public static let benchPolicy: UInt64 = 0xBE4C
    /// A training run's periodic evaluation seeds derive from `stream(runSeed, evaluation)`.
    public static let evaluation: UInt64 = 0xE7A1
    /// An ES iteration's episode seeds derive from `stream(iterationSeed, esEpisodes)`.
    public static let esEpisodes: UInt64 = 0xE915_0DE5
    /// A tournament's rating bootstrap draws from `stream(runSeed, ratingBootstrap)`.
    public static let ratingBootstrap: UInt64 = 0xB007
    /// A robustness report's paired bootstrap draws from `stream(runSeed, robustnessBootstrap)`.
    public static let robustnessBootstrap: UInt64 = 0xB0B5
}

extension Seeds {
    /// The seed an agent in `seat` is reset with at the start of an episode seeded `episodeSeed`.
    @inline(__always)
    public static func agent(_ episodeSeed: UInt64, seat: Int) -> UInt64 {
        stream(episodeSeed, SeedStream.seat(seat))
    }
}
