import Testing
@testable import Gym

/// Events with an empty value (what a step in which nothing happened reports).
protocol BlankEvents: Equatable { init() }
extension PongEvents: BlankEvents {}
extension BreakoutEvents: BlankEvents {}

/// A game under the vector contract together with its single-game
/// reference (``PongGame``, ``BreakoutGame``): what the generic contract
/// tests need to know about it.
protocol ContractGame {
    associatedtype Batch: VectorEnvironment where Batch.Events: BlankEvents
    associatedtype Single
    associatedtype State: Equatable

    static var name: String { get }
    /// Seats per game (Pong 2, Breakout 1).
    static var seats: Int { get }
    /// Actions per seat of the reference game's config.
    static func actionCount(_ game: Single) -> Int
    /// Every preset, plus configs whose episodes end within a few hundred
    /// steps (so the autoreset paths run often) in every frame setting.
    static func testConfigs() throws -> [(String, Batch.Config)]
    static func single(_ config: Batch.Config, seed: UInt64) -> Single
    static func reset(_ game: inout Single, seed: UInt64)
    /// One reference step with the seats' actions (`actions[s]` for seat
    /// `s`); writes each seat's reward and the step's events.
    static func step(_ game: inout Single, _ actions: UnsafePointer<Int32>, rewards: UnsafeMutablePointer<Float>,
                     events: inout Batch.Events) -> StepResult
    static func observe(_ game: Single, seat: Int, into o: UnsafeMutablePointer<Float>)
    static func isOver(_ game: Single) -> Bool
    static func state(_ game: Single) -> State
    static func state(_ batch: Batch, _ i: Int) -> State
    static func render(_ game: Single, into frame: inout GrayFrame)
    /// A seat's action that follows the ball (from its observation), so
    /// rallies last and speeds build up in the bounds test.
    static func follow(_ observation: UnsafePointer<Float>) -> Int32
    /// The reference game continuing batch game `i`.
    static func single(restoring batch: Batch, _ i: Int) -> Single
    static func frame(_ config: Batch.Config) -> GrayFrame
}

enum PongContract: ContractGame {
    static let name = "pong"
    static let seats = 2
    static func actionCount(_ game: PongGame) -> Int { game.actionCount }

    static func testConfigs() throws -> [(String, PongConfig)] {
        let ale = try PongConfig.preset("ale")
        return try PongConfig.presetNames.map { ($0, try PongConfig.preset($0)) } + [
            ("short", PongConfig().with { $0.maxSteps = 700; $0.maxScore = 3 }),
            ("short-ale", ale.with { $0.maxSteps = 400 }),
            // Games won inside a sticky step (the draws stop with the game: the
            // finished state, kept one step in nextStep mode, shows them).
            ("short-ale-wins", ale.with { $0.maxScore = 2; $0.maxSteps = 500 }),
            ("fast-skip8", try PongConfig.preset("fast").with { $0.frameSkip = 8; $0.maxScore = 2; $0.maxSteps = 300 }),
            ("touch-sticky", try PongConfig.preset("touch").with { $0.stickyActionProbability = 0.5; $0.maxSteps = 350 }),
            ("extreme", PongCollisionTests.extreme),
        ]
    }

    static func single(_ config: PongConfig, seed: UInt64) -> PongGame { PongGame(config: config, seed: seed) }
    static func reset(_ game: inout PongGame, seed: UInt64) { game.reset(seed: seed) }

    static func step(_ game: inout PongGame, _ actions: UnsafePointer<Int32>, rewards: UnsafeMutablePointer<Float>,
                     events: inout PongEvents) -> StepResult {
        let r = game.step(top: Int(actions[1]), bottom: Int(actions[0]), events: &events)
        // Each side's reward: its points won minus its points lost (PongGame's doc).
        rewards[0] = r.reward
        rewards[1] = Float(events.pointsTop - events.pointsBottom)
        return r
    }

    static func observe(_ game: PongGame, seat: Int, into o: UnsafeMutablePointer<Float>) {
        game.observe(seat == 0 ? .bottom : .top, into: UnsafeMutableBufferPointer(start: o, count: PongGame.observationCount))
    }

