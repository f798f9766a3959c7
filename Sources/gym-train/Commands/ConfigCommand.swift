import Agents
import ArgumentParser
import Gym

/// `gym-train config`: show presets, validate files, print the reference.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective config of a preset or file, validate a file, or list presets.",
        discussion: """
        With --config FILE the file is validated strictly (unknown keys, types and ranges) \
        and the effective config is printed; with --preset NAME (or nothing) the preset is printed. \
        With --variants FILE a variant file (Configs/variants/<game>.json) is validated the same \
        way and its sets are listed. With --draw SET the rules of episodes 0 ..< --episodes of a run \
        seeded --seed (episode e's seed as eval and the environments seed it) are drawn from SET \
        (of --variants FILE, else the shipped file) and printed, one JSON line per episode.
        """
    )

    @OptionGroup var game: GameOptions

    @Flag(help: "List the game's presets.")
    var list = false

    @Flag(help: "Print the config reference (Markdown table of every key).")
    var reference = false

    @Flag(help: "The training config (e.g. Configs/train.json) instead of a game config.")
    var train = false

    @Option(name: .customLong("variants"), help: "Validate a variant file (e.g. Configs/variants/pong.json) and list its sets.")
    var variantsFile: String?

    @Option(name: .customLong("draw"), help: "Print the rules a variant set draws for episodes 0 ..< --episodes of --seed.")
    var drawSet: String?

    @Option(help: "Episodes whose rules --draw prints, 1 ... 100000.")
    var episodes: Int = 1

    func validate() throws {
        guard (1 ... 100_000).contains(episodes) else {
            throw ValidationError("--episodes \(episodes) is out of range; allowed: 1 ... 100000")
        }
    }

    func run() throws {
        if train { return try show(TrainConfig.self) }
        if let drawSet {
            switch game.game {
            case .pong: return try draw(PongConfig.self, drawSet)
            case .breakout: return try draw(BreakoutConfig.self, drawSet)
            }
        }
        if let variantsFile {
            switch game.game {
            case .pong: return try showVariants(PongConfig.self, variantsFile)
            case .breakout: return try showVariants(BreakoutConfig.self, variantsFile)
            }
        }
        switch game.game {
        case .pong: try show(PongConfig.self)
        case .breakout: try show(BreakoutConfig.self)
        }
    }

    func show<C: GameConfig>(_ type: C.Type) throws {
        if list {
            print(C.presetNames.joined(separator: "\n"))
            return
        }
        if reference {
            print(C.referenceTable, terminator: "")
            return
        }
        let config = try game.loadConfig(C.self)
        print(config.json.serialized())
        if let file = game.rules.configFile {
            FileHandleOutput.standardError("\(file): valid \(C.gameName) config (hash \(String(config.configHash, radix: 16)))")
        }
    }

    /// Checks the variant file at `path` and prints one line per set and one for the sensitivity grid.
    func showVariants<C: VariantConfig>(_: C.Type, _ path: String) throws {
        let file: VariantFile<C>
        do { file = try VariantFile<C>.decode(try readText(path, what: "variant file"), source: path) } catch let e as ConfigError {
            throw CLIError("\(e)")
        }
        for set in file.sets {
            switch set.content {
            case let .ranges(r):
                print("\(set.name): ranges (\(set.sampling)) " + r.map { "\($0.key) \(SVGChart.label($0.lower)) ... \(SVGChart.label($0.upper))" }.joined(separator: ", "))
            case let .points(p):
                print("\(set.name): \(p.count) points (\(set.sampling)) " + p.map(\.name).joined(separator: ", "))
            }
        }
        if !file.sensitivity.isEmpty {
            print("sensitivity: " + file.sensitivity.map { "\($0.key) (\($0.values.count) values)" }.joined(separator: ", "))
        }
        FileHandleOutput.standardError("\(path): valid \(C.gameName) variant file (version \(file.version), preset \(file.preset))")
    }

    /// One JSON line per episode: its index, seed and the rules `set` draws for it.
    func draw<C: VariantConfig>(_: C.Type, _ name: String) throws {
        let set = try VariantText(game: C.gameName, path: variantsFile, option: "--variants").set(C.self, name).set
        for e in 0 ..< episodes {
            let seed = Seeds.episode(runSeed: game.seed, index: e)
            let line = JSONValue.object([("episode", .number(e)), ("seed", .number(seed)), ("set", .string(set.name)),
                                         ("values", set.draw(episodeSeed: seed).json)])
            print(line.serialized(pretty: false))
        }
    }
}
