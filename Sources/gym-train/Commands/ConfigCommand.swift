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
        way and its sets are listed.
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

    func run() throws {
        if train { return try show(TrainConfig.self) }
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
}
