import Gym

extension Throughput {
    /// Steps `environments` single games of `G` (the reference API, one
    /// ``ThroughputWorker`` per worker: Pong's ``PongWorker``, Breakout's
    /// ``BreakoutWorker``) for at least `seconds`, split over `workers` that
    /// each own a slice and run many ticks per dispatch; one step is one agent
    /// step plus the observation written, uniform random actions.
    public static func singleAPI<G: SingleAPIGame>(_: G.Type, config: G.Config, environments: Int, workers: Int,
                                                   seconds: Double, seed: UInt64,
                                                   ticksPerRound: Int = defaultTicksPerRound) -> Measurement {
        singleAPI(environments: environments, workers: workers, seconds: seconds, seed: seed,
                  ticksPerRound: ticksPerRound) { count, seed in
            G.SingleWorker(config: config, count: count, seed: seed)
        }
    }
}

/// A game the single-API throughput figure can step: its worker over the
/// reference single-game rules.
public protocol SingleAPIGame: PlayableGame {
    associatedtype SingleWorker: ThroughputWorker where SingleWorker.Config == Config
}

extension Pong: SingleAPIGame {
    public typealias SingleWorker = PongWorker
}

extension Breakout: SingleAPIGame {
    public typealias SingleWorker = BreakoutWorker
}

/// One worker's slice of games for the throughput measurement: the
/// reference single-game rules (`PongPhysics.step`, as `PongGame` uses
/// them) over an array of game states sharing one rules value.
public struct PongWorker: ThroughputWorker {
    let physics: PongPhysics
    var states: [PongState]
    var observations: [Float]
    var rng: Xoshiro256
    var nextSeed: UInt64
    public private(set) var checksum: Float = 0

    public init(config: PongConfig, count: Int, seed: UInt64) {
        let physics = PongPhysics(config: config)
        self.physics = physics
        states = (0 ..< count).map { physics.initialState(seed: Seeds.episode(runSeed: seed, index: $0)) }
        observations = [Float](repeating: 0, count: count * PongGame.observationCount)
        rng = Xoshiro256(seed: seed)
        nextSeed = UInt64(count)
    }

    public mutating func run(ticks: Int) {
        let n = PongGame.observationCount
        let actions = UInt32(physics.config.verticalMovement ? 5 : 3)
        let physics = self.physics
        var rng = self.rng, nextSeed = self.nextSeed
        observations.withUnsafeMutableBufferPointer { obs in
            states.withUnsafeMutableBufferPointer { states in
                guard let state = states.baseAddress, let o = obs.baseAddress else { return }
                for _ in 0 ..< ticks {
                    for i in 0 ..< states.count {
                        let r = rng.next()
                        // Two draws in 0 ..< actions from one word (multiply-high, no division).
                        let a = Int(UInt32(truncatingIfNeeded: r).multipliedFullWidth(by: actions).high)
                        let b = Int(UInt32(truncatingIfNeeded: r >> 32).multipliedFullWidth(by: actions).high)
                        var events = PongEvents()
                        if physics.step(&state[i], top: a, bottom: b, events: &events).isDone {
                            state[i] = physics.initialState(seed: nextSeed)
                            nextSeed &+= 1
                        }
                        physics.observe(state[i], side: .bottom, into: o + i * n)
                    }
                }
            }
            checksum += obs.first ?? 0
        }
        self.rng = rng
        self.nextSeed = nextSeed
    }
}

/// One worker's slice of Breakout games for the throughput measurement.
public struct BreakoutWorker: ThroughputWorker {
    var games: [BreakoutGame]
    var observations: [Float]
    let observationCount: Int
    var rng: Xoshiro256
    var nextSeed: UInt64
    public private(set) var checksum: Float = 0

    public init(config: BreakoutConfig, count: Int, seed: UInt64) {
        games = (0 ..< count).map { BreakoutGame(config: config, seed: Seeds.episode(runSeed: seed, index: $0)) }
        observationCount = BreakoutPhysics.observationCount(for: config)
        observations = [Float](repeating: 0, count: count * observationCount)
        rng = Xoshiro256(seed: seed)
        nextSeed = UInt64(count)
    }

    public mutating func run(ticks: Int) {
        let n = observationCount
        observations.withUnsafeMutableBufferPointer { obs in
            games.withUnsafeMutableBufferPointer { games in
                for _ in 0 ..< ticks {
                    var bits = rng.next(), left = 32
                    for i in games.indices {
                        if left == 0 { bits = rng.next(); left = 32 }
                        let action = Int(bits & 3)
                        bits >>= 2; left -= 1
                        if games[i].step(action).isDone {
                            games[i].reset(seed: nextSeed)
                            nextSeed &+= 1
                        }
                        games[i].observe(into: UnsafeMutableBufferPointer(rebasing: obs[i * n ..< i * n + n]))
                    }
                }
            }
            checksum += obs.first ?? 0
        }
    }
}
