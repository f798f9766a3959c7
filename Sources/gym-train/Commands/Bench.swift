import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train bench`: raw environment steps per second.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure raw environment throughput (steps/s and × real time), one worker and all workers.",
        discussion: """
        Method: N environments stepped together, one step = one agent step (frameSkip frames of \
        physics) plus the observation written, random actions from a per-worker xoshiro256** \
        stream, finished episodes reset in place. Each worker owns a slice of the environments \
        and runs 256 ticks per dispatch; the clock runs for at least --seconds. Release build only.
        """
    )

    @OptionGroup var game: GameOptions

    @Option(help: "Environments stepped together.")
    var envs: Int = 1024

    @Option(help: "Seconds per measurement (at least).")
    var seconds: Double = 2

    @Option(help: "Workers for the parallel measurement (default: the machine's cores).")
    var workers: Int?

    func validate() throws {
        guard (1 ... 1_000_000).contains(envs) else { throw ValidationError("--envs \(envs) is out of range; allowed: 1 ... 1000000") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds \(seconds) is out of range; allowed: (0, 600]") }
        if let w = workers, !(1 ... 256).contains(w) { throw ValidationError("--workers \(w) is out of range; allowed: 1 ... 256") }
    }

    func run() throws {
        if game.game == .breakout { return try runBreakout() }
        let config = try game.pongConfig()
        let all = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        #if DEBUG
        FileHandleOutput.standardError("warning: this is a debug build; figures are many times below release (use `swift build -c release`)")
        #endif
        print("bench pong (\(envs) envs, frameSkip \(config.frameSkip), \(ProcessInfo.processInfo.activeProcessorCount) cores)")
        let one = Throughput.pongSingleAPI(config: config, environments: envs, workers: 1, seconds: seconds, seed: game.seed)
        report("single API, 1 worker", one, config)
        if all > 1 {
            let many = Throughput.pongSingleAPI(config: config, environments: envs, workers: all, seconds: seconds, seed: game.seed)
            report("single API, \(all) workers", many, config)
            print(String(format: "  scaling %.2f× with %d workers", many.stepsPerSecond / one.stepsPerSecond, all))
        }
    }

    func report(_ label: String, _ m: Throughput.Measurement, _ config: PongConfig) {
        let realTime = m.stepsPerSecond * Double(config.frameSkip) / 60
        print("  \(label): \(formatRate(m.stepsPerSecond)) steps/s, \(formatRate(realTime))× real time (\(m.steps) steps in \(String(format: "%.2f", m.seconds)) s)")
    }

    func runBreakout() throws {
        let config = try game.breakoutConfig()
        let all = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        #if DEBUG
        FileHandleOutput.standardError("warning: this is a debug build; figures are many times below release (use `swift build -c release`)")
        #endif
        print("bench breakout (\(envs) envs, \(config.brickRows)×\(config.brickColumns) wall, frameSkip \(config.frameSkip), \(ProcessInfo.processInfo.activeProcessorCount) cores)")
        let one = Throughput.breakoutSingleAPI(config: config, environments: envs, workers: 1, seconds: seconds, seed: game.seed)
        report("single API, 1 worker", one, frameSkip: config.frameSkip)
        if all > 1 {
            let many = Throughput.breakoutSingleAPI(config: config, environments: envs, workers: all, seconds: seconds, seed: game.seed)
            report("single API, \(all) workers", many, frameSkip: config.frameSkip)
            print(String(format: "  scaling %.2f× with %d workers", many.stepsPerSecond / one.stepsPerSecond, all))
        }
    }

    func report(_ label: String, _ m: Throughput.Measurement, frameSkip: Int) {
        let realTime = m.stepsPerSecond * Double(frameSkip) / 60
        print("  \(label): \(formatRate(m.stepsPerSecond)) steps/s, \(formatRate(realTime))× real time (\(m.steps) steps in \(String(format: "%.2f", m.seconds)) s)")
    }
}
