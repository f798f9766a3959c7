import Testing
import Gym
@testable import Agents

/// The slot engine skips the observation rows of seats held by agents that
/// read the batch's state (``StateReadingAgent``): the seats are marked,
/// and skipping never changes a result (the same records with and without
/// it, and as the reference path plays them).
@Suite struct SkippedRowsTests {
    @Test func stateReadersSeatsNeedNoRows() throws {
        let config = PongConfig()
        let vector = Pong.makeVector(config: config, count: 3)
        let reader = PongLaneTracker(PongTracker(config: config), batch: vector,
                                     seating: .everySeat(slots: 3, seats: 2), observationCount: PongBatch.observationCount)
        let linear = try Pong.makeBatchAgent(MatchesTests.linearSpec(config: config, seed: 7, selection: .greedy),
                                             context: AgentContext(config: config,
                                                                   seating: .everySeat(slots: 3, seats: 2)))
        let agents = SlotAgents<Pong>([reader, linear], slots: 3)
        func needed() -> [UInt8] { (0 ..< 6).map { agents.observedRows![$0] } }
        #expect(needed() == [1, 1, 1, 1, 1, 1])
        try agents.start(0, slot: 1, seat: 1, seed: 5)
        try agents.start(1, slot: 1, seat: 0, seed: 6)
        try agents.start(0, slot: 2, seat: 0, seed: 7)
        // Seat-major: seat 0 of slots 0, 1, 2, then seat 1.
        #expect(needed() == [1, 1, 0, 1, 0, 1])
        try agents.end(slot: 1)
        try agents.end(slot: 2)
        #expect(needed() == [1, 1, 1, 1, 1, 1])
    }

    @Test func skippedRowsNeverChangeResults() throws {
        for (label, config) in PongConfig.shortPlainAndSticky() {
            let roster = try ["tracker", "tracker:reaction=3,noise=1,speed=0.7", "random"].map { try AgentSpec.parse($0) }
                + [MatchesTests.linearSpec(config: config, seed: 7, selection: .greedy)]
            let count = 60
            let game: @Sendable (Int) -> SeatedGame = { g in
                SeatedGame(seed: Seeds.episode(runSeed: 9, index: g), seats: [g % 4, (g / 4 + 1) % 4])
            }
            func play(skipping: Bool) throws -> [PongMatchResult] {
                let results = UnsafeMutableBufferPointer<PongMatchResult?>.allocate(capacity: count)
                results.initialize(repeating: nil)
                defer { results.deallocate() }
                // One block of eight lanes and five slots alone.
                let engine = SlotEngine<Pong>(config: config, slots: 13)
                engine.skipsRows = skipping
                let work = try MatchWork<Pong>(config: config, roster: roster, slots: 13, vector: engine.vector,
                                               game: game, results: SlotPointer(base: results.baseAddress),
                                               finished: nil)
                try engine.run(work, jobs: WorkerJobs(worker: 0, workers: 1, count: count))
                return results.compactMap { $0 }
            }
            let skipped = try play(skipping: true), written = try play(skipping: false)
            let reference = try Matches.play(Pong.self, config: config, roster: roster, count: count, path: .oneByOne,
                                             runner: ParallelRunner(workers: 1), game: game)
            #expect(skipped.count == count, "\(label)")
            #expect(skipped == written, "\(label): skipping rows changed a result")
            #expect(skipped == reference, "\(label): not the reference path's records")
        }
    }
}
