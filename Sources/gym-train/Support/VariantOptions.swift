import Agents
import ArgumentParser
import Gym

/// `--variants SET` and `--variants-file FILE` of the commands that play
/// every game under the rules its episode seed draws (`tournament`, its
/// SPRT, `eval`): one option group, so every command draws, records,
/// resumes and shards the rules alike.
struct VariantOptions: ParsableArguments {
    @Option(help: "Play every game under the rules its seed draws from this variant set (train, near, far); its records name them.")
    var variants: String?

    @Option(name: .customLong("variants-file"), help: "The variant file of --variants (default: the game's shipped Configs/variants/<game>.json).")
    var variantsFile: String?

    func validate() throws {
        if variantsFile != nil, variants == nil {
            throw ValidationError("--variants-file needs --variants SET (the set of the file to play)")
        }
    }

    /// The run's per-episode rules on `base`, nil without `--variants`.
    /// - Parameter command: names the command's rules in errors ("the tournament's").
    func played<C: VariantConfig>(_: C.Type, base: C, command: String) throws -> PlayedVariants<C>? {
        guard let variants else { return nil }
        let text = try VariantText(game: C.gameName, path: variantsFile, option: "--variants-file")
        do { return try PlayedVariants(text: text, set: variants, base: base, command: command) } catch let error as CLIError {
            throw CLIError("--variants \(variants): \(error)")
        }
    }
}

/// A run's per-episode rules (``EpisodeRules``) with the variant file they
/// come from: what the run's journal, run.json and shard folders hold of them.
struct PlayedVariants<C: VariantConfig> {
    var rules: EpisodeRules<C>
    var text: VariantText
    var set: String

    init(text: VariantText, set: String, base: C, command: String) throws {
        let (file, variantSet) = try text.set(C.self, set)
        do {
            let context = try RuleContext(base: base, set: variantSet, visible: false,
                                          source: "\(text.source): set \"\(set)\" on \(command) rules")
            rules = EpisodeRules(context: context, file: text.source, version: file.version)
        } catch { throw CLIError("\(error)") }
        self.text = text
        self.set = set
    }

    /// What a `--resume` journal's identity holds: the set, the file and its
    /// text's SHA-256 (so a changed file is refused).
    var identity: [(String, JSONValue)] {
        [("variants", .string(set)), ("variantsFile", .string(text.source)),
         ("variantsSha256", .string(SHA256.hex(Array(text.text.utf8))))]
    }

    /// run.json's members.
    var runInfo: [(String, JSONValue)] { [("variants", .string(set)), ("variantsFile", .string(text.source))] }

    /// A shard's parameters: the set, the file's name and its text, so `merge`
    /// names every game's rules as the unsharded run does, wherever it runs.
    var shardParameters: [(String, JSONValue)] {
        [("variants", .string(set)), ("variantsFile", .string(text.source)), ("variantsText", .string(text.text))]
    }

    /// The rules a shard of a run played (nil: the run had no `--variants`).
    static func ofShard(_ shard: ShardFolder, base: C, command: String) throws -> PlayedVariants? {
        guard shard.parameters["variants"] != nil else { return nil }
        let text = VariantText(source: try shard.stringParameter("variantsFile"), text: try shard.stringParameter("variantsText"))
        return try PlayedVariants(text: text, set: try shard.stringParameter("variants"), base: base, command: command)
    }
}
