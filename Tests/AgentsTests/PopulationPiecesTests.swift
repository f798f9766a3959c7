import Testing
import Gym
@testable import Agents

/// An ES iteration played in pieces (the path of `pbgym.distributed`) equals
/// the iteration played whole, bit for bit.
@Suite struct PopulationPiecesTests {
    /// Plays `iterations` iterations with the population cut at `cuts`
    /// (member indices), each piece through its text form.
    func piecewise(_ config: TrainConfig, iterations: Int, cuts: [Int]) throws -> TrainingSession {
        var session = try TrainingSession(config: config)
        let bounds = [0] + cuts + [config.population]
        for _ in 0 ..< iterations {
            var pieces: [MemberPiece] = []
            // Pieces are played by sessions resumed from the iteration's checkpoint, like a node does.
            let checkpoint = try Checkpoint.decode(try session.checkpoint().encoded(), path: "request")
            for (first, end) in zip(bounds, bounds.dropFirst()).reversed() {
                let node = try TrainingSession(config: config, resume: (checkpoint, "request"))
                let members = try node.evaluateMembers(first: first, end: end, runner: ParallelRunner(workers: 1))
                let piece = MemberPiece(iteration: node.state.iteration, trainingHash: config.trainingHash,
                                        first: first, members: members)
                pieces.append(try MemberPiece.decode(piece.json.serialized(pretty: false), path: "piece"))
            }
            let joined = try MemberPiece.join(pieces, iteration: session.state.iteration,
                                              trainingHash: config.trainingHash, population: config.population)
            _ = try session.iterate(members: joined)
        }
        return session
    }

    @Test(arguments: [false, true])
    func piecesJoinedInMemberOrderGiveTheWholeIteration(normalize: Bool) throws {
        let config = try smallConfig(opponent: "tracker:noise=0.5", normalize: normalize, workers: 2)
        var whole = try TrainingSession(config: config)
        try runIterations(&whole, 3, workers: 2)
        #expect(whole.policy.parameters.contains { $0 != 0 }, "training changed nothing")
        for cuts in [[3], [1, 2, 6], [2, 4, 6]] {
            let pieces = try piecewise(config, iterations: 3, cuts: cuts)
            #expect(pieces.policy.parameters.map(\.bitPattern) == whole.policy.parameters.map(\.bitPattern), "cuts \(cuts)")
            #expect(pieces.policy.normalizer == whole.policy.normalizer)
            #expect(pieces.state == whole.state)
        }
    }

    @Test func aPieceOfMembersIsThoseMembersOfTheWhole() throws {
        let config = try smallConfig(normalize: true)
        let session = try TrainingSession(config: config)
        let runner = ParallelRunner(workers: 2)
        let all = try session.evaluateMembers(first: 0, end: 8, runner: runner)
        let middle = try session.evaluateMembers(first: 3, end: 6, runner: runner)
        #expect(Array(all[3 ..< 6]) == middle)
        #expect(Set(all.map(\.fitness)).count > 1 || Set(all.map(\.steps)).count > 1, "members played alike")
    }

    @Test func badPiecesAreRefusedWithOneClearLine() throws {
        let config = try smallConfig()
        let session = try TrainingSession(config: config)
        #expect(throws: PopulationPieceError.badRange(first: 4, end: 9, population: 8)) {
            try session.evaluateMembers(first: 4, end: 9, runner: ParallelRunner(workers: 1))
        }
        let m = MemberResult(fitness: 1, steps: 10, statistics: nil)
        let h = config.trainingHash
        func join(_ pieces: [MemberPiece]) -> String {
            do { _ = try MemberPiece.join(pieces, iteration: 0, trainingHash: h, population: 4) } catch { return "\(error)" }
            return "joined"
        }
        let a = MemberPiece(iteration: 0, trainingHash: h, first: 0, members: [m, m])
        let b = MemberPiece(iteration: 0, trainingHash: h, first: 2, members: [m, m])
        #expect(join([b, a]) == "joined")
        #expect(join([a]) == "members 2 ..< 4 are missing")
        #expect(join([a, a, b]) == "members from 0 are given twice")
        #expect(join([a, MemberPiece(iteration: 1, trainingHash: h, first: 2, members: [m, m])])
            == "a piece holds iteration 1; expected iteration 0")
        #expect(join([a, MemberPiece(iteration: 0, trainingHash: h &+ 1, first: 2, members: [m, m])]).hasPrefix("a piece is from another training config"))
        #expect(throws: PopulationPieceError.self) { try MemberPiece.decode("{\"format\": \"x\"}", path: "p") }

        var reinforce = try smallConfig(trainer: "reinforce")
        reinforce.population = 8
        let other = try TrainingSession(config: reinforce)
        #expect(other.population == nil)
        #expect(throws: PopulationPieceError.notAPopulationTrainer("reinforce")) {
            try other.evaluateMembers(first: 0, end: 2, runner: ParallelRunner(workers: 1))
        }
    }
}
