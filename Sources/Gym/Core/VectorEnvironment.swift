/// How a vector environment restarts games whose episode ended
/// (Gymnasium's `AutoresetMode`, same three modes, same meaning).
public enum AutoresetMode: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The step *after* an episode ended restarts that game: it ignores the
    /// game's actions, returns the new episode's first observation, reward 0,
    /// both flags false, end `.none`, no events (Gymnasium's default).
    case nextStep = 0
    /// The step that ends an episode also restarts the game: its reward,
    /// flags, end reason and events describe the finished episode, the
    /// observation is the new episode's first, and the finished episode's
    /// last observation goes to `finalObservations`.
    case sameStep = 1
    /// A finished game stays finished (stepping it repeats its flags and
    /// changes nothing) until the caller resets it (``VectorEnvironment/reset(mask:seeds:)``).
    case disabled = 2

    public var description: String {
        switch self {
        case .nextStep: "next-step"
        case .sameStep: "same-step"
        case .disabled: "disabled"
        }
    }
}

extension Seeds {
    /// The sub-stream of an explicit reset seed from which a vector
    /// environment's game draws the seeds of its later automatic restarts
    /// (see ``VectorEnvironment``, "Seeds").
    public static let restartStream: UInt64 = 0x2E57_A27

    /// The seed of the `k`-th automatic restart (from 0) of a game reset
    /// with `seed` (see ``VectorEnvironment``, "Seeds").
    @inlinable
    public static func restart(afterReset seed: UInt64, index k: UInt64) -> UInt64 {
        episode(runSeed: stream(seed, restartStream), index: Int(truncatingIfNeeded: k))
    }
}

/// Where a game of a ``VectorEnvironment`` stands in its restart stream:
/// its next automatic restart (or seedless reset) plays
/// `Seeds.episode(runSeed: runSeed, index: next)`.
public struct RestartStream: Equatable, Sendable {
    /// The stream's run seed.
    public var runSeed: UInt64
    /// Index of the next episode the stream hands out (0 ... 2^64 - 1).
    public var next: UInt64

    public init(runSeed: UInt64, next: UInt64) {
        self.runSeed = runSeed
        self.next = next
    }

    /// The seed of the episode the stream handed out last (the one being
    /// played when the game's episode came from the stream), or nil when the
    /// stream has handed out none yet (after ``VectorEnvironment/reset(_:seed:)``).
    public var lastEpisodeSeed: UInt64? {
        next == 0 ? nil : Seeds.episode(runSeed: runSeed, index: Int(truncatingIfNeeded: next &- 1))
    }
}

/// What a game's observation vector holds: its length, its layout version
/// (bumped whenever the meaning of an index changes, so checkpoints made for
/// another layout are refused) and, per index, a lower and an upper bound
/// that every observation the game produces respects, for every config in
/// range (tests roll out at the edges of every config range to pin them).
public struct ObservationLayout: Equatable, Sendable {
    /// Floats per observation (per seat).
    public let count: Int
    /// Layout version (see the type's doc).
    public let version: Int
    /// Per-index lower bounds (`count` entries).
    public let lower: [Float]
    /// Per-index upper bounds (`count` entries).
    public let upper: [Float]

    public init(count: Int, version: Int, lower: [Float], upper: [Float]) {
        precondition(lower.count == count && upper.count == count, "one bound per index")
        self.count = count; self.version = version; self.lower = lower; self.upper = upper
    }
}

