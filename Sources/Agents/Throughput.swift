import Dispatch
import Gym

/// Raw environment throughput, measured the way PufferLib's and ALE's
/// figures are quoted: many environments, one step (frame physics plus the
/// observation written) per environment per tick, random actions, finished
/// episodes reset in place.
public enum Throughput {
    /// What one measurement found.
    public struct Measurement: Sendable {
        public var workers: Int
        public var environments: Int
        public var steps: Int
        public var seconds: Double
        public var stepsPerSecond: Double { Double(steps) / max(seconds, 1e-12) }
    }

    /// Steps `environments` single Pong games (the reference API) for at
    /// least `seconds`, split over `workers` that each own a slice and run
    /// many ticks per dispatch.
    public static func pongSingleAPI(config: PongConfig, environments: Int, workers: Int,
                                     seconds: Double, seed: UInt64) -> Measurement {
        let perWorker = (environments + workers - 1) / workers
        let ticksPerRound = 256
        let clock = ContinuousClock()
        var steps = 0
        let start = clock.now
        var rounds = 0
        // Each worker keeps its games across rounds.
        let states = WorkerStates<PongWorker>(count: workers) { w in
            PongWorker(config: config, count: min(perWorker, max(0, environments - w * perWorker)),
                       seed: Seeds.stream(seed, UInt64(w)))
        }
        repeat {
            if workers == 1 {
                states.withState(0) { $0.run(ticks: ticksPerRound) }
            } else {
                DispatchQueue.global(qos: .userInitiated).sync {
                    DispatchQueue.concurrentPerform(iterations: workers) { w in
                        states.withState(w) { $0.run(ticks: ticksPerRound) }
                    }
                }
            }
            rounds += 1
            steps = rounds * ticksPerRound * environments
        } while (clock.now - start) < .milliseconds(Int64(seconds * 1000))
        let elapsed = clock.now - start
        let c = elapsed.components
        states.withState(0) { blackHole($0.checksum) }
        return Measurement(workers: workers, environments: environments, steps: steps,
                           seconds: Double(c.seconds) + Double(c.attoseconds) * 1e-18)
    }
}

/// One worker's slice of games for the throughput measurement: the
/// reference single-game rules (`PongPhysics.step`, as `PongGame` uses
/// them) over an array of game states sharing one rules value.
struct PongWorker {
    let physics: PongPhysics
    var states: [PongState]
    var observations: [Float]
    var rng: Xoshiro256
    var nextSeed: UInt64
    var checksum: Float = 0

    init(config: PongConfig, count: Int, seed: UInt64) {
        let physics = PongPhysics(config: config)
        self.physics = physics
        states = (0 ..< count).map { physics.initialState(seed: Seeds.episode(runSeed: seed, index: $0)) }
        observations = [Float](repeating: 0, count: count * PongGame.observationCount)
        rng = Xoshiro256(seed: seed)
        nextSeed = UInt64(count)
    }

    mutating func run(ticks: Int) {
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

/// Per-worker mutable state reachable from concurrent workers; worker `w`
/// only touches slot `w`.
final class WorkerStates<State>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<State>
    private let count: Int
    init(count: Int, make: (Int) -> State) {
        self.count = count
        slots = .allocate(capacity: count)
        for w in 0 ..< count { (slots + w).initialize(to: make(w)) }
    }
    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
    func withState<R>(_ w: Int, _ body: (inout State) -> R) -> R {
        precondition(w >= 0 && w < count, "worker index out of range")
        return body(&slots[w])
    }
}

/// Keeps a value alive so the optimiser cannot drop the work producing it.
@inline(never)
public func blackHole<T>(_ value: T) { _ = value }
