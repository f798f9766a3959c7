import Agents
import ArgumentParser
import Foundation
import Gym
import MallocCounter

/// `gym-train bench`: raw environment steps per second, batched and single.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure environment throughput (steps/s, × real time, allocations per step) and write Results/bench/<time>.json.",
        discussion: """
        Method: --envs games stepped together; one step = one agent step (frameSkip frames of \
        physics) plus the agent's observation written; actions uniform random from one \
        xoshiro256** generator per game; finished episodes reset in the same step. Batched: \
        any game through the vector-environment contract (PongBatch, BreakoutBatch: one step call per chunk, \
        seat 0 observed) in chunks of --chunk games, each with its own \
        buffers; in each dispatch the workers take chunks one at a time and step each for --ticks \
        ticks. Policy in the loop: the agent side's action is the argmax of a linear policy \
        W·x + b over the whole chunk, one cblas_sgemm per chunk per tick. As users run it (two-seat \
        games): seat 1 played by the default opponent, the tracker, seated as the C ABI (so Python) seats it \
        (one act call per chunk per tick over every game's seat 1; Pong's tracker in lanes, reading the \
        batch's state, so seat 1 is not observed), seat 0 random. \
        Single API: one PongGame value per game (the reference). Each figure: one warm-up round, \
        then rounds until --seconds have passed (wall clock). Batched figures are taken --repeats \
        times, one worker and all workers alternating; the report gives the median rates and the \
        median of the paired scaling ratios (with their range). Allocations: malloc calls counted \
        over two dispatches after warm-up, divided by the steps: in all threads, and inside the \
        workers' step loops alone (the rest is Dispatch's own bookkeeping, per dispatch). \
        ×real time = steps/s × frameSkip / 60. Rule contexts (--variants SET): beside the batched \
        figure, the same batches with every episode's rules drawn from the game's shipped variant \
        set SET by its seed (every game its own rules), measured in the same rounds (fixed rules and \
        contexts alternating), with the ratio of the two. Release build only (a debug build is many \
        times slower).
        """
    )

    @Option(help: "The game (default: every game; --preset and --config need it, and without them every preset is measured).")
    var game: GameKind?

    @OptionGroup var rules: RulesOptions

    @Option(help: "Frame skips to measure every case at, comma-separated (e.g. 1,4,8; each 1 ... 16). Default: each config's own, and without --preset or --config also the first preset at \(Bench.defaultExtraFrameSkips.map(String.init).joined(separator: " and ")).")
    var frameSkip: String?

    @Option(help: "Sticky-action probability for every case (0 ... 1; default: each config's own).")
    var sticky: Float?

    @Option(help: "Games stepped together.")
    var envs: Int = 1024

    @Option(help: "Seconds per figure (at least).")
    var seconds: Double = 1

    @OptionGroup var workerOptions: WorkerOptions

    @Option(help: "Ticks per dispatch: every game (so every chunk) is stepped this many times in each dispatch.")
    var ticks: Int = Throughput.defaultTicksPerRound

    @Option(help: "Games per chunk of the batched figures, taken one at a time by the workers (default: Pong \(Bench.defaultChunk(.pong)), Breakout \(Bench.defaultChunk(.breakout))).")
    var chunk: Int?

    @Option(help: "Alternating one-worker / all-worker measurements per batched figure (the median is reported).")
    var repeats: Int = 3

    @Option(help: "The master seed.")
    var seed: UInt64 = 1

    @Option(help: "A set of the game's shipped variant file (train, near, far): also measure the batched figure with every episode's rules drawn from it, alternating with the fixed rules.")
    var variants: String?

    @Option(help: "Where to write the JSON report (default: Results/bench/<UTC time>.json).")
    var out: String?

    func validate() throws {
        if out?.isEmpty == true { throw ValidationError("--out '' is empty; allowed: the path of the JSON report") }
        guard (1 ... 1_000_000).contains(envs) else { throw ValidationError("--envs \(envs) is out of range; allowed: 1 ... 1000000") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds \(seconds) is out of range; allowed: (0, 600]") }
        if let w = workerOptions.workers, w > envs { throw ValidationError("--workers \(w) exceeds --envs \(envs); the single-API figure gives each worker at least one game") }
        if let chunk, !(1 ... 1_000_000).contains(chunk) { throw ValidationError("--chunk \(chunk) is out of range; allowed: 1 ... 1000000") }
        guard (1 ... 100).contains(repeats) else { throw ValidationError("--repeats \(repeats) is out of range; allowed: 1 ... 100") }
        guard (1 ... 1_000_000).contains(ticks) else { throw ValidationError("--ticks \(ticks) is out of range; allowed: 1 ... 1000000") }
        if rules.preset != nil, game == nil { throw ValidationError("--preset needs --game (presets are per game)") }
        _ = try frameSkips()
        if let sticky, !(sticky >= 0 && sticky <= 1) {
            throw ValidationError("--sticky \(sticky) is out of range; allowed: 0 ... 1")
        }
        if rules.configFile != nil, game == nil { throw ValidationError("--config needs --game (a config file is for one game)") }
    }

    func run() throws {
        let games = game.map { [$0] } ?? GameKind.allCases
        // (game, preset name or config path, frame skip override, sticky override)
        var cases: [(GameKind, String, Int?, Float?)] = []
        let skips = try frameSkips()
        for g in games {
            let names = g.game.presetNames
            var base: [String]
            if let configFile = rules.configFile {
                base = [configFile]
            } else if let preset = rules.preset {
                guard names.contains(preset) else {
                    throw ValidationError("--preset \(preset) is not a \(g.rawValue) preset; allowed: \(names.joined(separator: ", "))")
                }
                base = [preset]
            } else {
                base = names
            }
            if let skips {
                for name in base { cases += skips.map { (g, name, $0, sticky) } }
            } else {
                cases += base.map { (g, $0, nil, sticky) }
                // Every preset as it is, and the default one at the frame skips people train with.
                if !rules.isGiven, let first = names.first {
                    cases += Bench.defaultExtraFrameSkips.map { (g, first, $0, sticky) }
                }
            }
        }
        if let variants {
            // An unknown set is refused before anything is measured.
            for g in games { try Bench.checkSet(g.game, variants) }
        }
        let all = min(workerOptions.count, envs)
        let machine = BenchMachine.current(workers: all)
        #if DEBUG
        FileHandleOutput.standardError("warning: this is a debug build; figures are many times below release (use `swift build -c release`)")
        #endif
        if malloc_counter_active() == 0 {
            FileHandleOutput.standardError("warning: the allocation counter is not this process's malloc; allocation figures are not measured")
        }
        print("bench \(games.map(\.rawValue).joined(separator: ", ")) (\(envs) games; \(machine.summary))")
        print("method: \(methodLine)")
        var results: [JSONValue] = []
        for (g, name, skip, sticky) in cases {
            let label = name + (skip.map { " frameSkip \($0)" } ?? "") + (sticky.map { " sticky \($0)" } ?? "")
            results.append(try benchGame(g.game, name, frameSkip: skip, sticky: sticky, label: label, workers: all,
                                         chunk: chunk ?? Bench.defaultChunk(g)))
        }
        let report = JSONValue.object([
            ("command", .string(CommandLine.arguments.joined(separator: " "))),
            ("version", .string(GymTrainVersion.string)),
            ("date", .string(BenchMachine.timestamp(iso: true))),
            ("method", .string(methodLine)),
            ("ticksPerDispatch", .number(ticks)),
            ("chunk", chunk.map { .number($0) } ?? .string("default (Pong \(Bench.defaultChunk(.pong)), Breakout \(Bench.defaultChunk(.breakout)))")),
            ("repeats", .number(repeats)),
            ("environments", .number(envs)),
            ("secondsPerFigure", .number(seconds)),
            ("seed", .number(seed)),
            ("machine", machine.json),
            ("results", .array(results)),
        ])
        let path = out ?? "Results/bench/\(BenchMachine.timestamp(iso: false)).json"
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create folder \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        try AtomicFile.write(Data((report.serialized() + "\n").utf8), to: url)
        print("wrote \(path)")
    }

    /// Games per chunk of the batched figures unless `--chunk` says
    /// otherwise (``CommandGame/benchChunk``).
    static func defaultChunk(_ game: GameKind) -> Int { game.game.benchChunk }

    /// Frame skips measured beside each game's presets by default.
    static let defaultExtraFrameSkips = [4, 8]

    /// The `--frame-skip` list, nil when not given.
    func frameSkips() throws -> [Int]? {
        guard let frameSkip else { return nil }
        let parts = frameSkip.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, values.count == parts.count, values.allSatisfy({ (1 ... 16).contains($0) }) else {
            throw ValidationError("--frame-skip \(frameSkip) is not a list of frame skips; allowed: comma-separated integers 1 ... 16, e.g. 1,4,8")
        }
        return values
    }

    /// `config` with its frame skip and sticky-action probability replaced
    /// when given (through its documented keys, so ranges are checked).
    static func adjusted<C: GameConfig>(_ config: C, frameSkip: Int?, sticky: Float?) throws -> C {
        guard frameSkip != nil || sticky != nil, case let .object(members) = config.json else { return config }
        let changed = members.map { key, value -> (String, JSONValue) in
            if key == "frameSkip", let frameSkip { return (key, .number(frameSkip)) }
            if key == "stickyActionProbability", let sticky { return (key, .number(sticky)) }
            return (key, value)
        }
        return try C.decode(.object(changed), source: "bench")
    }

    /// The config of one case: the config file (named by its path) or the preset `name`.
    func loadConfig<C: GameConfig>(_: C.Type, _ name: String) throws -> C {
        if let path = rules.configFile { return try RulesOptions.decode(C.self, path: path) }
        return try C.preset(name)
    }

    var methodLine: String {
        "one step = one agent step (frameSkip frames) + seat 0's observation written (Pong 12 floats, Breakout 15 + 8·maxBalls + cells); uniform random actions (one generator per game), or a linear policy's greedy action (one sgemm per chunk per tick), or (Pong as users run it) seat 1 played by the tracker seated as the C ABI seats it (one act call per chunk per tick; in lanes, reading the batch's state: seat 1 not observed); same-step auto-reset; workers take chunks of \(chunk.map(String.init) ?? "\(Bench.defaultChunk(.pong)) (Pong) or \(Bench.defaultChunk(.breakout)) (Breakout)") games one at a time and step each \(ticks) ticks per dispatch; wall clock after one warm-up round; batched: median of \(repeats) alternating 1-worker/all-worker measurements, scaling = median of the paired ratios [min, max]; per CPU-s = steps / process CPU time"
    }

    // MARK: - One game

    /// Any game's figures for one case, the preset `name` (or the config
    /// file) with the frame skip and sticky-action overrides given:
    /// batched through the one driver (``VectorBench``) in chunks of
    /// `chunk` games, and through the single-game API.
    func benchGame<G: CommandGame>(_: G.Type, _ name: String, frameSkip skip: Int?, sticky: Float?, label: String,
                                   workers all: Int, chunk: Int) throws -> JSONValue {
        let config = try Bench.adjusted(try loadConfig(G.Config.self, name), frameSkip: skip, sticky: sticky)
        let envs = self.envs, seconds = self.seconds, seed = self.seed, ticks = self.ticks
        let context = try variants.map { try Bench.context(G.Config.self, set: $0, base: config) }
        // The environment of `count` games from global game `first`, seeded
        // with `seed`, under fixed rules or (`contexts`) the variant set's.
        let makeVector = { (first: Int, count: Int, seed: UInt64, contexts: Bool) in
            G.Vector(config: config, count: count, seed: seed, firstIndex: first, autoresetMode: .sameStep,
                     context: contexts ? context : nil)
        }
        let make = { (first: Int, count: Int, seed: UInt64) in makeVector(first, count, seed, false) }
        let probe = make(0, 1, seed)
        let frameSkip = Bench.frameSkip(config.json)
        // Two-seat games as users run them: the default opponent (`tracker`) in seat 1, seated as the C ABI seats it.
        let seated = BatchControl.seated(G.self, spec: try AgentSpec.parse("tracker"), config: config)
        return benchCase(game: G.name, preset: label, frameSkip: frameSkip, workers: all,
                         policy: Bench.linearPolicy(inputs: probe.observationLayout.count,
                                                    actions: probe.actionCount, seed: seed), seated: seated,
                         batched: { runner, control in
                             Throughput.vector(environments: envs, runner: runner, control: control, seconds: seconds,
                                               seed: seed, ticksPerRound: ticks, chunk: chunk) { make($0, $1, seed) }
                         }, contexts: context.map { c in (c.set.name, { runner in
                             Throughput.vector(environments: envs, runner: runner, control: .random, seconds: seconds,
                                               seed: seed, ticksPerRound: ticks, chunk: chunk) { makeVector($0, $1, seed, true) }
                         }) }, allocations: { runner, control in
                             let bench = VectorBench(environments: envs, seed: seed, runner: runner, control: control,
                                                     chunk: chunk) { make($0, $1, seed) }
                             return Bench.allocations(environments: envs, workers: runner.workers, ticks: ticks) {
                                 bench.run(ticks: $0, wrappingEachWorker: $1)
                             }
                         }, single: { workers in
                             Throughput.singleAPI(G.self, config: config, environments: envs, workers: workers,
                                                  seconds: seconds, seed: seed, ticksPerRound: ticks)
                         })
    }

    /// A config's `frameSkip` (every game's config has one).
    static func frameSkip(_ json: JSONValue) -> Int {
        if case let .number(x, _)? = json["frameSkip"], let k = Int(exactly: x) { return k }
        return 1
    }

    /// One game and preset: batched with random actions and with the linear
    /// policy in the loop (1 worker and all workers alternating `repeats`
    /// times, allocations), and the single-game API when given.
    func benchCase(game: String, preset: String, frameSkip: Int, workers all: Int, policy: LinearPolicy,
                   seated: BatchControl?,
                   batched: (ParallelRunner, BatchControl) -> Throughput.Measurement,
                   contexts: (set: String, batched: (ParallelRunner) -> Throughput.Measurement)? = nil,
                   allocations: (ParallelRunner, BatchControl) -> AllocationCount?,
                   single: ((Int) -> Throughput.Measurement)?) -> JSONValue {
        print("\(game) \(preset) (frameSkip \(frameSkip)):")
        let one = ParallelRunner(workers: 1), many = ParallelRunner(workers: all)
        var rows: [(String, JSONValue)] = [("game", .string(game)), ("preset", .string(preset)),
                                           ("frameSkip", .number(frameSkip))]
        var controls: [(String, String, BatchControl)] = [
            ("batched", "batched", BatchControl.random),
            ("batched + linear policy", "batchedLinearPolicy", .linear(policy)),
        ]
        if let seated, case let .seated(name, _) = seated {
            controls.append(("batched + \(name) seated (seat 1), as users run it", "batchedOpponentSeated", seated))
        }
        for (label, key, control) in controls {
            var pairs: [(one: Throughput.Measurement, many: Throughput.Measurement)] = []
            // With contexts, the random-action rounds alternate: fixed rules, then contexts.
            let withContexts = key == "batched" ? contexts : nil
            var contextPairs: [(one: Throughput.Measurement, many: Throughput.Measurement)] = []
            for _ in 0 ..< repeats {
                let m1 = batched(one, control)
                pairs.append((m1, all > 1 ? batched(many, control) : m1))
                if let withContexts {
                    let c1 = withContexts.batched(one)
                    contextPairs.append((c1, all > 1 ? withContexts.batched(many) : c1))
                }
            }
            let alloc1 = allocations(one, control)
            let allocN = all > 1 ? allocations(many, control) : alloc1
            rows.append((key, figure(label, pairs, alloc1, allocN, frameSkip)))
            if let withContexts {
                rows.append(("batchedContexts", figure("batched, every episode's rules drawn from \(withContexts.set)",
                                                       contextPairs, nil, nil, frameSkip)))
                rows.append(("contextsVariantSet", .string(withContexts.set)))
                rows.append(("contextsOverFixed", contextRatios(pairs, contextPairs)))
            }
        }
        if let single {
            let s1 = single(1)
            let sN = all > 1 ? single(all) : s1
            rows.append(("singleAPI", figure("single API", [(s1, sN)], nil, nil, frameSkip)))
        }
        return .object(rows)
    }

    /// The ratios of the context figures' rates to the fixed rules' (per
    /// round, medians), printed and as JSON.
    func contextRatios(_ fixed: [(one: Throughput.Measurement, many: Throughput.Measurement)],
                       _ contexts: [(one: Throughput.Measurement, many: Throughput.Measurement)]) -> JSONValue {
        let one = zip(fixed, contexts).map { $1.one.stepsPerSecond / $0.one.stepsPerSecond }
        let many = zip(fixed, contexts).map { $1.many.stepsPerSecond / $0.many.stepsPerSecond }
        let range = { (r: [Double]) in "[\(String(format: "%.2f", r.min() ?? 0))–\(String(format: "%.2f", r.max() ?? 0))]" }
        var line = "  contexts / fixed rules: 1 worker \(String(format: "%.2f", Bench.median(one)))× \(range(one))"
        if contexts.first.map({ $0.many.workers > 1 }) ?? false {
            line += "; \(contexts[0].many.workers) workers \(String(format: "%.2f", Bench.median(many)))× \(range(many))"
        }
        print(line + " (median of \(one.count) alternating rounds [min–max])")
        return .object([("oneWorker", .number(Bench.median(one))), ("allWorkers", .number(Bench.median(many))),
                        ("oneWorkerPerRepeat", .array(one.map { .number($0) })),
                        ("allWorkersPerRepeat", .array(many.map { .number($0) }))])
    }

    /// Throws when the game's shipped variant file has no set `name`.
    static func checkSet<G: CommandGame>(_: G.Type, _ name: String) throws {
        guard let text = ShippedVariants.text(game: G.Config.gameName) else {
            throw CLIError("--variants \(name): \(G.Config.gameName) has no shipped variant file")
        }
        do {
            let source = "Configs/variants/\(G.Config.gameName).json"
            _ = try VariantFile<G.Config>.decode(text, source: source).set(name, source: source)
        } catch { throw CLIError("--variants \(name): \(error)") }
    }

    /// The rule context of the shipped variant set `name` on `base` (hidden:
    /// the bench observes the game's own features).
    static func context<C: VariantConfig>(_: C.Type, set name: String, base: C) throws -> RuleContext<C> {
        guard let text = ShippedVariants.text(game: C.gameName) else {
            throw CLIError("--variants \(name): \(C.gameName) has no shipped variant file")
        }
        do {
            let source = "Configs/variants/\(C.gameName).json"
            let file = try VariantFile<C>.decode(text, source: source)
            return try RuleContext(base: base, set: try file.set(name, source: source), visible: false, source: source)
        } catch { throw CLIError("--variants \(name): \(error)") }
    }

    /// A fixed random linear policy (its values do not matter for speed).
    static func linearPolicy(inputs: Int, actions: Int, seed: UInt64) -> LinearPolicy {
        var rng = Xoshiro256(seed: Seeds.stream(seed, SeedStream.benchPolicy))
        let w = (0 ..< actions * inputs).map { _ in rng.nextSigned() }
        let b = (0 ..< actions).map { _ in rng.nextSigned() * 0.1 }
        return LinearPolicy(inputs: inputs, outputs: actions, weights: w, bias: b, normalizer: nil)
    }

    /// Allocations over two dispatches of `ticks` ticks after a 64-tick
    /// warm-up: in all threads, and inside the workers' step loops alone
    /// (each worker counts its own thread's while it steps its chunks); nil
    /// when the counter is not this process's malloc.
    static func allocations(environments: Int, workers: Int, ticks: Int,
                            run: (Int, @escaping @Sendable (Int, () -> Void) -> Void) -> Void) -> AllocationCount? {
        guard malloc_counter_active() != 0 else { return nil }
        let perWorker = WorkerCounts(workers)
        let counting: @Sendable (Int, () -> Void) -> Void = { w, step in
            malloc_counter_start_thread()
            step()
            perWorker.add(w, malloc_counter_stop_thread())
        }
        run(64, counting)
        perWorker.reset()
        let dispatches = 2
        malloc_counter_start()
        for _ in 0 ..< dispatches { run(ticks, counting) }
        let total = malloc_counter_stop()
        return AllocationCount(total: total, inWorkerLoops: perWorker.sum, steps: dispatches * ticks * environments,
                               dispatches: dispatches)
    }

    func figure(_ label: String, _ pairs: [(one: Throughput.Measurement, many: Throughput.Measurement)],
                _ alloc1: AllocationCount?, _ allocN: AllocationCount?, _ frameSkip: Int) -> JSONValue {
        let ratios = pairs.map { $0.many.stepsPerSecond / $0.one.stepsPerSecond }
        let scaling = Bench.median(ratios)
        let one = Bench.medianMeasurement(pairs.map(\.one)), many = Bench.medianMeasurement(pairs.map(\.many))
        let rt1 = one.stepsPerSecond * Double(frameSkip) / 60, rtN = many.stepsPerSecond * Double(frameSkip) / 60
        let frames1 = one.stepsPerSecond * Double(frameSkip), framesN = many.stepsPerSecond * Double(frameSkip)
        var line = "  \(label): 1 worker \(formatRate(one.stepsPerSecond)) steps/s (\(formatRate(frames1)) frames/s, \(formatRate(rt1))× real time, \(formatRate(one.stepsPerCPUSecond)) per CPU-s)"
        if many.workers > 1 {
            line += "; \(many.workers) workers \(formatRate(many.stepsPerSecond)) steps/s (\(formatRate(framesN)) frames/s, \(formatRate(rtN))× real time, \(formatRate(many.stepsPerCPUSecond)) per CPU-s, CPU use \(String(format: "%.2f", many.cpuSeconds / many.seconds)) cores), scaling \(String(format: "%.2f", scaling))× (median of paired ratios)"
            if ratios.count > 1 {
                line += " [\(String(format: "%.2f", ratios.min() ?? 0))–\(String(format: "%.2f", ratios.max() ?? 0)) over \(ratios.count)]"
            }
        }
        if let alloc1 { line += "; allocations/step \(Bench.formatAllocations(alloc1.perStepTotal))" }
        if let allocN, many.workers > 1 {
            line += " (\(many.workers) workers: \(Bench.formatAllocations(allocN.perStepInWorkerLoops)) in the step loops, \(Bench.formatAllocations(allocN.perStepTotal)) with Dispatch's \(String(format: "%.0f", allocN.perDispatchOutsideLoops)) per dispatch)"
        }
        print(line)
        var members: [(String, JSONValue)] = [
            ("oneWorker", measurementJSON(one, frameSkip)),
            ("allWorkers", measurementJSON(many, frameSkip)),
            ("scaling", .number(scaling)),
            ("scalingPerRepeat", .array(ratios.map { .number($0) })),
            ("oneWorkerStepsPerSecondPerRepeat", .array(pairs.map { .number($0.one.stepsPerSecond) })),
            ("allWorkersStepsPerSecondPerRepeat", .array(pairs.map { .number($0.many.stepsPerSecond) })),
        ]
        // Whole-process counts under the keys earlier reports used; the loops' own apart.
        members.append(("allocationsPerStepOneWorker", alloc1.map { .number($0.perStepTotal) } ?? .null))
        members.append(("allocationsPerStepAllWorkers", allocN.map { .number($0.perStepTotal) } ?? .null))
        members.append(("allocationsPerStepAllWorkersInStepLoops", allocN.map { .number($0.perStepInWorkerLoops) } ?? .null))
        members.append(("allocationsPerDispatchOutsideStepLoops", allocN.map { .number($0.perDispatchOutsideLoops) } ?? .null))
        return .object(members)
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }

    /// The measurement with the median rate.
    static func medianMeasurement(_ ms: [Throughput.Measurement]) -> Throughput.Measurement {
        let sorted = ms.sorted { $0.stepsPerSecond < $1.stepsPerSecond }
        return sorted[(sorted.count - 1) / 2]
    }

    func measurementJSON(_ m: Throughput.Measurement, _ frameSkip: Int) -> JSONValue {
        .object([("workers", .number(m.workers)), ("steps", .number(m.steps)), ("seconds", .number(m.seconds)),
                 ("cpuSeconds", .number(m.cpuSeconds)),
                 ("stepsPerSecond", .number(m.stepsPerSecond)),
                 ("stepsPerCPUSecond", .number(m.stepsPerCPUSecond)),
                 ("framesPerSecond", .number(m.stepsPerSecond * Double(frameSkip))),
                 ("timesRealTime", .number(m.stepsPerSecond * Double(frameSkip) / 60))])
    }

    static func formatAllocations(_ x: Double) -> String {
        x == 0 ? "0" : String(format: "%.2g", x)
    }
}

