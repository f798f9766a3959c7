import Gym

/// What Agents needs of a game: its config, its vector environment, how an
/// agent spec becomes a player, the record of one finished episode and how
/// the one slot engine books it, and the reference path that plays one
/// episode alone. Everything game-specific in Agents sits behind this
/// protocol (one conformance per game, ``Pong`` and ``Breakout``); the slot
/// engine, evaluation, training and the CLI are generic over it.
public protocol PlayableGame: SendableMetatype {
    associatedtype Config: VariantConfig
    associatedtype Vector: VectorEnvironment where Vector.Config == Config
    /// One finished episode (Pong: a two-player game; Breakout: one episode).
    associatedtype Record: Sendable
    /// An episode's running books (the record so far, and what booking it needs).
    associatedtype Tally
    /// The game's heuristic player (``makeTracker(config:skill:)``).
    associatedtype Tracker: Agent

    /// The game's name (``GameConfig/gameName``: "pong", "breakout").
    static var name: String { get }
    /// Seats per game (players acting each step).
    static var seats: Int { get }
    /// Events of a step in which nothing happened.
    static var noEvents: Vector.Events { get }

    /// What a policy for `config` looks like.
    static func policyTarget(_ config: Config) -> PolicyTarget
    /// Checks that `spec` can play under `config` (a saved policy must have
    /// this game's layout and shape; actions must exist).
    static func check(_ spec: AgentSpec, config: Config) throws(AgentSpecError)
    /// The game's heuristic player (`tracker` specs) with `skill`.
    static func makeTracker(config: Config, skill: TrackerSkill) -> Tracker
    /// The game's heuristic player for many games (``BatchAgent``): the
    /// actions of ``makeTracker(config:skill:)``'s, game by game, bit for bit.
    static func makeBatchTracker(skill: TrackerSkill, context: AgentContext<Self>) -> any BatchAgent
    /// The trackers of `skills` (a roster's, in order) for `context`'s
    /// games, made together so that they may share their work (Pong in the
    /// slot engine: ``PongTrackerSeats``); the default makes each alone
    /// (``makeBatchTracker(skill:context:)``).
    static func makeBatchTrackers(skills: [TrackerSkill], context: AgentContext<Self>) -> [any BatchAgent]

    /// The books of game `i` of `vector`, just reset with `seed`.
    static func beginRecord(_ vector: Vector, _ i: Int, seed: UInt64) -> Tally
    /// Books one step's events of the game.
    static func book(_ tally: inout Tally, _ events: Vector.Events)
    /// Whether booking `events` leaves every tally as it is (nothing the
    /// books count happened in the step), so that the booking may be skipped.
    static func booksNothing(_ events: Vector.Events) -> Bool
    /// ``booksNothing(_:)`` of each of `count` steps' events (`events[0 ..< count]`);
    /// the default asks each in turn.
    static func booksNothing(_ events: UnsafePointer<Vector.Events>, count: Int) -> Bool
    /// The record, once game `i`'s episode ended.
    static func endRecord(_ tally: Tally, _ vector: Vector, _ i: Int) -> Record

    /// The reference path: one episode alone from `seed` to its end, seat
    /// `s` played by `agents[s]` (reset with `Seeds.agent(seed, seat: s)`).
    static func playAlone(config: Config, seed: UInt64, agents: inout [any Agent]) -> Record
}

extension PlayableGame {
    public static var name: String { Config.gameName }

    @inline(__always)
    public static func booksNothing(_ events: UnsafePointer<Vector.Events>, count: Int) -> Bool {
        (0 ..< count).allSatisfy { booksNothing(events[$0]) }
    }

    /// A vector environment of `count` games with autoreset disabled (the
    /// slot engine restarts each game itself, with its episode's seed).
    public static func makeVector(config: Config, count: Int) -> Vector {
        Vector(config: config, count: count, seed: 0, firstIndex: 0, autoresetMode: .disabled)
    }

    /// A fresh agent of `spec` (which passed ``check(_:config:)``); each
    /// worker builds its own. `random` plays uniformly over the game's
    /// actions (the policy target's outputs).
    public static func makeAgent(_ spec: AgentSpec, config: Config) -> any Agent {
        switch spec.kind {
        case .random: RandomAgent(actionCount: policyTarget(config).outputs)
        case let .tracker(skill): makeTracker(config: config, skill: skill)
        case let .constant(action): ConstantAgent(action: action)
        case let .linear(_, checkpoint, selection):
            // A policy that reads its context's features plays batched only (ContextFeatureAgent).
            if checkpoint.variants?.visible == true {
                preconditionFailure("\(spec.displayName) reads context features; seat it with makeBatchAgent")
            } else {
                LinearAgent(policy: checkpoint.policy, selection: selection)
            }
        case let .recorded(actions): RecordedAgent(actions: actions)
        case .process:
            // External agents act only through makeBatchAgent (one process per
            // agent per worker); no per-game path seats them.
            preconditionFailure("an external agent (\(spec.displayName)) has no per-game form; seat it with makeBatchAgent")
        }
    }
}
