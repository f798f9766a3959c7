import Agents
import Foundation
import Gym

/// `train --remote-members`: the iteration's members are played elsewhere
/// (by `pbgym.distributed`, on a backend of its choice) and only the update
/// runs here, through the same ``TrainingSession/iterate(members:)`` that
/// ``TrainingSession/iterate(runner:)`` ends with.
///
/// Protocol, per iteration: this process writes `es-request.json` into the
/// run folder (the effective training config and the checkpoint of the
/// iteration's start: everything `gym-train es-members` needs), prints one
/// line `pbgym-es-request <path of es-request.json>` to stdout and reads one
/// line from stdin: a JSON array of `es-members` piece files
/// (``MemberPiece``) that together cover members `0 ..< population` of that
/// iteration. Pieces may come in any order; they are joined in member order.
/// Stdin at its end instead stops the run as an interruption does: the
/// checkpoint is written at the last whole iteration, and `--resume` continues.
struct RemoteMembers {
    static let requestFile = "es-request.json"
    static let requestPrefix = "pbgym-es-request "

    let folder: ResultsFolder
    let config: TrainConfig

    /// Plays one iteration through the member service; nil when the service
    /// closed stdin before sending the results (the iteration is not done).
    func iterate(_ session: inout TrainingSession) throws -> IterationReport? {
        guard let population = session.population else {
            throw CLIError("\(PopulationPieceError.notAPopulationTrainer(config.trainer))")
        }
        let checkpoint: JSONValue
        do { checkpoint = try JSONValue.parse(try session.checkpoint().encoded()) } catch {
            throw CLIError("cannot encode the checkpoint: \(error)")
        }
        let iteration = session.state.iteration
        let request = JSONValue.object([
            ("format", .string("es-request")), ("iteration", .number(iteration)), ("population", .number(population)),
            ("trainingHash", .string(String(config.trainingHash, radix: 16))),
            ("config", config.json), ("checkpoint", checkpoint),
        ])
        try folder.write(request.serialized(pretty: false) + "\n", to: Self.requestFile)
        let path = folder.url.appendingPathComponent(Self.requestFile).path
        FileHandle.standardOutput.write(Data((Self.requestPrefix + path + "\n").utf8))
        guard let line = readLine(strippingNewline: true) else { return nil }
        let paths: [String]
        do {
            guard case let .array(items) = try JSONValue.parse(line) else { throw CLIError("not an array") }
            paths = try items.map { item in
                guard case let .string(p) = item else { throw CLIError("not an array of strings") }
                return p
            }
        } catch {
            throw CLIError("--remote-members: expected a JSON array of es-members files on stdin, got \"\(line.prefix(200))\" (\(error))")
        }
        var pieces: [MemberPiece] = []
        for p in paths { pieces.append(try MemberPiece.decode(try readText(p, what: "es-members file"), path: p)) }
        let members = try MemberPiece.join(pieces, iteration: iteration, trainingHash: config.trainingHash,
                                           population: population)
        return try session.iterate(members: members)
    }

    /// Removes the last request (the run is over).
    func finish() {
        try? FileManager.default.removeItem(at: folder.url.appendingPathComponent(Self.requestFile))
    }
}
