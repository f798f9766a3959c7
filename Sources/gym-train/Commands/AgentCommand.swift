import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train agent`: tools for external agents (docs/agents.md).
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Tools for external agents (programs speaking the protocol of docs/agents.md).",
        subcommands: [AgentCheck.self, AgentBench.self]
    )
}

/// `gym-train agent check SPEC`: the compliance check an agent author runs
/// before a tournament (fastchess's compliance mode, for this protocol).
struct AgentCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that an agent complies with the protocol and is deterministic given its seeds.",
        discussion: """
        Starts the agent, shakes hands, and plays --games games for --steps steps on fixed seeds \
        (Pong: the agent in the bottom seat against the tracker), twice, each time in a fresh process: \
        the two runs must play the same actions. Any illegal reply (wrong count, action out of range, \
        junk, a crash, no reply within the agent's time limit) fails the check with the error. \
        Prints the agent steps per second and the latency per batch (median, 99th percentile, worst). \
        Exit status 0 only when the agent complies.
        """
    )

    @Argument(help: "The agent spec (process:AGENT.json, process:cmd=PROGRAM ARGS, or any built-in spec).")
    var spec: String

    @OptionGroup var game: GameOptions

    @Option(help: "Games the agent plays at once (rows per batch), 1 ... 4096.")
    var games: Int = 16

    @Option(help: "Steps of each run, 1 ... 1000000.")
    var steps: Int = 500

    func validate() throws {
        guard (1 ... 4096).contains(games) else { throw ValidationError("--games \(games) is out of range; allowed: 1 ... 4096") }
        guard (1 ... 1_000_000).contains(steps) else { throw ValidationError("--steps \(steps) is out of range; allowed: 1 ... 1000000") }
    }

    func run() throws {
        switch game.game {
        case .pong: try check(Pong.self)
        case .breakout: try check(Breakout.self)
        }
    }

    func check<G: PlayableGame>(_: G.Type) throws {
        let config = try game.loadConfig(G.Config.self)
        let agent = try AgentSpec.parse(spec, commandLine: true)
        try G.check(agent, config: config)
        let opponent = try AgentSpec.parse("tracker")
        var outcomes: [AgentDrive.Outcome] = []
        var name = agent.displayName
        for run in 1 ... 2 {
            do {
                let outcome = try AgentDrive.run(G.self, config: config, games: games, steps: steps, seed: game.seed) { seat, context throws(AgentFault) in
                    let made = try G.makeBatchAgent(seat == 0 ? agent : opponent, context: context)
                    if seat == 0, let p = made as? ProcessAgent<G> { name = "\(agent.displayName) (calls itself \"\(p.agentName)\")" }
                    return made
                }
                outcomes.append(outcome)
            } catch {
                print("agent check: \(agent.displayName): FAILED in run \(run)")
                throw CLIError("\(error)")
            }
            if run == 1 { print("agent check: \(name): handshake ok, run 1 of \(games) games × \(steps) steps played") }
        }
        let (a, b) = (outcomes[0], outcomes[1])
        let calls = a.callSeconds + b.callSeconds
        let sorted = calls.sorted()
        func ms(_ q: Double) -> String {
            String(format: "%.3f ms", 1000 * sorted[min(sorted.count - 1, Int(q * Double(sorted.count - 1)))])
        }
        let rate = Double(a.agentSteps + b.agentSteps) / max(a.actSeconds + b.actSeconds, 1e-9)
        print("agent check: \(a.agentSteps) agent steps per run, \(a.episodes) episodes ended; "
            + String(format: "%.0f", rate) + " agent steps/s in the agent; latency per batch of \(games): median \(ms(0.5)), p99 \(ms(0.99)), worst \(ms(1))")
        guard a.digest == b.digest else {
            throw CLIError("agent check: \(agent.displayName): not deterministic: two runs on the same seeds played different actions (action digests \(String(a.digest, radix: 16)) and \(String(b.digest, radix: 16))); draw every random choice from the seed of each START")
        }
        print("agent check: \(agent.displayName): deterministic (both runs played the same actions, digest \(String(a.digest, radix: 16))): complies")
    }
}

/// `gym-train agent bench SPEC ...`: agent steps per second of each agent,
/// one after the other in the same run, on one worker.
struct AgentBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure agent steps per second through the protocol (beside built-in agents).",
        discussion: """
        Each agent plays seat 0 of --games games (Pong: against --opponent in seat 1) for --steps \
        steps on one worker, one agent after the other. Prints the agent steps per second over the \
        whole loop (environment and opponent included), the rate inside the agent's act calls alone, \
        and the latency per batch. Not a test: the figures depend on the machine.
        """
    )

    @Argument(help: "Agent specs (process:AGENT.json, process:cmd=..., linear:PATH, ...).")
    var specs: [String]

    @OptionGroup var game: GameOptions

    @Option(help: "Games the agent plays at once (rows per batch), 1 ... 65536.")
    var games: Int = 1024

    @Option(help: "Steps to run, 1 ... 1000000.")
    var steps: Int = 2000

    @Option(help: "The opponent in Pong's seat 1.")
    var opponent: String = "constant:action=0"

    func validate() throws {
        guard (1 ... 65536).contains(games) else { throw ValidationError("--games \(games) is out of range; allowed: 1 ... 65536") }
        guard (1 ... 1_000_000).contains(steps) else { throw ValidationError("--steps \(steps) is out of range; allowed: 1 ... 1000000") }
    }

    func run() throws {
        switch game.game {
        case .pong: try bench(Pong.self)
        case .breakout: try bench(Breakout.self)
        }
    }

    func bench<G: PlayableGame>(_: G.Type) throws {
        let config = try game.loadConfig(G.Config.self)
        let other = try AgentSpec.parse(opponent, commandLine: true)
        try G.check(other, config: config)
        print("agent bench: \(G.name), \(games) games, \(steps) steps, one worker")
        for text in specs {
            let agent = try AgentSpec.parse(text, commandLine: true)
            try G.check(agent, config: config)
            let o = try AgentDrive.run(G.self, config: config, games: games, steps: steps, seed: game.seed) { seat, context throws(AgentFault) in
                try G.makeBatchAgent(seat == 0 ? agent : other, context: context)
            }
            let median = o.callSeconds.isEmpty ? 0 : o.callSeconds[o.callSeconds.count / 2]
            print(String(format: "  %@: %.2f M agent steps/s (%d in %.2f s, environment and opponent included); %.2f M/s inside act; median %.3f ms per batch",
                         agent.displayName, Double(o.agentSteps) / o.seconds / 1e6, o.agentSteps, o.seconds,
                         Double(o.agentSteps) / max(o.actSeconds, 1e-9) / 1e6, 1000 * median))
        }
    }
}
