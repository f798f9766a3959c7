import Dispatch
import Foundation
import Gym

/// Raw environment throughput, measured the way PufferLib's and ALE's
/// figures are quoted: many environments, one step (frame physics plus the
/// observation written) per environment per tick, random actions, finished
/// episodes reset in place.
public enum Throughput {
    /// Ticks per dispatch (every game stepped this many times) unless told
    /// otherwise: enough that a dispatch lasts tens of milliseconds, so
    /// waking and joining the workers is a small part of it (docs/bench.md).
    public static let defaultTicksPerRound = 2048

    /// What one measurement found.
    public struct Measurement: Sendable {
        public var workers: Int
        public var environments: Int
        public var steps: Int
        /// Wall-clock seconds.
        public var seconds: Double
        /// CPU seconds of the whole process over the same interval (all
        /// threads): with the machine busy, `steps / cpuSeconds` shows what
        /// the workers did with the CPU time they got.
        public var cpuSeconds: Double
        public var stepsPerSecond: Double { Double(steps) / max(seconds, 1e-12) }
        /// Steps per CPU-second of the process (per worker, when every worker is busy).
        public var stepsPerCPUSecond: Double { Double(steps) / max(cpuSeconds, 1e-12) }
    }

    /// The single-game measurement for any game: `environments` games split
    /// into one slice per worker (built by `make(count, seed)` and kept across
    /// rounds), `ticksPerRound` ticks per dispatch, for at least `seconds`.
    static func singleAPI<Worker: ThroughputWorker>(environments: Int, workers: Int, seconds: Double, seed: UInt64,
                                                    ticksPerRound: Int,
                                                    make: (Int, UInt64) -> Worker) -> Measurement {
        let perWorker = (environments + workers - 1) / workers
        let states = WorkerStates<Worker>(count: workers) { w in
            make(min(perWorker, max(0, environments - w * perWorker)), Seeds.stream(seed, UInt64(w)))
        }
        let runner = ParallelRunner(workers: workers)
        let m = measure(workers: workers, environments: environments, seconds: seconds,
                        ticksPerRound: ticksPerRound) { ticks in
            runner.forEachWorker { w in states.withState(w) { $0.run(ticks: ticks) } }
        }
        states.withState(0) { blackHole($0.checksum) }
        return m
    }
}

extension Throughput {
    /// Runs `round(ticks)` once to warm up, then repeatedly until `seconds`
    /// have passed; counts `ticks × environments` steps per round.
    public static func measure(workers: Int, environments: Int, seconds: Double, ticksPerRound: Int,
                               round: (Int) -> Void) -> Measurement {
        round(ticksPerRound)
        let clock = ContinuousClock()
        let cpuStart = processCPUSeconds()
        let start = clock.now
        var rounds = 0
        repeat {
            round(ticksPerRound)
            rounds += 1
        } while (clock.now - start) < .milliseconds(Int64(seconds * 1000))
        let c = (clock.now - start).components
        let cpu = processCPUSeconds() - cpuStart
        return Measurement(workers: workers, environments: environments, steps: rounds * ticksPerRound * environments,
                           seconds: Double(c.seconds) + Double(c.attoseconds) * 1e-18, cpuSeconds: cpu)
    }

    /// CPU time used by the process so far (all threads), in seconds.
    public static func processCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// One worker's slice of single games in a throughput measurement.
public protocol ThroughputWorker: Sendable {
    associatedtype Config: GameConfig
    /// `count` games of `config`, game `k` from the episode seed of (`seed`, `k`).
    init(config: Config, count: Int, seed: UInt64)
    /// Steps every game of the slice `ticks` times, observations written.
    mutating func run(ticks: Int)
    /// A value fed from the observations, so the work cannot be optimised away.
    var checksum: Float { get }
}

/// Per-worker mutable state reachable from concurrent workers; worker `w`
/// only touches slot `w`.
final class WorkerStates<State>: @unchecked Sendable {
    // Worker w only ever touches slot w (see ParallelRunner.forEachWorker).
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