/// The machine a benchmark ran on.
struct BenchMachine {
    var cpu: String
    var cores: Int
    var workers: Int
    var swift: String
    var configuration: String
    var loadAverage: String

    static func current(workers: Int) -> BenchMachine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return BenchMachine(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, workers: workers,
                            swift: swiftVersion, configuration: configuration, loadAverage: load)
    }

    /// The compiler that built this binary (from compile-time checks).
    static var swiftVersion: String {
        #if compiler(>=6.5)
        ">= 6.5"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    var summary: String {
        "\(cpu), \(cores) cores, \(workers) workers, Swift \(swift), \(configuration) build, load average \(loadAverage) at start"
    }

    var json: JSONValue {
        .object([("cpu", .string(cpu)), ("cores", .number(cores)), ("workers", .number(workers)),
                 ("swift", .string(swift)), ("buildConfiguration", .string(configuration)),
                 ("loadAverageAtStart", .string(loadAverage))])
    }

    static func timestamp(iso: Bool) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = iso ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyyMMdd-HHmmss"
        return f.string(from: Date())
    }
}

/// Allocations counted over some dispatches of a batch runner.
struct AllocationCount {
    /// malloc calls in every thread of the process.
    var total: UInt64
    /// malloc calls made by the workers while stepping their chunks.
    var inWorkerLoops: UInt64
    var steps: Int
    var dispatches: Int

    var perStepTotal: Double { Double(total) / Double(steps) }
    var perStepInWorkerLoops: Double { Double(inWorkerLoops) / Double(steps) }
    /// The rest (dispatching and joining the workers), per dispatch.
    var perDispatchOutsideLoops: Double { Double(total - min(total, inWorkerLoops)) / Double(dispatches) }
}

/// One counter per worker, each written only by its own worker.
final class WorkerCounts: @unchecked Sendable {
    private let counts: UnsafeMutableBufferPointer<UInt64>

    init(_ workers: Int) {
        counts = .allocate(capacity: workers)
        counts.initialize(repeating: 0)
    }

    deinit { counts.deallocate() }

    func add(_ worker: Int, _ n: UInt64) { counts[worker] += n }
    func reset() { for i in counts.indices { counts[i] = 0 } }
    var sum: UInt64 { counts.reduce(0, +) }
}
