import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train train`: train a linear policy, interrupt-safe and resumable.
struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train a linear policy (evolution strategies or REINFORCE) from a training config.",
        discussion: """
        Reads a training config (default Configs/train.json; keys and ranges: \
        `gym-train config --train --reference`), applies the options given, and \
        writes Results/<run>/: config.json (effective training config), game.json \
        (effective game config), run.json, metrics.csv, checkpoint.json (policy and \
        trainer state, every checkpointInterval iterations), checkpoints/iteration-N.json \
        (the policy at each of those), best.json (best evaluated policy), policy.json \
        (final policy) and curve.svg (learning curve). \
        SIGINT/SIGTERM stops after the current iteration, writes the checkpoint and \
        metrics, and prints the command that resumes; `--resume DIR` continues, and \
        the final weights are bit-identical to a run never interrupted.
        """
    )

    @Option(name: .customLong("config"), help: "The training config (JSON).")
    var configFile: String = "Configs/train.json"

    @Option(help: "Continue the run in this results folder from its checkpoint.json.")
    var resume: String?

    @OptionGroup var output: OutputOptions

    @Option(help: "Override: training iterations.") var iterations: Int?
    @Option(help: "Override: stop after this many env steps (0 = no limit).") var maxEnvSteps: Int?
    @Option(help: "Override: trainer (es, reinforce).") var trainer: String?
    @Option(help: "Override: Pong opponent (agent spec, e.g. tracker, random, linear:PATH; or self).") var opponent: String?
    @Option(help: "Override: Pong evaluation opponent (agent spec).") var evalOpponent: String?
    @Option(help: "Override: ES population (even).") var population: Int?
    @Option(help: "Override: ES perturbation scale.") var sigma: Float?
    @Option(help: "Override: Adam learning rate.") var learningRate: Float?
    @Option(help: "Override: steps per training episode.") var episodeSteps: Int?
    @Option(help: "Override: the run's master seed.") var seed: UInt64?
    @OptionGroup var workerOptions: WorkerOptions
    @Option(help: "Override: evaluate every this many iterations.") var evalInterval: Int?
    @Option(help: "Override: episodes per evaluation.") var evalEpisodes: Int?
    @Option(help: "Override: agent steps per evaluation episode.") var evalSteps: Int?

    @Flag(help: "Play each iteration's ES members elsewhere: write es-request.json, print its path, read the es-members result files from stdin (the protocol of pbgym.distributed; docs/distributed.md).")
    var remoteMembers = false

    /// Test hook: behave as if interrupted after this many iterations of this session.
    @Option(help: .hidden) var stopAfter: Int?

    /// Test hook: after this many iterations of this session, say so on stderr
    /// ("gym-train: holding at iteration N") and wait for a signal, so a test
    /// can kill the run at a known point.
    @Option(help: .hidden) var holdAfter: Int?

    @Flag(help: "Start the programs of external agents (process:...) that the training config file (or a resumed run's config.json) names as opponents; those given with --opponent or --eval-opponent start without it.")
    var allowAgentPrograms = false

    /// Keys that may differ on resume (they never change the weights).
    static let resumableOverrides: Set<String> = ["iterations", "maxEnvSteps", "workers", "evalOpponent",
                                                  "evalInterval", "evalEpisodes", "evalSteps"]

    /// The options given, as config members (so they are range-checked by the config itself).
    var overrides: [(String, JSONValue)] {
        var o: [(String, JSONValue)] = []
        if let iterations { o.append(("iterations", .number(iterations))) }
        if let maxEnvSteps { o.append(("maxEnvSteps", .number(maxEnvSteps))) }
        if let trainer { o.append(("trainer", .string(trainer))) }
        if let opponent { o.append(("opponent", .string(opponent))) }
        if let evalOpponent { o.append(("evalOpponent", .string(evalOpponent))) }
        if let population { o.append(("population", .number(population))) }
        if let sigma { o.append(("sigma", .number(sigma))) }
        if let learningRate { o.append(("learningRate", .number(learningRate))) }
        if let episodeSteps { o.append(("episodeSteps", .number(episodeSteps))) }
        if let seed { o.append(("seed", .number(seed))) }
        if let workers = workerOptions.workers { o.append(("workers", .number(workers))) }
        if let evalInterval { o.append(("evalInterval", .number(evalInterval))) }
        if let evalEpisodes { o.append(("evalEpisodes", .number(evalEpisodes))) }
        if let evalSteps { o.append(("evalSteps", .number(evalSteps))) }
        return o
    }

    func validate() throws {
        if let stopAfter, stopAfter < 1 { throw ValidationError("--stop-after \(stopAfter) is out of range; allowed: 1 or more") }
        if let holdAfter, holdAfter < 1 { throw ValidationError("--hold-after \(holdAfter) is out of range; allowed: 1 or more") }
        if resume != nil, output.out != nil { throw ValidationError("give either --resume DIR or --out DIR, not both") }
        if resume != nil, output.overwrite { throw ValidationError("give either --resume DIR or --overwrite, not both (--resume keeps the run's results)") }
        if resume?.isEmpty == true { throw ValidationError("--resume '' is empty; allowed: the results folder of a training run") }
    }

    func run() throws {
        BLAS.useSingleThread()
        let (decoded, folder, resumed) = try prepare()
        var config = decoded
        // A list given on the command line was named by the person; one read from a file needs the opt-in.
        let fromFile = [(opponent == nil, config.opponent), (evalOpponent == nil, config.evalOpponent)]
        config.allowAgentPrograms = allowAgentPrograms || !fromFile.contains { $0.0 && $0.1.contains("process:") }
        let stop = StopSignal { sig in
            FileHandleOutput.standardError("\ngym-train: \(StopSignal.name(sig)) received; stopping after this iteration (again to exit at once)")
        }
        defer { stop.uninstall() }
        let outcome = try TrainingLoop(config: config, folder: folder, resumed: resumed, stopAfter: stopAfter,
                                       remote: remoteMembers ? RemoteMembers(folder: folder, config: config) : nil,
                                       isStopped: { stop.signal != nil }, holdAfter: holdAfter,
                                       waitForSignal: { stop.waitForSignal() }).run()
        switch outcome {
        case .finished:
            break
        case let .interrupted(iteration, serviceClosed):
            let sig = stop.signal
            let why = sig.map { "\(StopSignal.name($0)) received" }
                ?? (serviceClosed ? "the member service closed stdin" : "stopped (--stop-after)")
            FileHandleOutput.standardError("gym-train: \(why): checkpoint and metrics written at iteration \(iteration).")
            FileHandleOutput.standardError("gym-train: resume with: gym-train train --resume \(folder.path)")
            throw ExitCode(sig.map { 128 + $0 } ?? 3)
        }
    }

    /// The effective config and the results folder, fresh or resumed.
    func prepare() throws -> (TrainConfig, ResultsFolder, (Checkpoint, TrainingMetrics)?) {
        if let dir = resume {
            for (key, _) in overrides where !Self.resumableOverrides.contains(key) {
                throw CLIError("--\(Self.optionName(key)) cannot be changed when resuming (it changes the weights); options allowed with --resume: --iterations, --max-env-steps, --workers and the --eval-* options")
            }
            let folder = try ResultsFolder.claim(dir, mode: .resume)
            let configPath = folder.url.appendingPathComponent("config.json").path
            let checkpointPath = folder.url.appendingPathComponent("checkpoint.json").path
            let saved = try readText(configPath, what: "training config of the run to resume")
            let config = try Self.decode(saved, overrides: overrides, source: configPath)
            guard FileManager.default.fileExists(atPath: checkpointPath) else {
                throw CLIError("cannot resume \(folder.path): it holds no checkpoint.json (the run stopped before its first checkpoint); start it again with --out \(folder.path) --overwrite")
            }
            let checkpoint = try Checkpoint.load(path: checkpointPath)
            let iteration = checkpoint.training?.iteration ?? 0
            let metricsPath = folder.url.appendingPathComponent("metrics.csv").path
            let metricsText = FileManager.default.fileExists(atPath: metricsPath) ? try readText(metricsPath, what: "metrics") : nil
            let metrics = try TrainingMetrics.resuming(metricsText, at: iteration, path: metricsPath,
                                                       folder: folder.path)
            return (config, folder, (checkpoint, metrics))
        }
        let text: String
        if FileManager.default.fileExists(atPath: configFile) {
            text = try readText(configFile, what: "training config")
        } else if configFile == "Configs/train.json" {
            text = "{}"   // run from anywhere: the built-in defaults
        } else {
            throw CLIError("cannot read training config \(configFile): no such file")
        }
        let config = try Self.decode(text, overrides: overrides, source: configFile)
        let folder = try ResultsFolder.create(output, command: "train", game: config.game, seed: config.seed)
        return (config, folder, nil)
    }

    /// Decodes a config document with `overrides` replacing or adding members.
    static func decode(_ text: String, overrides: [(String, JSONValue)], source: String) throws -> TrainConfig {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw ConfigError.malformed(source: source, error) }
        guard case var .object(members) = doc else { throw ConfigError.notAnObject(source: source) }
        for (key, value) in overrides {
            if let i = members.firstIndex(where: { $0.0 == key }) { members[i].1 = value } else { members.append((key, value)) }
        }
        return try TrainConfig.decode(.object(members), source: overrides.isEmpty ? source : "\(source) with options")
    }

    static func optionName(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}

/// The training loop behind `gym-train train`: iterate, evaluate, write
/// files, stop cleanly when asked.
struct TrainingLoop {
    enum Outcome: Equatable {
        case finished
        /// Stopped by a signal, the test hook, or (`serviceClosed`) the end of the
        /// member service's stdin, after this iteration.
        case interrupted(iteration: Int, serviceClosed: Bool = false)
    }

    let config: TrainConfig
    let folder: ResultsFolder
    let resumed: (Checkpoint, TrainingMetrics)?
    let stopAfter: Int?
    /// Where the members of each iteration are played (nil: here).
    var remote: RemoteMembers? = nil
    let isStopped: () -> Bool
    /// Test hook (`--hold-after`): iterations of this session after which to wait for a signal.
    var holdAfter: Int? = nil
    var waitForSignal: () -> Void = {}

    func run() throws -> Outcome {
        let checkpointPath = folder.url.appendingPathComponent("checkpoint.json").path
        var session: TrainingSession
        var metrics = TrainingMetrics()
        if let (checkpoint, saved) = resumed {
            session = try TrainingSession(config: config, resume: (checkpoint, checkpointPath))
            metrics = saved
        } else {
            session = try TrainingSession(config: config)
        }
        if remote != nil, session.population == nil {
            throw CLIError("--remote-members: \(PopulationPieceError.notAPopulationTrainer(config.trainer))")
        }
        if resumed == nil { try writeRunFiles(session) }
        let runner = ParallelRunner(workers: WorkerOptions.resolve(config.workers))
        let progress = Progress(total: config.iterations, label: "train", unit: "iterations")
        let clock = ContinuousClock()
        let start = clock.now
        let startWall = session.state.wallSeconds
        let startIteration = session.state.iteration
        var best = (score: session.state.bestScore, iteration: session.state.bestIteration)
        var lastScore: Double?
        var sessionSteps = 0
        var lastReport: IterationReport?

        if !session.isFinished {
            print("train \(config.game): \(config.trainer)" + (config.game == "pong" ? ", opponent \(config.opponent)" : "")
                + ", population \(config.population), "
                + "seed \(config.seed), \(runner.workers) workers; "
                + (resumed != nil ? "resuming at iteration \(startIteration)" : "from scratch"))
        }
        var interrupted = false, serviceClosed = false
        while !session.isFinished {
            if isStopped() || stopAfter.map({ session.state.iteration - startIteration >= $0 }) == true {
                interrupted = true
                break
            }
            let report: IterationReport
            if let remote {
                // The service closed stdin (its driver stopped): stop as when interrupted, checkpoint written.
                guard let r = try remote.iterate(&session) else {
                    serviceClosed = true
                    break
                }
                report = r
            } else {
                report = try session.iterate(runner: runner)
            }
            lastReport = report
            sessionSteps += report.steps
            var row = TrainingMetrics.Row(iteration: report.iteration, envSteps: report.totalSteps,
                                          wallSeconds: 0, meanReturn: report.meanReturn,
                                          minReturn: report.minReturn, maxReturn: report.maxReturn)
            var newBest = false
            if session.evaluationDue {
                let (score, results) = try session.evaluate(runner: runner)
                row.evalScore = score
                row.evalReturn = Statistics.mean(results.map(\.meanReturn))
                lastScore = score
                if best.score.map({ score > $0 }) ?? true {
                    best = (score, report.iteration)
                    newBest = true
                }
            }
            let wall = startWall + (clock.now - start).seconds
            row.wallSeconds = wall
            metrics.rows.append(row)
            session.note(wallSeconds: wall, bestScore: best.score, bestIteration: best.iteration)
            if newBest { try write(session.checkpoint(includingState: false), to: "best.json") }
            if session.checkpointDue {
                try writeCheckpoint(session, metrics)
                try writeSnapshot(session)
            }
            let rate = Double(sessionSteps) / max((clock.now - start).seconds, 1e-9)
            progress.status(String(format: "iteration %d/%d  return %.2f  %@ steps/s  %@ steps", report.iteration,
                                   config.iterations, report.meanReturn, formatRate(rate), formatRate(Double(report.totalSteps)))
                + (lastScore.map { String(format: "  score %.3f", $0) } ?? ""))
            if let holdAfter, session.state.iteration - startIteration == holdAfter {
                FileHandleOutput.standardError("gym-train: holding at iteration \(session.state.iteration)")
                waitForSignal()
            }
        }
        progress.finish()
        if interrupted || serviceClosed {
            try writeCheckpoint(session, metrics)
            return .interrupted(iteration: session.state.iteration, serviceClosed: serviceClosed)
        }
        try writeCheckpoint(session, metrics)
        try write(session.checkpoint(includingState: false), to: "policy.json")
        remote?.finish()
        let state = session.state
        let seconds = (clock.now - start).seconds
        print(String(format: "  %d iterations, %@ env steps, %.1f s wall in total (this session: %@ steps/s)",
                     state.iteration, formatRate(Double(state.envSteps)), state.wallSeconds,
                     formatRate(Double(sessionSteps) / max(seconds, 1e-9))))
        if let lastReport {
            print(String(format: "  last iteration: return mean %.2f, min %.2f, max %.2f", lastReport.meanReturn,
                         lastReport.minReturn, lastReport.maxReturn))
        }
        if let s = metrics.rows.last(where: { $0.evalScore != nil })?.evalScore {
            print(String(format: "  final %@: %.3f; best %.3f at iteration %d", session.scoreName, s, best.score ?? s, best.iteration))
        }
        print("  results \(folder.path) (policy.json, best.json, checkpoint.json, metrics.csv, curve.svg)")
        return .finished
    }

    func writeRunFiles(_ session: TrainingSession) throws {
        try folder.write(config.json.serialized() + "\n", to: "config.json")
        try folder.write(session.gameConfigJSON.serialized() + "\n", to: "game.json")
        var members: [(String, JSONValue)] = [
            ("command", .string(CommandLine.arguments.joined(separator: " "))),
            ("subcommand", .string("train")),
            ("version", .string(GymTrainVersion.string)),
            ("game", .string(config.game)),
            ("seed", .number(config.seed)),
            ("trainingHash", .string(String(config.trainingHash, radix: 16))),
            ("gameConfigHash", .string(String(session.gameConfigHash, radix: 16))),
            ("policy", .string(session.target.description)),
            // Provenance only: the trainers' products are exact, so no result depends on it.
            ("blas", .string(BLAS.configuration)),
        ]
        if let variants = session.variants { members.append(("variants", variants.json)) }
        let run = JSONValue.object(members)
        try folder.write(run.serialized() + "\n", to: "run.json")
    }

    /// Writes the metrics, then the checkpoint: a failed write (a full disk)
    /// stops the run with the checkpoint no newer than metrics.csv, whose
    /// later rows a resume drops, so the two can never disagree silently.
    func writeCheckpoint(_ session: TrainingSession, _ metrics: TrainingMetrics) throws {
        try folder.write(metrics.csv, to: "metrics.csv")
        try folder.write(metrics.svg(title: "gym-train: \(config.game), \(config.trainer)"
                                         + (config.game == "pong" ? " vs \(config.opponent)" : "") + ", seed \(config.seed)",
                                     scoreName: session.scoreName), to: "curve.svg")
        try write(session.checkpoint(), to: "checkpoint.json")
    }

    /// The policy at this iteration, kept (`checkpoints/iteration-NNNNNN.json`),
    /// so any point of the run can be evaluated or fielded later.
    func writeSnapshot(_ session: TrainingSession) throws {
        let dir = folder.url.appendingPathComponent("checkpoints")
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            throw CLIError("cannot create \(dir.path): \(error.localizedDescription)")
        }
        try write(session.checkpoint(includingState: false),
                  to: "checkpoints/" + String(format: "iteration-%06d.json", session.state.iteration))
    }

    func write(_ checkpoint: Checkpoint, to name: String) throws {
        try folder.write(try checkpoint.encoded(), to: name)
    }
}