/// Caller-owned buffers one ``VectorEnvironment/step(actions:into:)`` writes.
///
/// Plain contiguous memory, so a C caller (the C ABI) can own it. With `N`
/// games, `S` seats (``VectorEnvironment/seats``) and `n` floats per
/// observation (``ObservationLayout/count``), game-major:
/// - `observations`, `finalObservations`: `N × S × n` floats, game `i` seat
///   `s` at `(i × S + s) × n`;
/// - `rewards`: `N × S` floats, game `i` seat `s` at `i × S + s`;
/// - `terminated`, `truncated`, `ends`, `events`: `N` entries.
/// Optional buffers that are nil are not written (a caller that needs no
/// observation, e.g. a benchmark of the physics alone, pays for none).
///
/// ``observedSeats`` narrows the observations to the first seats: with
/// `k = min(observedSeats, S)` (default: every seat) only seats `0 ..< k`
/// are observed and `observations` and `finalObservations` hold `N × k × n`
/// floats, game `i` seat `s` at `(i × k + s) × n`. A learner of seat 0
/// against a scripted opponent, or a benchmark, asks for 1 and pays for
/// one observation per game instead of `S`.
///
/// ``observedRows`` narrows them further, seat by seat: when set, seat `s`
/// of game `i` needs its row only where `observedRows[s × N + i] != 0`
/// (`N × k` bytes, seat-major). Rows not needed may be left as they were
/// (both games skip them eight games at a time); a caller whose agents read the
/// state instead of rows (built-in trackers) pays for no row they ignore.
@frozen
public struct VectorStepOutput<Events> {
    /// Every seat's observation after the step (after a same-step or
    /// next-step restart: the new episode's first).
    public var observations: UnsafeMutablePointer<Float>?
    /// Every seat's reward this step (summed over repeated frames).
    public var rewards: UnsafeMutablePointer<Float>
    /// 1 when the game ended by its rules this step, else 0.
    public var terminated: UnsafeMutablePointer<UInt8>
    /// 1 when an outside limit ended the game this step, else 0.
    public var truncated: UnsafeMutablePointer<UInt8>
    /// ``EpisodeEnd`` raw values (0 while running).
    public var ends: UnsafeMutablePointer<UInt8>?
    /// What happened in each game this step.
    public var events: UnsafeMutablePointer<Events>?
    /// Same-step autoreset: every seat's last observation of a game whose
    /// episode ended this step (game `i`'s rows written only then).
    public var finalObservations: UnsafeMutablePointer<Float>?
    /// Seats observed, from seat 0 (see the type's doc); `Int.max`: all.
    public var observedSeats: Int
    /// Per seat and game, whether its row is needed (see the type's doc); nil: every row.
    public var observedRows: UnsafePointer<UInt8>?

    @inlinable
    public init(observations: UnsafeMutablePointer<Float>?, rewards: UnsafeMutablePointer<Float>,
                terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                ends: UnsafeMutablePointer<UInt8>? = nil, events: UnsafeMutablePointer<Events>? = nil,
                finalObservations: UnsafeMutablePointer<Float>? = nil, observedSeats: Int = .max,
                observedRows: UnsafePointer<UInt8>? = nil) {
        precondition(observedSeats >= 0, "observedSeats must not be negative")
        self.observations = observations
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.ends = ends
        self.events = events
        self.finalObservations = finalObservations
        self.observedSeats = observedSeats
        self.observedRows = observedRows
    }

    /// Seats observed by an environment with `seats` seats.
    @inlinable
    public func seatsObserved(of seats: Int) -> Int { min(observedSeats, seats) }
}

/// N games of one kind stepped together: the one batched API every caller
/// (the slot engine in Agents, the benchmark, the C ABI, Python) drives the
/// same way for either game.
///
/// - Seats: Pong has two (0 = bottom, 1 = top), Breakout one. Every step
///   takes one action per seat per game from one caller-owned buffer
///   (`N × S` Int32, game `i` seat `s` at `i × S + s`); an action outside
///   `0 ..< actionCount` acts as the game's no-op.
/// - Seeds: each game draws the seeds of its automatic restarts (and of
///   ``reset(mask:seeds:)`` without a seed) from its own *restart stream*,
///   `Seeds.episode(runSeed: r, index: k)` for `k = 0, 1, 2, …`:
///   - built with `seed` and `firstIndex`, game `i` has
///     `r = Seeds.stream(seed, firstIndex + i)` and plays episode `e`
///     (counted from 0) with `Seeds.episode(runSeed: r, index: e)`, i.e.
///     ``Seeds/batchEpisode(batchSeed:game:episode:)`` of
///     `(seed, firstIndex + i, e)`: slices of a batch replay the games of
///     the whole batch;
///   - ``reset(_:stream:)`` with `r` restarts the stream itself at run seed
///     `r`, `k = 0`: the game plays `Seeds.episode(runSeed: r, index: 0)`
///     now and `index: 1, 2, …` at its later restarts, exactly the episodes
///     `gym-train eval --seed r` plays (the C ABI and Python seed this way);
///   - ``reset(_:seed:)`` with `s` plays that episode with seed `s` and
///     restarts the stream at `r = Seeds.stream(s, Seeds.restartStream)`,
///     `k = 0`: the `k`-th automatic restart after it (counted from 0)
///     plays `Seeds.episode(runSeed: r, index: k)`. So a batch of one game
///     reset with `s` and game `i` of any batch reset with `s` play the
///     same episodes, whatever happened to the game before.
/// - Rules: every game plays the batch's `config` unless reset with its own
///   rules (``reset(_:seed:rules:)``, or a restored snapshot of other rule
///   values); its automatic restarts keep the rules it plays, an explicit
///   reset without rules (``reset(_:seed:)``, ``reset(_:stream:)``, a seeded
///   ``reset(mask:seeds:)``) goes back to `config`. A game under rules `R`
///   plays exactly what a batch of `R` would. A batch built with a rule
///   context (``RuleContextVector``) instead draws the rules of every
///   episode started without explicit rules from the episode's seed.
/// - Determinism: the same seeds and actions give bit-identical outputs,
///   whatever the batch size or a game's position in it.
public protocol VectorEnvironment: AnyObject {
    associatedtype Config: GameConfig
    associatedtype Events
    associatedtype SavedGame

