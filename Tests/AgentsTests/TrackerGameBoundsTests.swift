import Testing
import Gym
@testable import Agents

/// A batched tracker keeps each game's steering in raw columns of its
/// `games` games: a game number outside them must stop the process, never
/// write past the columns (as `bench`'s seat-1 tracker once did: an agent
/// of one seat per game, `count` games, restarted as game `2i + 1`, the
/// every-seat numbering).
@Suite struct TrackerGameBoundsTests {
    /// The C ABI's opponent (one seat of every game, the lane form for a
    /// skill without state, rows otherwise) over batches not a multiple of
    /// eight: every game started, acted, restarted in reverse order, acted
    /// again; every action one of Pong's three and the same as the row
    /// form's on the same observations.
    @Test(arguments: [1, 7, 9, 17])
    func theOpponentsSequenceStaysInItsGames(count: Int) throws {
        var config = PongConfig()
        config.maxScore = 2
        let vector = Pong.makeVector(config: config, count: count)
        let n = PongBatch.observationCount
        let observations = UnsafeMutablePointer<Float>.allocate(capacity: 2 * count * n)
        defer { observations.deallocate() }
        vector.observe(into: observations)
        let games = (0 ..< count).map { Int32($0) }
        var actions = [Int32](repeating: -1, count: count), fromRows = actions
        for seat in 0 ..< 2 {
            for text in ["tracker", "tracker:predict=false", "tracker:reaction=2,noise=1,speed=0.5"] {
                let spec = try AgentSpec.parse(text)
                let make = {
                    try Pong.makeBatchAgent(spec, context: AgentContext(
                        config: config, seating: .oneSeat(seat, slots: count, seats: 2), vector: vector))
                }
                let agent = try make(), reference = try make()
                for round in 0 ..< 2 {
                    for i in round == 0 ? Array(0 ..< count) : (0 ..< count).reversed() {
                        if round > 0 { try agent.end(game: i); try reference.end(game: i) }
                        try agent.start(game: i, seed: UInt64(i)); try reference.start(game: i, seed: UInt64(i))
                    }
                    try games.withUnsafeBufferPointer { g in
                        try actions.withUnsafeMutableBufferPointer { a in
                            try agent.act(AgentRows(count: count, games: g.baseAddress!, observations: observations + seat * n,
                                                    stride: 2 * n, actions: a.baseAddress!))
                        }
                        try fromRows.withUnsafeMutableBufferPointer { a in
                            let rows = AgentRows(count: count, games: g.baseAddress!, observations: observations + seat * n,
                                                 stride: 2 * n, actions: a.baseAddress!)
                            if let lanes = reference as? PongLaneTracker { lanes.act(observationRows: rows) }
                            else { try reference.act(rows) }
                        }
                    }
                    #expect(actions.allSatisfy { (0 ..< 3).contains($0) }, "\(text), seat \(seat), \(count) games")
                    #expect(actions == fromRows, "\(text), seat \(seat), \(count) games, round \(round)")
                }
            }
        }
    }

    /// `bench`'s old restart: the lane tracker of one seat of 9 games
    /// started as game 17 (`2i + 1` for `i` = 8) stops the process, saying why.
    @Test func aLaneTrackerStartedPastItsGamesStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let config = PongConfig()
            let vector = Pong.makeVector(config: config, count: 9)
            let agent = try Pong.makeBatchAgent(AgentSpec.parse("tracker"), context: AgentContext(
                config: config, seating: .oneSeat(1, slots: 9, seats: 2), vector: vector))
            precondition(agent is PongLaneTracker, "the lane form is the one under test")
            try agent.start(game: 17, seed: 1)
        }
        let said = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(said.contains("game 17 is not one of the agent's 9 games"), "\(said)")
    }

    /// The row form's steering read for a row naming a game past the
    /// agent's stops the process too, saying why.
    @Test func aRowTrackerActingPastItsGamesStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let config = PongConfig()
            let agent = try Pong.makeBatchAgent(AgentSpec.parse("tracker:reaction=2"), context: AgentContext(
                config: config, seating: .oneSeat(1, slots: 3, seats: 2)))
            let observations = [Float](repeating: 0, count: PongBatch.observationCount)
            let games: [Int32] = [5]
            var actions: [Int32] = [0]
            try games.withUnsafeBufferPointer { g in
                try observations.withUnsafeBufferPointer { o in
                    try actions.withUnsafeMutableBufferPointer { a in
                        try agent.act(AgentRows(count: 1, games: g.baseAddress!, observations: o.baseAddress!,
                                                stride: PongBatch.observationCount, actions: a.baseAddress!))
                    }
                }
            }
        }
        let said = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(said.contains("game 5 is not one of the agent's 3 games"), "\(said)")
    }
}
