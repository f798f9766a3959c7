import Foundation
import Gym

/// A game of `play` saved mid-way (`s`, Ctrl-Z, SIGHUP, SIGTERM): the game's
/// snapshot (``Snapshot``: state with every generator, config) plus what the
/// snapshot cannot hold — the opponent's spec and the person's actions from
/// the game's first step, from which `--resume` rebuilds the opponent's own
/// state (its generator, its reaction queue) by playing the game again from
/// its seed, checks that this arrives at the snapshot's state exactly, and
/// continues. The actions also make the finished game's replay record whole.
///
/// JSON keys: `kind` ("gym-train play save"), `formatVersion`, `game`,
/// `sessionSeed` and `gameIndex` (the game's seed is
/// `Seeds.episode(sessionSeed, gameIndex)`), `seed`, `opponent` (Pong),
/// `name` (the person's), `actions` (runs, as in ``RecordedActions``),
/// `snapshot`.
struct PlaySave<State: SnapshotState & Equatable, Config>: Codable where State.Config == Config {
    static var kindName: String { "gym-train play save" }
    static var currentVersion: Int { 1 }

    var kind = Self.kindName
    var formatVersion = Self.currentVersion
    var game = Config.gameName
    var sessionSeed: UInt64
    var gameIndex: Int
    var seed: UInt64
    var opponent: String?
    var name: String
    var actions: String
    var snapshot: Snapshot<State, Config>

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }

    /// Decodes and checks a save file (`path` names it in errors).
    static func decode(_ data: Data, path: String) throws -> Self {
        let save: Self
        do { save = try JSONDecoder().decode(Self.self, from: data) } catch {
            throw CLIError("save file \(path) is corrupt: \(SnapshotError.describe(error))")
        }
        // The snapshot's own checks (format version, game, config ranges,
        // the game's invariants).
        do { _ = try Snapshot<State, Config>.decode(try save.snapshot.encoded()) } catch {
            throw CLIError("save file \(path): \(error)")
        }
        guard save.formatVersion == currentVersion else {
            throw CLIError("save file \(path) has format version \(save.formatVersion); this build reads version \(currentVersion)")
        }
        guard save.seed == Seeds.episode(runSeed: save.sessionSeed, index: save.gameIndex) else {
            throw CLIError("save file \(path) is corrupt: seed \(save.seed) is not game \(save.gameIndex) of session seed \(save.sessionSeed)")
        }
        return save
    }
}

/// The fields that say what a save file holds, read before its game is known.
struct PlaySaveHeader: Decodable {
    var kind: String
    var game: String

    static func read(_ data: Data, path: String) throws -> PlaySaveHeader {
        let header: PlaySaveHeader
        do { header = try JSONDecoder().decode(PlaySaveHeader.self, from: data) } catch {
            throw CLIError("\(path) is not a play save file (\(SnapshotError.describe(error)))")
        }
        guard header.kind == "gym-train play save" else {
            throw CLIError("\(path) is not a play save file (\"kind\" is \"\(header.kind)\", expected \"gym-train play save\")")
        }
        return header
    }
}
