import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train es-members`: plays one piece of an ES iteration's population.
struct ESMembers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "es-members",
        abstract: "Play members FIRST ..< END of one ES iteration (a piece of `train --remote-members`).",
        discussion: """
        Reads an es-request.json written by `gym-train train --remote-members` (the training \
        config and the checkpoint at the iteration's start), plays the members with the code \
        `train` plays its whole population with, and writes their results (an es-members \
        file: fitness, steps and observation statistics per member, exact numbers). Every \
        member's result depends only on the run seed, the iteration, the policy and its index: \
        pieces played anywhere and joined in member order give `train`'s iteration bit for bit.
        """
    )

    @Option(help: "The request (es-request.json of the run folder).")
    var request: String

    @Option(help: "First member played (0-based).")
    var first: Int

    @Option(help: "One past the last member played.")
    var end: Int

    @Option(help: "The es-members file written.")
    var out: String

    @OptionGroup var workerOptions: WorkerOptions

    func validate() throws {
        if out.isEmpty { throw ValidationError("--out '' is empty; allowed: the path of the es-members file") }
    }

    func run() throws {
        BLAS.useSingleThread()
        let text = try readText(request, what: "es-request")
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw CLIError("\(request): \(error)") }
        guard doc["format"] == .string("es-request"), let configDoc = doc["config"], let checkpointDoc = doc["checkpoint"],
              let iteration = doc["iteration"]?.integer(Int.self) else {
            throw CLIError("\(request) is not an es-request file (written by gym-train train --remote-members)")
        }
        let config = try TrainConfig.decode(configDoc, source: "\(request) config")
        let checkpoint = try Checkpoint.decode(checkpointDoc.serialized(), path: "\(request) checkpoint")
        let session = try TrainingSession(config: config, resume: (checkpoint, "\(request) checkpoint"))
        guard session.state.iteration == iteration else {
            throw CLIError("\(request): the checkpoint is at iteration \(session.state.iteration), the request names \(iteration)")
        }
        let members = try session.evaluateMembers(first: first, end: end, runner: workerOptions.runner)
        let piece = MemberPiece(iteration: iteration, trainingHash: config.trainingHash, first: first, members: members)
        try AtomicFile.write(Data((piece.json.serialized(pretty: false) + "\n").utf8), to: URL(fileURLWithPath: out))
    }
}