    /// `count` games (at least 1) of `config`, each starting its episode 0,
    /// seeded from `seed` and `firstIndex` (see "Seeds"), restarting as
    /// `autoresetMode` says.
    init(config: Config, count: Int, seed: UInt64, firstIndex: Int, autoresetMode: AutoresetMode)

    var config: Config { get }
    /// Number of games.
    var count: Int { get }
    /// Seats per game (players acting each step).
    var seats: Int { get }
    /// Discrete actions per seat (`0 ..< actionCount`).
    var actionCount: Int { get }
    /// The observation of one seat.
    var observationLayout: ObservationLayout { get }
    var autoresetMode: AutoresetMode { get }

    /// Starts a new episode of game `i` with seed `seed` under the batch's
    /// `config` (a game playing other rules goes back to it).
    func reset(_ i: Int, seed: UInt64)
    /// Starts a new episode of game `i` with seed `seed` under `rules` (a config of the
    /// batch's kind that differs from `config` only in rule values: the same seats,
    /// actions and observation layout), as `reset(_:seed:)` does under `config`.
    func reset(_ i: Int, seed: UInt64, rules: Config)
    /// The rules game `i` is playing (its episode's; `config` until given others).
    func rules(_ i: Int) -> Config
    /// Restarts game `i`'s restart stream at run seed `runSeed` and plays its
    /// first episode (see "Seeds").
    func reset(_ i: Int, stream runSeed: UInt64)
    /// Game `i`'s restart stream (saved with a snapshot of the game by
    /// callers that continue its episodes, such as the C ABI).
    func restartStream(_ i: Int) -> RestartStream
    /// Sets game `i`'s restart stream (its state is left as it is).
    func setRestartStream(_ stream: RestartStream, _ i: Int)
    /// Starts a new episode of every game `i` with `mask[i] != 0`, with
    /// `seeds[i]` (nil: the game's next seed from its own stream).
    func reset(mask: UnsafePointer<UInt8>, seeds: UnsafePointer<UInt64>?)
    /// Episodes started so far by game `i` (1 after `init`).
    func episodesStarted(_ i: Int) -> UInt64
    /// Writes every seat's current observation of every game (`N × S × n`).
    func observe(into out: UnsafeMutablePointer<Float>)
    /// One agent step of every game (see the type's doc).
    func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<Events>)

    /// Game `i` as a saved game (its rules, ``rules(_:)``, and full state,
    /// generators included).
    func snapshot(_ i: Int) -> SavedGame
    /// Restores game `i` from a saved game whose config is this batch's or
    /// differs from it only in rule values (the game then plays those
    /// rules); any other config is refused with one ``SnapshotError``.
    func restore(_ snapshot: SavedGame, into i: Int) throws(SnapshotError)
    /// Draws game `i` as a grayscale frame of the game's own size.
    func render(_ i: Int, into frame: inout GrayFrame)
}
