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
        and the effective config is printed; with --preset NAME (or nothing) the preset is printed.
        """
    )

    @OptionGroup var game: GameOptions

    @Flag(help: "List the game's presets.")
    var list = false

    @Flag(help: "Print the config reference (Markdown table of every key).")
    var reference = false

    @Flag(help: "The training config (e.g. Configs/train.json) instead of a game config.")
    var train = false

    func run() throws {
        if train { return try show(TrainConfig.self) }
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
}