    static func isOver(_ game: PongGame) -> Bool { game.isOver }
    static func state(_ game: PongGame) -> PongState { game.state }
    static func state(_ batch: PongBatch, _ i: Int) -> PongState { batch.state(i) }
    static func render(_ game: PongGame, into frame: inout GrayFrame) { game.render(into: &frame) }
    static func follow(_ o: UnsafePointer<Float>) -> Int32 { o[8] > 0.05 ? 2 : o[8] < -0.05 ? 1 : 0 }
    static func single(restoring batch: PongBatch, _ i: Int) -> PongGame { try! PongGame(restoring: batch.snapshot(i)) }
    static func frame(_ config: PongConfig) -> GrayFrame { PongGame(config: config).makeFrame() }
}

enum BreakoutContract: ContractGame {
    static let name = "breakout"
    static let seats = 1
    static func actionCount(_ game: BreakoutGame) -> Int { game.actionCount }

    static func testConfigs() throws -> [(String, BreakoutConfig)] {
        let short = try BreakoutConfig.preset("classic").with { $0.maxSteps = 600; $0.lives = 1 }
        return try BreakoutConfig.presetNames.map { ($0, try BreakoutConfig.preset($0)) } + [
            ("short", short),
            // Gravity (the quiet path's speed cap), frame skip and sticky actions together.
            ("short-gravity-skip4-sticky", short.with {
                $0.gravity = 0.05; $0.elasticity = 0.9; $0.frameSkip = 4; $0.stickyActionProbability = 0.25; $0.maxSteps = 300
            }),
            ("atari-skip4-sticky", try BreakoutConfig.preset("atari").with {
                $0.frameSkip = 4; $0.stickyActionProbability = 0.25; $0.maxSteps = 500
            }),
            ("classic-skip8", try BreakoutConfig.preset("classic").with { $0.frameSkip = 8; $0.maxSteps = 250 }),
            ("extreme", breakoutExtreme),
        ]
    }

    static func single(_ config: BreakoutConfig, seed: UInt64) -> BreakoutGame { BreakoutGame(config: config, seed: seed) }
    static func reset(_ game: inout BreakoutGame, seed: UInt64) { game.reset(seed: seed) }

    static func step(_ game: inout BreakoutGame, _ actions: UnsafePointer<Int32>, rewards: UnsafeMutablePointer<Float>,
                     events: inout BreakoutEvents) -> StepResult {
        let r = game.step(Int(actions[0]), events: &events)
        rewards[0] = r.reward
        return r
    }

    static func observe(_ game: BreakoutGame, seat: Int, into o: UnsafeMutablePointer<Float>) {
        game.observe(into: UnsafeMutableBufferPointer(start: o, count: game.observationCount))
    }

    static func isOver(_ game: BreakoutGame) -> Bool { game.isOver }
    static func state(_ game: BreakoutGame) -> BreakoutState { game.state }
    static func state(_ batch: BreakoutBatch, _ i: Int) -> BreakoutState { batch.state(i) }
    static func render(_ game: BreakoutGame, into frame: inout GrayFrame) { game.render(into: &frame) }
    static func follow(_ o: UnsafePointer<Float>) -> Int32 {
        // Ball 0's x against the paddle's x (indices 9 and 0); push now and then.
        o[8] == 0 ? 3 : o[9] > o[0] + 0.02 ? 2 : o[9] < o[0] - 0.02 ? 1 : 0
    }
    static func single(restoring batch: BreakoutBatch, _ i: Int) -> BreakoutGame {
        try! BreakoutGame(restoring: batch.snapshot(i))
    }
    static func frame(_ config: BreakoutConfig) -> GrayFrame { BreakoutGame(config: config).makeFrame() }
}

extension ContractGame {
    /// The first test config whose episodes end within a few hundred steps
    /// (named "short…").
    static func shortConfig() throws -> (String, Batch.Config) {
        guard let short = try testConfigs().first(where: { $0.0.hasPrefix("short") }) else {
            throw ContractSetupError.noShortConfig(name)
        }
        return short
    }
}

enum ContractSetupError: Error { case noShortConfig(String) }

