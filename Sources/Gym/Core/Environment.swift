/// Why an episode ended.
public enum EpisodeEnd: UInt8, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// Still running.
    case none
    /// Pong: a side reached the max score (terminated).
    case gameOver
    /// Breakout: the last life was lost (terminated).
    case livesExhausted
    /// Breakout: the configured number of levels was cleared (terminated).
    case levelsCleared
    /// The configured step limit was reached (truncated).
    case stepLimit
    /// Breakout: no brick broken and no paddle contact for too long (truncated).
    case watchdog

    public var description: String {
        switch self {
        case .none: "none"
        case .gameOver: "game-over"
        case .livesExhausted: "lives-exhausted"
        case .levelsCleared: "levels-cleared"
        case .stepLimit: "step-limit"
        case .watchdog: "watchdog"
        }
    }

    /// Whether this end is a truncation (an outside limit) rather than a
    /// termination by the game's rules.
    /// (A switch, inlinable into the batches' step loops.)
    @inlinable public var isTruncation: Bool {
        switch self {
        case .stepLimit, .watchdog: true
        default: false
        }
    }
}

/// What one agent step returned.
@frozen
public struct StepResult: Equatable, Sendable {
    /// Reward for the acting agent over this step (summed over repeated frames).
    public var reward: Float
    /// The game ended by its rules.
    public var terminated: Bool
    /// An outside limit ended the episode (step limit, watchdog).
    public var truncated: Bool
    /// Why the episode ended (`.none` while running).
    public var end: EpisodeEnd

    @inlinable
    public init(reward: Float, terminated: Bool, truncated: Bool, end: EpisodeEnd) {
        self.reward = reward; self.terminated = terminated; self.truncated = truncated; self.end = end
    }

    /// Either flag: the episode is over and needs a reset.
    @inlinable public var isDone: Bool { terminated || truncated }
}

/// A single-agent environment: the simple, readable reference API.
///
/// `reset(seed:)` starts an episode, `step(_:)` advances one agent step,
/// `observe(into:)` writes the fixed-length feature vector into a buffer the
/// caller owns (no allocation). Everything random inside an episode comes
/// from generators seeded by `reset(seed:)`.
public protocol Environment {
    associatedtype Config: GameConfig
    associatedtype Events

    var config: Config { get }
    /// Length of the observation vector.
    var observationCount: Int { get }
    /// Number of discrete actions (0 ..< actionCount).
    var actionCount: Int { get }
    /// Events of the last step (counters for statistics).
    var lastEvents: Events { get }

    mutating func reset(seed: UInt64)
    mutating func step(_ action: Int) -> StepResult
    /// Writes the observation; `buffer.count` must be at least `observationCount`.
    func observe(into buffer: UnsafeMutableBufferPointer<Float>)
    /// Draws the state as a grayscale frame.
    func render(into frame: inout GrayFrame)
}

extension Environment {
    /// Convenience: the observation as a new array (allocates; not for hot loops).
    public func observation() -> [Float] {
        var out = [Float](repeating: 0, count: observationCount)
        out.withUnsafeMutableBufferPointer { observe(into: $0) }
        return out
    }
}
