import Gym
import Synchronization

/// The rows an agent acts on in one step: `count` of its games, each with
/// its observation row and the place its action goes, both found by the
/// row's game (the caller's buffers hold one row per agent game, so rows are
/// neither gathered nor scattered).
///
/// Within one request every row's game is different; rows come in no
/// promised order. The pointers are valid for the call only.
public struct AgentRows {
    /// Rows in this request (at least 1).
    public var count: Int
    /// Row `k` plays the agent's game `games[k]` (in `0 ..< agent.games`).
    public var games: UnsafePointer<Int32>
    /// Game `g`'s features (the game's observation from its seat) at
    /// `observations + g × stride`.
    public var observations: UnsafePointer<Float>
    /// Floats between games' rows (at least the game's observation count).
    public var stride: Int
    /// Game `g`'s action goes to `actions[g]` (one of the game's actions:
    /// `0 ..< PolicyTarget.outputs`).
    public var actions: UnsafeMutablePointer<Int32>

    public init(count: Int, games: UnsafePointer<Int32>, observations: UnsafePointer<Float>, stride: Int,
                actions: UnsafeMutablePointer<Int32>) {
        self.count = count; self.games = games; self.observations = observations
        self.stride = stride; self.actions = actions
    }

    /// Row `k`'s game.
    @inline(__always)
    public func game(_ k: Int) -> Int { Int(games[k]) }

    /// Row `k`'s observation, `length` floats.
    @inline(__always)
    public func observation(_ k: Int, length: Int) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: observations + game(k) * stride, count: length)
    }

    /// Sets row `k`'s action.
    @inline(__always)
    public func setAction(_ k: Int, _ action: Int32) { actions[game(k)] = action }
}

/// One agent acting for many games at once: the one way every command and
/// API drives an agent (the slot engine, matches, tournaments, balance,
/// sweeps, training, `play`, the C ABI).
///
/// An instance plays a fixed set of games (``games``), numbered
/// `0 ..< games`; where each one sits in the caller's vector (its slot and
/// seat) is the ``AgentSeating`` it was made with. For each game the caller
/// calls ``start(game:seed:)`` at each episode start, then ``act(_:)`` once
/// per step with that game among the rows (one call per step over all the
/// rows the agent plays), then ``end(game:)`` once the episode is over
/// (the game ended or the caller's step limit), before the game's next
/// start. An agent's actions for a game depend only on that game's seed and
/// the rows it was shown since, never on which other games share a call, so
/// results do not depend on batch sizes, slots or workers.
///
/// Instances are used by one thread at a time (one per roster entry per worker).
public protocol BatchAgent: AnyObject {
    /// The games this agent plays, fixed at creation.
    var games: Int { get }
    /// Game `game`'s episode starts; `seed` seeds the agent's generator for
    /// it (`Seeds.agent(episodeSeed, seat: s)`, s the game's seat).
    func start(game: Int, seed: UInt64) throws(AgentFault)
    /// Game `game`'s episode is over (called once, before its next start).
    func end(game: Int) throws(AgentFault)
    /// Writes the action of every row.
    func act(_ rows: AgentRows) throws(AgentFault)
}

/// Why an agent could not act: an external agent exited, timed out or sent
/// a bad reply, say. Built-in agents never throw. The caller stops the run
/// and the command prints ``description`` as its one error line.
public struct AgentFault: Error, Equatable, Sendable, CustomStringConvertible {
    /// The agent's display name (its spec's ``AgentSpec/displayName``).
    public var agent: String
    /// What went wrong, with the values involved.
    public var message: String

    public init(agent: String, message: String) {
        self.agent = agent; self.message = message
    }

    public var description: String { "agent \(agent): \(message)" }
}

/// Where an agent's games sit in the caller's vector environment: game `g`
/// is seat ``seat(_:)`` of vector game ``slot(_:)``.
public struct AgentSeating: Equatable, Sendable {
    /// Per agent game: the vector game (slot) it is in.
    public let slots: [Int32]
    /// Per agent game: the seat it plays (Pong: 0 bottom, 1 top; Breakout: 0).
    public let seatOf: [Int32]
    /// Seats of every vector game.
    public let seatsPerGame: Int

    public init(slots: [Int32], seats: [Int32], seatsPerGame: Int) {
        precondition(slots.count == seats.count, "one slot and one seat per agent game")
        precondition(seats.allSatisfy { $0 >= 0 && Int($0) < seatsPerGame }, "seats are 0 ..< seatsPerGame")
        self.slots = slots; seatOf = seats; self.seatsPerGame = seatsPerGame
    }

    /// Every seat of `slots` vector games: agent game `g` is seat
    /// `g % seats` of slot `g / seats` (the slot engine's seating).
    public static func everySeat(slots: Int, seats: Int) -> AgentSeating {
        AgentSeating(slots: (0 ..< slots * seats).map { Int32($0 / seats) },
                     seats: (0 ..< slots * seats).map { Int32($0 % seats) }, seatsPerGame: seats)
    }

    /// One seat of each of `slots` vector games: agent game `g` is seat `seat` of slot `g`.
    public static func oneSeat(_ seat: Int, slots: Int, seats: Int) -> AgentSeating {
        AgentSeating(slots: (0 ..< slots).map { Int32($0) }, seats: [Int32](repeating: Int32(seat), count: slots),
                     seatsPerGame: seats)
    }