/// The games the contract tests run over (`@Test(arguments:)`).
enum GameUnderTest: String, CaseIterable, CustomStringConvertible {
    case pong, breakout
    var description: String { rawValue }
    /// The game's contract (generic tests take it as their `G`).
    var contract: any ContractGame.Type {
        switch self {
        case .pong: PongContract.self
        case .breakout: BreakoutContract.self
        }
    }
}

/// Caller-owned buffers for one ``VectorEnvironment/step(actions:into:)``,
/// allocated once (stepping through them allocates nothing).
final class VectorBuffers<B: VectorEnvironment> where B.Events: BlankEvents {
    let games: Int, seats: Int, n: Int, observedSeats: Int
    let actions: UnsafeMutableBufferPointer<Int32>
    let observations, finalObservations, rewards: UnsafeMutableBufferPointer<Float>
    let terminated, truncated, ends: UnsafeMutableBufferPointer<UInt8>
    let events: UnsafeMutableBufferPointer<B.Events>

    init(_ batch: B, observedSeats: Int = .max) {
        games = batch.count; seats = batch.seats; n = batch.observationLayout.count
        self.observedSeats = min(observedSeats, batch.seats)
        actions = .allocate(capacity: games * seats); actions.initialize(repeating: 0)
        observations = .allocate(capacity: max(1, games * self.observedSeats * n)); observations.initialize(repeating: .nan)
        finalObservations = .allocate(capacity: max(1, games * self.observedSeats * n))
        finalObservations.initialize(repeating: .nan)
        rewards = .allocate(capacity: games * seats); rewards.initialize(repeating: .nan)
        terminated = .allocate(capacity: games); terminated.initialize(repeating: 9)
        truncated = .allocate(capacity: games); truncated.initialize(repeating: 9)
        ends = .allocate(capacity: games); ends.initialize(repeating: 99)
        events = .allocate(capacity: games); events.initialize(repeating: B.Events())
    }

    deinit {
        actions.deallocate(); observations.deallocate(); finalObservations.deallocate(); rewards.deallocate()
        terminated.deallocate(); truncated.deallocate(); ends.deallocate(); events.deallocate()
    }

    var output: VectorStepOutput<B.Events> {
        VectorStepOutput(observations: observations.baseAddress, rewards: rewards.baseAddress.unsafelyUnwrapped,
                         terminated: terminated.baseAddress.unsafelyUnwrapped,
                         truncated: truncated.baseAddress.unsafelyUnwrapped, ends: ends.baseAddress,
                         events: events.baseAddress, finalObservations: finalObservations.baseAddress,
                         observedSeats: observedSeats)
    }

    func step(_ batch: B) {
        batch.step(actions: UnsafePointer(actions.baseAddress.unsafelyUnwrapped), into: output)
    }

    /// Draws every game's every seat's action from `play`.
    func drawActions(_ play: inout ContractPlay) {
        for k in 0 ..< games * seats { actions[k] = play.next() }
    }

    /// Whether game `i`'s last step here equals game `j`'s in `other` bit
    /// for bit: every seat's reward and observation, terminated and truncated.
    func sameStep(_ i: Int, as other: VectorBuffers, _ j: Int) -> Bool {
        (0 ..< seats).allSatisfy {
            rewards[i * seats + $0].bitPattern == other.rewards[j * seats + $0].bitPattern
                && observation(i, $0) == other.observation(j, $0)
        } && terminated[i] == other.terminated[j] && truncated[i] == other.truncated[j]
    }

    /// Game `i` seat `s`'s observation row.
    func observation(_ i: Int, _ s: Int) -> [UInt32] {
        let start = (i * observedSeats + s) * n
        return observations[start ..< start + n].map(\.bitPattern)
    }

    func finalObservation(_ i: Int, _ s: Int) -> [UInt32] {
        let start = (i * observedSeats + s) * n
        return finalObservations[start ..< start + n].map(\.bitPattern)
    }

