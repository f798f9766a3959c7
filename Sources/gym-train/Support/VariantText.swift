import Agents
import Gym

/// The text of a game's variant file and the name its errors give it: the
/// file at a path the user gave, else the game's shipped file
/// (``ShippedVariants``, `Configs/variants/<game>.json`).
struct VariantText {
    /// Names the file in errors and in run.json.
    var source: String
    var text: String

    init(source: String, text: String) {
        self.source = source; self.text = text
    }

    /// - Parameter option: the option or key that takes a path, named when the game ships no file.
    init(game: String, path: String?, option: String) throws {
        if let path {
            source = path
            text = try readText(path, what: "variant file")
            return
        }
        guard let shipped = ShippedVariants.text(game: game) else {
            throw CLIError("\(game) ships no variant file; give \(option) FILE")
        }
        source = RecordedRules.shippedFile(game: game)
        text = shipped
    }

    /// The set `name` of the file, decoded and checked for `C`.
    func set<C: VariantConfig>(_: C.Type, _ name: String) throws -> (file: VariantFile<C>, set: VariantSet) {
        do {
            let file = try VariantFile<C>.decode(text, source: source)
            return (file, try file.set(name, source: source))
        } catch { throw CLIError("\(error)") }
    }
}
