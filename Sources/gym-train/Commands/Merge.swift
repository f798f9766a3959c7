import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train merge`: the unsharded run's files from the folders of its shards.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the shard folders of one --shard K/N run into the unsharded run's files.",
        discussion: """
        Every shard 1 ... N of one run must be given exactly once, all from the same subcommand, \
        game, code version, seed, config and parameters; otherwise merge refuses with one line \
        and exit status 1. The records are combined in global game index order (never in the \
        order the folders are given), and the outputs are byte for byte the unsharded run's, \
        except run.json (command line, provenance) and timing.json (wall time, workers).
        """
    )

    @OptionGroup var output: OutputOptions

    @Argument(help: "The shard folders (any order).")
    var shards: [String] = []

    func run() throws {
        let folders = try ShardFolder.readAll(shards)
        let head = folders[0]
        guard let kind = GameKind(rawValue: head.game) else {
            throw CLIError("cannot merge: \(head.path) names game \"\(head.game)\"; allowed: \(GameKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let folder = try ResultsFolder.create(output, command: head.subcommand, game: head.game, seed: head.seed)
        try merge(kind.game, folders, into: folder)
    }

    func merge<G: CommandGame>(_: G.Type, _ folders: [ShardFolder], into folder: ResultsFolder) throws {
        switch folders[0].subcommand {
        case "eval": try Eval.merge(G.self, folders, into: folder)
        case "tournament": try Tournament.merge(G.self, folders, into: folder)
        case "balance-record": try Balance.mergeRecord(folders, into: folder)
        case "balance-check": try Balance.mergeCheck(folders, into: folder)
        case "sweep": try Sweep.merge(folders, into: folder)
        case "robustness": try Robustness.merge(folders, into: folder)
        default:
            throw CLIError("cannot merge: \(folders[0].path) is a shard of \"\(folders[0].subcommand)\"; merge takes shards of eval, tournament, balance record, balance check, sweep or robustness")
        }
    }
}