    /// Steps `reference` as game `i` of `batch` was just stepped through
    /// these buffers (its seats' actions here; in next-step mode a finished
    /// episode restarts instead, rewards zero) and compares the game's
    /// outputs with the reference's bit for bit: every seat's reward,
    /// terminated, truncated, the end reason, the events, a finished
    /// episode's final observations (same-step mode, then the reference
    /// restarts), every observed seat's observation and the state.
    /// - Returns: whether everything agrees, and whether the episode ended.
    func stepAndCompare<R: RestartingReference>(_ reference: inout R, _ batch: B, _ i: Int, mode: AutoresetMode)
        -> (same: Bool, ended: Bool) where R.G.Batch == B {
        var events = B.Events()
        var r = StepResult(reward: 0, terminated: false, truncated: false, end: .none)
        var rewards = [Float](repeating: 0, count: seats), row = [Float](repeating: 0, count: n)
        if mode == .nextStep, R.G.isOver(reference.game) {
            reference.restart()
        } else {
            r = rewards.withUnsafeMutableBufferPointer { rw in
                R.G.step(&reference.game, actions.baseAddress.unsafelyUnwrapped + i * seats,
                         rewards: rw.baseAddress.unsafelyUnwrapped, events: &events)
            }
        }
        func observed(_ s: Int) -> [UInt32] {
            row.withUnsafeMutableBufferPointer { R.G.observe(reference.game, seat: s, into: $0.baseAddress.unsafelyUnwrapped) }
            return row.map(\.bitPattern)
        }
        var same = (0 ..< seats).allSatisfy { self.rewards[i * seats + $0].bitPattern == rewards[$0].bitPattern }
            && (terminated[i] == 1) == r.terminated && (truncated[i] == 1) == r.truncated
            && ends[i] == r.end.rawValue && self.events[i] == events
        if r.isDone, mode == .sameStep {
            for s in 0 ..< observedSeats { same = same && finalObservation(i, s) == observed(s) }
            reference.restart()
        }
        for s in 0 ..< observedSeats { same = same && observation(i, s) == observed(s) }
        return (same && R.G.state(batch, i) == R.G.state(reference.game), r.isDone)
    }
}

/// A one-game reference of a batch's game that restarts as the contract
/// says (``ReferenceGame``; under a rule context, each episode's rules).
protocol RestartingReference {
    associatedtype G: ContractGame
    var game: G.Single { get set }
    mutating func restart()
}

extension ReferenceGame: RestartingReference {}

/// Actions for contract tests: uniform over the game's actions, now and
/// then one outside the range (it acts as the no-op); one named generator.
struct ContractPlay {
    var rng: Xoshiro256
    let actions: Int
    init(seed: UInt64, actions: Int) { rng = Xoshiro256(seed: seed); self.actions = actions }
    mutating func next() -> Int32 { rng.below(50) == 0 ? 7 : Int32(rng.below(actions)) }
}

/// The single-game reference of one game of a batch, restarting as the
/// contract says (``VectorEnvironment``, "Seeds" and ``AutoresetMode``).
struct ReferenceGame<G: ContractGame> {
    var game: G.Single
    var restartSeed: UInt64
    var restartIndex: UInt64 = 0

    init(_ config: G.Batch.Config, batchSeed: UInt64, globalIndex: Int) {
        restartSeed = Seeds.stream(batchSeed, UInt64(globalIndex))
        game = G.single(config, seed: Seeds.episode(runSeed: restartSeed, index: 0))
        restartIndex = 1
    }

    mutating func restart() {
        G.reset(&game, seed: Seeds.episode(runSeed: restartSeed, index: Int(restartIndex)))
        restartIndex += 1
    }

    mutating func reset(seed: UInt64) {
        G.reset(&game, seed: seed)
        restartSeed = Seeds.stream(seed, Seeds.restartStream)
        restartIndex = 0
    }
}

/// Every config one field at a time at either end of its numeric range
/// (``ConfigField/ends`` of ``GameConfig/fields``), on top of the default
/// preset; combinations the config's relations refuse are left out.
func edgeConfigs<C: GameConfig>(_: C.Type) -> [(String, C)] {
    var out: [(String, C)] = []
    for (presetName, _) in C.presets.prefix(1) {
        for field in C.fields {
            guard let ends = field.ends, case .number = ends.lower else { continue }
            for value in [ends.lower.serialized(), ends.upper.serialized()] {
                let text = "{\"preset\": \"\(presetName)\", \"\(field.key)\": \(value)}"
                if let c = try? C.decode(text, source: "edge") { out.append(("\(presetName) \(field.key)=\(value)", c)) }
            }
        }
    }
    return out
}
