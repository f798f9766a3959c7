import Gym

/// What a trainer trains on: a factory of environments plus how episode
/// `index` of an iteration starts. Trainers are generic over it, so any
/// ``Environment`` (Pong against an opponent, Breakout, …) plugs in; the
/// return of an episode is the sum of the environment's rewards.
public protocol TrainingTask: Sendable {
    associatedtype Env: Environment

    /// The game, observation layout and policy shape.
    var target: PolicyTarget { get }
    /// Training episodes stop after this many agent steps (the episode
    /// return counts the rewards until then).
    var episodeSteps: Int { get }
    /// A fresh environment for one worker. `centre` is the policy being
    /// trained as it stands at the start of the iteration (the opponent in
    /// self-play; ignored otherwise).
    func makeEnvironment(centre: LinearPolicy) -> Env
    /// Starts episode `index` of an iteration from `seed`.
    func reset(_ env: inout Env, seed: UInt64, index: Int)
    /// Whether ``playBatched(_:runner:slots:)`` was measured faster than
    /// playing one by one for this task (default: false).
    var batchIsFaster: Bool { get }
    /// Plays `plan` on batched environments with exactly the results of
    /// ``Rollout/playOneByOne(_:task:runner:)``, `slots` episodes per worker
    /// at a time; nil when the task has no batched path (the default).
    func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) throws(AgentFault) -> RolloutResults?
    /// Plays a ``Reinforce`` iteration's episodes on batched environments
    /// with exactly the gradients of ``ReinforcePlan/playOneByOne(task:runner:)``
    /// (episode `k` at index `k`), `slots` episodes per worker at a time;
    /// nil when the task has no batched path (the default).
    func playReinforceBatched(_ plan: ReinforcePlan, runner: ParallelRunner, slots: Int) throws(AgentFault)
        -> [EpisodeGradient]?
}

extension TrainingTask {
    public var batchIsFaster: Bool { false }
    public func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) throws(AgentFault) -> RolloutResults? { nil }
    public func playReinforceBatched(_ plan: ReinforcePlan, runner: ParallelRunner,
                                     slots: Int) -> [EpisodeGradient]? { nil }
}

/// What one episode gave.
public struct EpisodeResult: Equatable, Sendable {
    /// Sum of rewards.
    public var totalReturn: Double
    /// Sum of the positive rewards (Pong: points won; Breakout: score).
    public var gained: Double
    /// Minus the sum of the negative rewards (Pong: points lost).
    public var lost: Double
    /// Agent steps played.
    public var steps: Int

    public init(totalReturn: Double = 0, gained: Double = 0, lost: Double = 0, steps: Int = 0) {
        self.totalReturn = totalReturn; self.gained = gained; self.lost = lost; self.steps = steps
    }

    /// Books one step and its reward (every rollout path books through this,
    /// so their sums agree bit for bit).
    @inlinable @inline(__always)
    public mutating func add(reward: Float) {
        steps += 1
        let r = Double(reward)
        totalReturn += r
        if r > 0 { gained += r } else if r < 0 { lost -= r }
    }
}

/// Plays episodes of a task with a linear agent.
public enum Rollout {
    /// Plays one episode (up to `maxSteps` agent steps) with `agent`,
    /// adding every observation to `statistics` when given.
    /// - Parameter observation: scratch of at least the task's input count.
    @inlinable
    public static func play<E: Environment>(_ env: inout E, agent: inout LinearAgent, maxSteps: Int,
                                            observation: UnsafeMutableBufferPointer<Float>,
                                            statistics: inout ObservationStatistics?) -> EpisodeResult {
        var result = EpisodeResult()
        let view = UnsafeBufferPointer(observation)
        while result.steps < maxSteps {
            env.observe(into: observation)
            if statistics != nil { statistics?.add(view) }
            let step = env.step(agent.act(view))
            result.add(reward: step.reward)
            if step.isDone { break }
        }
        return result
    }
}

/// An ``Agent`` of any kind behind one concrete type (the opponent slot of
/// ``PongVersus``).
public struct AnyAgent: Agent {
    public var base: any Agent
    public init(_ base: any Agent) { self.base = base }
    public mutating func reset(seed: UInt64) { base.reset(seed: seed) }
    public mutating func act(_ observation: UnsafeBufferPointer<Float>) -> Int { base.act(observation) }
}

/// Training any single-player ``Environment`` one by one (no batched path):
/// the return is the game's reward sum within ``episodeSteps``. Breakout
/// training uses ``BreakoutTask``, which also plays batched.
public struct SinglePlayerTask<Env: Environment>: TrainingTask {
    public let target: PolicyTarget
    public let episodeSteps: Int
    let make: @Sendable () -> Env

    /// - Parameter make: builds one environment (called once per worker).
    public init(target: PolicyTarget, episodeSteps: Int, make: @escaping @Sendable () -> Env) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        self.target = target
        self.episodeSteps = episodeSteps
        self.make = make
    }

    public func makeEnvironment(centre: LinearPolicy) -> Env { make() }

    public func reset(_ env: inout Env, seed: UInt64, index: Int) { env.reset(seed: seed) }
}