    /// The agent's games.
    public var games: Int { slots.count }
    /// The vector game (slot) agent game `g` is in.
    @inline(__always) public func slot(_ g: Int) -> Int { Int(slots[g]) }
    /// The seat agent game `g` plays.
    @inline(__always) public func seat(_ g: Int) -> Int { Int(seatOf[g]) }
}

/// What an agent may know of the games it plays, at creation: the game and
/// its config, where its games sit, and the vector environment holding them
/// (when the caller steps one: built-in agents may read its state, external
/// ones render pixels from their seat).
public struct AgentContext<Game: PlayableGame> {
    public var config: Game.Config
    public var seating: AgentSeating
    /// The caller's vector environment, whose games ``seating`` names; nil
    /// when the games are not in one (``AgentRows`` carry the observations either way).
    public var vector: Game.Vector?

    public init(config: Game.Config, seating: AgentSeating, vector: Game.Vector? = nil) {
        self.config = config; self.seating = seating; self.vector = vector
    }

    /// The agent's games.
    public var games: Int { seating.games }
    /// What a policy for the game looks like (features in, actions out).
    public var target: PolicyTarget { Game.policyTarget(config) }
}

/// Per-game ``Agent`` values acting as one ``BatchAgent``: game `g` is
/// played by its own value, reset at each start with its seed, one row at a
/// time. The convenience adapter for agents with no batched form; every
/// built-in agent has its own (``PerGameAgentCalls`` counts this path).
public final class PerGameAgents<A: Agent>: BatchAgent {
    public var agents: [A]
    public let observationCount: Int

    /// `games` agents made by `make(g)`, each reading `observationCount` features.
    public init(games: Int, observationCount: Int, make: (Int) -> A) {
        agents = (0 ..< games).map(make)
        self.observationCount = observationCount
    }

    public var games: Int { agents.count }

    public func start(game: Int, seed: UInt64) { agents[game].reset(seed: seed) }

    public func end(game _: Int) {}

    public func act(_ rows: AgentRows) {
        PerGameAgentCalls.count.add(1, ordering: .relaxed)
        let n = observationCount
        agents.withUnsafeMutableBufferPointer { agents in
            for k in 0 ..< rows.count {
                rows.setAction(k, Int32(clamping: agents[rows.game(k)].act(rows.observation(k, length: n))))
            }
        }
    }
}

/// How often any ``PerGameAgents`` acted (one per ``BatchAgent/act(_:)``
/// call, process-wide): tests check that commands seating built-in agents
/// never take the per-game path.
public enum PerGameAgentCalls {
    public static let count = Atomic<Int>(0)
}

extension PlayableGame {
    public static func makeBatchTrackers(skills: [TrackerSkill], context: AgentContext<Self>) -> [any BatchAgent] {
        skills.map { makeBatchTracker(skill: $0, context: context) }
    }

    /// The batched agents of `specs` (which passed ``check(_:config:)``),
    /// in order, for `context`'s games, as ``makeBatchAgent(_:context:)``
    /// makes each; but a roster of trackers only (a ladder, a balance
    /// scenario between trackers) is made together
    /// (``makeBatchTrackers(skills:context:)``): no seat then needs an
    /// observation row, which is where sharing their work pays
    /// (docs/bench.md, "Agents seated").
    /// - Throws: ``AgentFault`` when an agent cannot be started (built-in agents never throw).
    public static func makeBatchAgents(_ specs: [AgentSpec], context: AgentContext<Self>) throws(AgentFault)
        -> [any BatchAgent] {
        var skills: [TrackerSkill] = []
        for spec in specs { if case let .tracker(skill) = spec.kind { skills.append(skill) } }
        let together = skills.count == specs.count ? makeBatchTrackers(skills: skills, context: context) : []
        var trackers = together.makeIterator()
        var made: [any BatchAgent] = []
        for spec in specs {
            if case .tracker = spec.kind, let tracker = trackers.next() {
                made.append(tracker)
            } else {
                made.append(try makeBatchAgent(spec, context: context))
            }
        }
        return made
    }

    /// A batched agent of `spec` (which passed ``check(_:config:)``) for
    /// `context`'s games; each worker builds its own. Every built-in kind
    /// has its own batched form (``RandomBatchAgent``, ``ConstantBatchAgent``,
    /// ``LinearBatchAgent``, ``RecordedBatchAgent``, the game's tracker:
    /// ``makeBatchTracker(skill:context:)``).
    /// - Throws: ``AgentFault`` when the agent cannot be started (built-in agents never throw).
    public static func makeBatchAgent(_ spec: AgentSpec, context: AgentContext<Self>) throws(AgentFault)
        -> any BatchAgent {
        let games = context.games
        switch spec.kind {
        case .random: return RandomBatchAgent(games: games, actionCount: context.target.outputs)
        case let .tracker(skill): return makeBatchTracker(skill: skill, context: context)
        case let .constant(action): return ConstantBatchAgent(games: games, action: action)
        case let .linear(_, checkpoint, selection):
            let agent = LinearBatchAgent(games: games, policy: checkpoint.policy, selection: selection)
            guard let variants = checkpoint.variants, variants.visible else { return agent }
            return ContextFeatureAgent(agent, features: variants.features, context: context)
        case let .recorded(actions): return RecordedBatchAgent(games: games, actions: actions)
        case let .process(file): return try ProcessAgent(spec: spec, file: file, context: context)
        }
    }
}
