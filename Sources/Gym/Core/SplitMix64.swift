/// SplitMix64: a tiny, fast 64-bit generator used to derive seeds.
///
/// Source: Steele, Lea & Flood, "Fast Splittable Pseudorandom Number
/// Generators" (OOPSLA 2014); constants as in Vigna's reference
/// `splitmix64.c`. Every seed in the gym is produced by this function, so a
/// seed is a pure function of its inputs and never of time or thread.
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable, Codable {
    public var state: UInt64

    @inlinable
    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One SplitMix64 output for `value` without keeping a generator.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var g = SplitMix64(seed: value)
        return g.next()
    }
}

/// Seeds for runs, episodes and streams.
///
/// Episode seeds are a pure function of `(runSeed, episodeIndex)`, computed
/// before any parallel work, so results never depend on the number of
/// workers, the batch size or which machine of a cluster ran the episode.
public enum Seeds {
    /// The seed of episode `index` of a run seeded with `runSeed`.
    @inlinable
    public static func episode(runSeed: UInt64, index: Int) -> UInt64 {
        SplitMix64.mix(SplitMix64.mix(runSeed) ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    }

    /// A named sub-stream of `seed` (e.g. the opponent's generator, sticky actions),
    /// so that adding draws to one stream never shifts another.
    @inlinable
    public static func stream(_ seed: UInt64, _ stream: UInt64) -> UInt64 {
        SplitMix64.mix(seed ^ SplitMix64.mix(stream &+ 0x632B_E59B_D9B4_E019))
    }
}

extension Seeds {
    /// The seed of episode `episode` (0, 1, 2, … counted per game) of game
    /// `game` (its global index) in a batch seeded with `batchSeed`:
    /// `episode(runSeed: stream(batchSeed, game), index: episode)`. A pure
    /// function, so a batch split into slices across workers replays exactly
    /// the games of one big batch.
    @inlinable
    public static func batchEpisode(batchSeed: UInt64, game: Int, episode: UInt64) -> UInt64 {
        Seeds.episode(runSeed: Seeds.stream(batchSeed, UInt64(truncatingIfNeeded: game)),
                      index: Int(truncatingIfNeeded: episode))
    }
}

extension Seeds {
    /// The sub-streams of an episode seed (``stream(_:_:)``) that a game's
    /// own generators draw from: the serve's direction and angle, sticky
    /// actions, Breakout's push direction and its drawn walls, and the
    /// episode's rule variant (``VariantSet/draw(episodeSeed:)``). Agents'
    /// streams start at 10 (its `SeedStream`), so the two never collide.
    public static let serveStream: UInt64 = 1, stickyStream: UInt64 = 2, pushStream: UInt64 = 3, wallStream: UInt64 = 4,
                      variantStream: UInt64 = 5
}
