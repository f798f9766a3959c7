import Gym

/// Pong as Agents plays it: two seats (0 = bottom, 1 = top), egocentric
/// observations (one policy plays either side), records of whole games.
public enum Pong: PlayableGame {
    public typealias Config = PongConfig
    public typealias Vector = PongBatch
    public typealias Record = PongMatchResult

    /// A game's running books: the record so far and the side the next serve heads to.
    public struct Tally {
        var record: PongMatchResult
        var receiver: PongSide
    }

    public static var seats: Int { 2 }

    public static var noEvents: PongEvents { PongEvents() }

    /// When the batch's frames can take its eight-lane quiet path (one frame
    /// per step, no sticky actions); otherwise every batched step is a full
    /// step plus the load and store of the game's columns, slower than a
    /// single game.
    public static func batchIsFaster(_ config: PongConfig) -> Bool {
        config.frameSkip == 1 && config.stickyActionProbability == 0
    }

    public static func policyTarget(_ config: PongConfig) -> PolicyTarget { .pong(config) }

    /// A saved policy must be a Pong policy of this build's observation
    /// layout with as many actions as `config` allows.
    public static func check(_ spec: AgentSpec, config: PongConfig) throws(AgentSpecError) {
        try spec.checkPolicy(policyTarget(config))
    }

    public static func makeTracker(config: PongConfig, skill: TrackerSkill) -> PongTracker {
        PongTracker(config: config, skill: skill)
    }

    public static func beginRecord(_ vector: PongBatch, _ i: Int, seed: UInt64) -> Tally {
        let state = vector.state(i)
        return Tally(record: PongMatchResult(seed: seed, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                             hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0),
                     receiver: state.ballVY < 0 ? .bottom : .top)
    }

    /// ``PongMatch``'s bookkeeping of one step's events.
    @inline(__always)
    public static func book(_ tally: inout Tally, _ events: PongEvents) {
        tally.record.book(events, receiver: &tally.receiver)
    }

    public static func endRecord(_ tally: Tally, _ vector: PongBatch, _ i: Int) -> PongMatchResult {
        let state = vector.state(i)
        var record = tally.record
        record.scoreBottom = Int(state.scoreBottom)
        record.scoreTop = Int(state.scoreTop)
        record.steps = Int(state.steps)
        record.end = state.end
        return record
    }

    public static func playAlone(config: PongConfig, seed: UInt64, agents: inout [any Agent]) -> PongMatchResult {
        var bottom = agents[0], top = agents[1]
        let record = PongMatch.play(config: config, seed: seed, bottom: &bottom, top: &top)
        agents[0] = bottom; agents[1] = top
        return record
    }
}

// MARK: - One game alone

/// The record of one two-player Pong game.
public struct PongMatchResult: Equatable, Sendable, Codable {
    public var seed: UInt64
    public var scoreBottom: Int
    public var scoreTop: Int
    /// Agent steps played.
    public var steps: Int
    public var end: EpisodeEnd
    public var hitsBottom: Int
    public var hitsTop: Int
    /// Points won by the side the serve was heading to.
    public var receiverPoints: Int
    /// Sum over points of the ball's speed level when the point was scored.
    public var pointSpeedSum: Double

    public var points: Int { scoreBottom + scoreTop }
    public func score(_ side: PongSide) -> Int { side == .bottom ? scoreBottom : scoreTop }
    public func hits(_ side: PongSide) -> Int { side == .bottom ? hitsBottom : hitsTop }
}

extension PongMatchResult {
    /// Books one step's events: hits, and for every point who received the
    /// serve and the ball's speed. With frameSkip > 1 several points can fall
    /// in one step; the serve after each heads to its scorer.
    @inline(__always)
    mutating func book(_ events: PongEvents, receiver: inout PongSide) {
        hitsBottom += Int(events.hitsBottom)
        hitsTop += Int(events.hitsTop)
        for _ in 0 ..< Int(events.pointsBottom) {
            if receiver == .bottom { receiverPoints += 1 }
            receiver = .bottom
            pointSpeedSum += Double(events.pointSpeed)
        }
        for _ in 0 ..< Int(events.pointsTop) {
            if receiver == .top { receiverPoints += 1 }
            receiver = .top
            pointSpeedSum += Double(events.pointSpeed)
        }
    }
}

/// Plays whole Pong games between two agents.
public enum PongMatch {
    /// Plays one game from `seed` to its end. Agents are reset with seeds
    /// derived from `seed` (streams 10 for bottom, 11 for top).
    public static func play<Bottom: Agent, Top: Agent>(
        config: PongConfig, seed: UInt64, bottom: inout Bottom, top: inout Top
    ) -> PongMatchResult {
        var game = PongGame(config: config, seed: seed)
        bottom.reset(seed: Seeds.agent(seed, seat: 0))
        top.reset(seed: Seeds.agent(seed, seat: 1))
        var result = PongMatchResult(seed: seed, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                     hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0)
        var receiver: PongSide = game.state.ballVY < 0 ? .bottom : .top
        var events = PongEvents()
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * PongGame.observationCount) { buffer in
            let n = PongGame.observationCount
            let obsBottom = UnsafeMutableBufferPointer(rebasing: buffer[0 ..< n])
            let obsTop = UnsafeMutableBufferPointer(rebasing: buffer[n ..< 2 * n])
            while true {
                game.observe(.bottom, into: obsBottom)
                game.observe(.top, into: obsTop)
                let b = bottom.act(UnsafeBufferPointer(obsBottom))
                let t = top.act(UnsafeBufferPointer(obsTop))
                let step = game.step(top: t, bottom: b, events: &events)
                result.book(events, receiver: &receiver)
                if step.isDone { break }
            }
        }
        result.scoreBottom = Int(game.state.scoreBottom)
        result.scoreTop = Int(game.state.scoreTop)
        result.steps = Int(game.state.steps)
        result.end = game.state.end
        return result
    }
}

// MARK: - Against a built-in opponent

/// Single-agent Pong: the agent plays `side` against a built-in `opponent`
/// (any ``Agent``). Observations are the agent's egocentric ones (see
/// ``PongGame``), the reward is the agent's points won minus lost, and the
/// episode ends as the two-player game does.
public struct PongVersus<Opponent: Agent>: Environment {
    public typealias Config = PongConfig
    public typealias Events = PongEvents

    public var game: PongGame
    public var opponent: Opponent
    /// The side the agent plays.
    public var side: PongSide
    public private(set) var lastEvents = PongEvents()
    var opponentObservation: [Float]

    public init(config: PongConfig, opponent: Opponent, side: PongSide = .bottom, seed: UInt64 = 0) {
        game = PongGame(config: config, seed: seed)
        self.opponent = opponent
        self.side = side
        opponentObservation = [Float](repeating: 0, count: PongGame.observationCount)
        self.opponent.reset(seed: Seeds.agent(seed, seat: 1))
    }

    public var config: PongConfig { game.config }
    public var observationCount: Int { PongGame.observationCount }
    public var actionCount: Int { game.actionCount }

    /// Starts an episode; the opponent's generator is seeded from `seed` too.
    public mutating func reset(seed: UInt64) {
        game.reset(seed: seed)
        opponent.reset(seed: Seeds.agent(seed, seat: 1))
        lastEvents = PongEvents()
    }

    public mutating func step(_ action: Int) -> StepResult {
        let other = side.opponent
        let game = self.game
        let opponentAction = opponentObservation.withUnsafeMutableBufferPointer { buffer in
            game.observe(other, into: buffer)
            return opponent.act(UnsafeBufferPointer(buffer))
        }
        var result = side == .bottom
            ? self.game.step(top: opponentAction, bottom: action, events: &lastEvents)
            : self.game.step(top: action, bottom: opponentAction, events: &lastEvents)
        if side == .top { result.reward = -result.reward }
        return result
    }

    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) {
        game.observe(side, into: buffer)
    }

    public func render(into frame: inout GrayFrame) {
        game.render(into: &frame)
    }
}

// MARK: - Training

/// Training Pong: the policy plays one side against an opponent, the
/// episode return is points won minus points lost.
///
/// Episode `index` of an iteration puts the policy at the bottom when
/// `index` is even and at the top when odd (observations are egocentric, so
/// one policy plays both sides), against opponent `(index / 2) % count`
/// of the list (so with `2 × count` episodes every opponent is met on
/// both sides).
public struct PongTask: GameTrainingTask {
    public typealias Game = Pong

    /// Who the policy plays against.
    public enum Opponent: Equatable, Sendable {
        /// A fixed agent (tracker of some skill, random, a saved policy, …).
        case agent(AgentSpec)
        /// The policy itself as it stands at the start of each iteration (greedy).
        case selfPlay
    }

    public let config: PongConfig
    public let opponents: [Opponent]
    public let episodeSteps: Int

    /// - Precondition: at least one opponent; `linear` opponents passed
    ///   ``Pong/check(_:config:)``.
    public init(config: PongConfig, opponents: [Opponent], episodeSteps: Int) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        precondition(!opponents.isEmpty, "at least one opponent")
        self.config = config
        self.opponents = opponents
        self.episodeSteps = episodeSteps
    }

    /// One opponent.
    public init(config: PongConfig, opponent: Opponent, episodeSteps: Int) {
        self.init(config: config, opponents: [opponent], episodeSteps: episodeSteps)
    }

    public var target: PolicyTarget { .pong(config) }

    public func makeEnvironment(centre: LinearPolicy) -> PongEnvironments {
        PongEnvironments(games: opponents.map { opponent in
            let agent: any Agent = switch opponent {
            case let .agent(spec): Pong.makeAgent(spec, config: config)
            case .selfPlay: LinearAgent(policy: centre)
            }
            return PongVersus(config: config, opponent: AnyAgent(agent))
        })
    }

    public func seating(_ k: Int) -> (learner: Int, opponent: Int) {
        (k % 2 == 0 ? 0 : 1, (k / 2) % opponents.count)
    }

    public func makeOpponents(centre: LinearPolicy) -> [any Agent] {
        opponents.map { opponent -> any Agent in
            switch opponent {
            case let .agent(spec): Pong.makeAgent(spec, config: config)
            case .selfPlay: LinearAgent(policy: centre)
            }
        }
    }

    public func reset(_ env: inout PongEnvironments, seed: UInt64, index: Int) {
        env.current = (index / 2) % env.games.count
        env.games[env.current].side = index % 2 == 0 ? .bottom : .top
        env.games[env.current].reset(seed: seed)
    }
}

/// One worker's Pong games, one per opponent; the current one is played.
public struct PongEnvironments: Environment {
    public var games: [PongVersus<AnyAgent>]
    public var current = 0

    public init(games: [PongVersus<AnyAgent>]) {
        precondition(!games.isEmpty, "at least one game")
        self.games = games
    }

    public var config: PongConfig { games[current].config }
    public var observationCount: Int { PongGame.observationCount }
    public var actionCount: Int { games[current].actionCount }
    public var lastEvents: PongEvents { games[current].lastEvents }
    public mutating func reset(seed: UInt64) { games[current].reset(seed: seed) }
    public mutating func step(_ action: Int) -> StepResult { games[current].step(action) }
    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) { games[current].observe(into: buffer) }
    public func render(into frame: inout GrayFrame) { games[current].render(into: &frame) }
}

// MARK: - Evaluation

/// One evaluation game from the evaluated agent's point of view.
public struct PongEvalEpisode: Equatable, Sendable {
    public var index: Int
    public var match: PongMatchResult
    /// The side the evaluated agent played (alternates by episode index, so
    /// neither side's serve luck favours it).
    public var agentSide: PongSide

    public init(index: Int, match: PongMatchResult, agentSide: PongSide) {
        self.index = index; self.match = match; self.agentSide = agentSide
    }

    public var agentScore: Int { match.score(agentSide) }
    public var opponentScore: Int { match.score(agentSide.opponent) }
    /// 1 win, 0.5 draw (a truncated game with equal scores), 0 loss.
    public var outcome: Double { agentScore > opponentScore ? 1 : (agentScore == opponentScore ? 0.5 : 0) }
}

/// Summary of an evaluation.
public struct PongEvalSummary: Equatable, Sendable {
    public var episodes: Int
    public var wins: Int, draws: Int, losses: Int
    /// (wins + draws/2) / episodes, with its 95% Wilson interval.
    public var winRate: Double, winRateLow: Double, winRateHigh: Double
    public var pointsFor: Int, pointsAgainst: Int
    /// Share of all points won by the agent, with its 95% Wilson interval.
    public var pointShare: Double, pointShareLow: Double, pointShareHigh: Double
    public var meanAgentScore: Double, meanOpponentScore: Double
    public var meanLength: Double
    public var totalSteps: Int
    /// Games stopped at the step limit (`maxSteps`) before either side reached `maxScore`.
    public var truncated: Int
    /// Games played to their end (a side reached `maxScore`) and won / lost by the agent.
    public var wholeGameWins: Int, wholeGameLosses: Int
    /// Wins counted only when the game was played to its end, over all
    /// episodes (a truncated game counts as not won), with its 95% Wilson
    /// interval: the rate a "wins whole games" claim rests on.
    public var wholeGameWinRate: Double, wholeGameWinRateLow: Double, wholeGameWinRateHigh: Double
    /// Truncated games by the score when they stopped: the agent ahead,
    /// level, behind (`wins` includes the leads, `draws` the level ones).
    public var truncatedAhead: Int, truncatedLevel: Int, truncatedBehind: Int

    public init(_ results: [PongEvalEpisode]) {
        episodes = results.count
        wins = results.count { $0.outcome == 1 }
        draws = results.count { $0.outcome == 0.5 }
        losses = episodes - wins - draws
        let w = Statistics.wilson(successes: Double(wins) + Double(draws) / 2, trials: Double(episodes))
        winRate = episodes > 0 ? (Double(wins) + Double(draws) / 2) / Double(episodes) : 0
        winRateLow = w.low; winRateHigh = w.high
        pointsFor = results.reduce(0) { $0 + $1.agentScore }
        pointsAgainst = results.reduce(0) { $0 + $1.opponentScore }
        let total = Double(pointsFor + pointsAgainst)
        pointShare = total > 0 ? Double(pointsFor) / total : 0.5
        let p = Statistics.wilson(successes: Double(pointsFor), trials: total)
        pointShareLow = p.low; pointShareHigh = p.high
        meanAgentScore = Statistics.mean(results.map { Double($0.agentScore) })
        meanOpponentScore = Statistics.mean(results.map { Double($0.opponentScore) })
        meanLength = Statistics.mean(results.map { Double($0.match.steps) })
        totalSteps = results.reduce(0) { $0 + $1.match.steps }
        truncated = results.count { $0.match.end.isTruncation }
        let whole = results.filter { !$0.match.end.isTruncation }
        wholeGameWins = whole.count { $0.outcome == 1 }
        wholeGameLosses = whole.count { $0.outcome == 0 }
        wholeGameWinRate = episodes > 0 ? Double(wholeGameWins) / Double(episodes) : 0
        let ww = Statistics.wilson(successes: Double(wholeGameWins), trials: Double(episodes))
        wholeGameWinRateLow = ww.low; wholeGameWinRateHigh = ww.high
        let cut = results.filter { $0.match.end.isTruncation }
        truncatedAhead = cut.count { $0.outcome == 1 }
        truncatedLevel = cut.count { $0.outcome == 0.5 }
        truncatedBehind = cut.count { $0.outcome == 0 }
    }
}

/// Evaluates an agent against an opponent over many Pong games in parallel.
public enum PongEvaluation {
    /// Plays `episodes` games; episode `i` uses seed `Seeds.episode(runSeed, i)`
    /// and puts the agent at the bottom when `i` is even, at the top when odd.
    /// The games are played by ``Matches``, each exactly as
    /// ``PongMatch/play(config:seed:bottom:top:)`` plays it alone; the
    /// result is the same for any number of workers or `slots`.
    public static func run(config: PongConfig, agent: AgentSpec, opponent: AgentSpec,
                           episodes: Int, runSeed: UInt64, runner: ParallelRunner,
                           slots: Int = Matches.defaultSlots,
                           progress: (@Sendable () -> Void)? = nil) -> [PongEvalEpisode] {
        let matches = Matches.play(Pong.self, config: config, roster: [agent, opponent], count: episodes, slots: slots,
                                   runner: runner, game: { index in
            SeatedGame(seed: Seeds.episode(runSeed: runSeed, index: index), seats: index % 2 == 0 ? [0, 1] : [1, 0])
        }, progress: progress)
        return matches.enumerated().map { index, match in
            PongEvalEpisode(index: index, match: match, agentSide: index % 2 == 0 ? .bottom : .top)
        }
    }
}

// MARK: - Tournament

/// One game of a Pong tournament: where it sits in the schedule, who played
/// which side, and the full game record.
public struct PongTournamentGame: Equatable, Sendable {
    public var slot: TournamentSchedule.Slot
    public var result: PongMatchResult

    public init(slot: TournamentSchedule.Slot, result: PongMatchResult) {
        self.slot = slot; self.result = result
    }

    /// The agent index that played the bottom side.
    public var bottomAgent: Int { slot.swapped ? slot.b : slot.a }
    /// The agent index that played the top side.
    public var topAgent: Int { slot.swapped ? slot.a : slot.b }
    /// The side agent `a` of the pairing played.
    public var sideOfA: PongSide { slot.swapped ? .top : .bottom }
    public var scoreA: Int { result.score(sideOfA) }
    public var scoreB: Int { result.score(sideOfA.opponent) }
    /// Agent `a`'s result: 1 win, 0.5 draw (a truncated game with equal scores), 0 loss.
    public var outcomeA: Double { scoreA > scoreB ? 1 : (scoreA == scoreB ? 0.5 : 0) }
}

/// Plays a Pong tournament (round-robin or gauntlet) in parallel.
public enum PongTournament {
    /// Plays every game of `schedule` between `agents` under `config`.
    ///
    /// Game `g` is played on its pair's seed exactly as
    /// ``PongMatch/play(config:seed:bottom:top:)`` plays it (batched by
    /// ``Matches``), so any game can be replayed from (config, seed,
    /// bottom spec, top spec) alone. The results are by game index, identical
    /// for any number of workers. A `linear` spec must have passed ``Pong/check(_:config:)``.
    public static func run(config: PongConfig, agents: [AgentSpec], schedule: TournamentSchedule,
                           runner: ParallelRunner, progress: (@Sendable () -> Void)? = nil) -> [PongTournamentGame] {
        play(config: config, agents: agents, schedule: schedule, games: 0 ..< schedule.gameCount,
             runner: runner, progress: progress)
    }

    /// Plays the games `games` of `schedule` (a slice, for sequential tests
    /// that play batch by batch); results in game order.
    public static func play(config: PongConfig, agents: [AgentSpec], schedule: TournamentSchedule,
                            games: Range<Int>, runner: ParallelRunner,
                            progress: (@Sendable () -> Void)? = nil) -> [PongTournamentGame] {
        precondition(agents.count == schedule.agentCount, "one spec per scheduled agent")
        let first = games.lowerBound
        let matches = Matches.play(Pong.self, config: config, roster: agents, count: games.count, runner: runner,
                                   game: { offset in
            let slot = schedule.slot(first + offset)
            return SeatedGame(seed: schedule.pairSeed(slot.pair), seats: slot.swapped ? [slot.b, slot.a] : [slot.a, slot.b])
        }, progress: progress)
        return matches.enumerated().map { offset, result in
            PongTournamentGame(slot: schedule.slot(first + offset), result: result)
        }
    }

    /// The tournament's results as per-pairing pair scores (agent `a`'s
    /// points over the two side-swapped games of each pair, 0 ... 2).
    public static func outcomes(_ games: [PongTournamentGame], schedule: TournamentSchedule) -> PairwiseOutcomes {
        var outcomes = PairwiseOutcomes(agentCount: schedule.agentCount, gamesPerUnit: 2)
        for (p, pairing) in schedule.pairings.enumerated() {
            var units = [Double](repeating: 0, count: schedule.pairs)
            var wdl = (w: 0, d: 0, l: 0)
            for game in games where game.slot.pairing == p {
                let o = game.outcomeA
                units[game.slot.pair] += o
                if o == 1 { wdl.w += 1 } else if o == 0.5 { wdl.d += 1 } else { wdl.l += 1 }
            }
            outcomes.add(a: pairing.a, b: pairing.b, unitScores: units, wins: wdl.w, draws: wdl.d, losses: wdl.l)
        }
        return outcomes
    }
}

// MARK: - SPRT

/// Plays a Pong SPRT: candidate (agent 0) against baseline (agent 1), pair
/// after pair, until ``SPRT`` decides.
public enum PongSPRT {
    /// What the test found.
    public struct Outcome: Sendable {
        public var state: SPRT.State
        /// The games that were counted, in order (two per pair).
        public var games: [PongTournamentGame]
    }

    /// Pair `k` is played on seed `Seeds.episode(runSeed: seed, index: k)`,
    /// the candidate at the bottom in game `2k` and at the top in `2k + 1`
    /// (a two-agent ``TournamentSchedule``). Pairs are played `batch` at a
    /// time in parallel and fed to the test strictly in pair order; the test
    /// stops at the first pair where it decides, and games played past that
    /// pair are discarded, so the result does not depend on `batch` or the
    /// number of workers.
    public static func run(config: PongConfig, candidate: AgentSpec, baseline: AgentSpec, test: SPRT,
                           maxPairs: Int, seed: UInt64, batch: Int, runner: ParallelRunner,
                           progress: (@Sendable (SPRT.State) -> Void)? = nil) -> Outcome {
        precondition(batch >= 1, "batch must be at least 1")
        let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: maxPairs, seed: seed)
        var state = SPRT.State(test: test, maxPairs: maxPairs)
        var counted: [PongTournamentGame] = []
        var nextPair = 0
        while state.decision == nil, nextPair < maxPairs {
            let end = min(maxPairs, nextPair + batch)
            let games = PongTournament.play(config: config, agents: [candidate, baseline], schedule: schedule,
                                            games: 2 * nextPair ..< 2 * end, runner: runner)
            var k = 0
            while k + 1 < games.count, state.decision == nil {
                state.add(pairScore: games[k].outcomeA + games[k + 1].outcomeA)
                counted.append(games[k])
                counted.append(games[k + 1])
                k += 2
            }
            nextPair = end
            progress?(state)
        }
        return Outcome(state: state, games: counted)
    }
}

// MARK: - Match records

/// One Pong game as a self-contained JSON line (the tournament's
/// `matches.jsonl`): enough to replay it exactly — the effective config, the
/// seed, and the spec of the agent on each side — plus what happened.
///
/// | key | meaning |
/// |---|---|
/// | `game` | `"pong"` |
/// | `match`, `pairing`, `pair` | global game index, pairing index, pair (seed) index |
/// | `seed` | the game's seed (agents are seeded from it: streams 10 bottom, 11 top) |
/// | `bottom`, `top` | agent specs (the grammar of ``AgentSpec``) on each side |
/// | `scoreBottom`, `scoreTop`, `steps`, `end` | the result |
/// | `hitsBottom`, `hitsTop`, `receiverPoints`, `pointSpeedSum` | statistics |
/// | `configHash` | hash of `config` (hex), checked on replay |
/// | `config` | the full effective config |
public struct PongMatchRecord: Equatable, Sendable {
    public var match: Int
    public var pairing: Int
    public var pair: Int
    public var bottom: String
    public var top: String
    public var config: PongConfig
    public var result: PongMatchResult

    public init(match: Int, pairing: Int, pair: Int, bottom: String, top: String,
                config: PongConfig, result: PongMatchResult) {
        self.match = match; self.pairing = pairing; self.pair = pair
        self.bottom = bottom; self.top = top; self.config = config; self.result = result
    }

    /// The record of a tournament game between `agents`.
    public init(_ game: PongTournamentGame, agents: [AgentSpec], config: PongConfig) {
        self.init(match: game.slot.game, pairing: game.slot.pairing, pair: game.slot.pair,
                  bottom: agents[game.bottomAgent].text, top: agents[game.topAgent].text,
                  config: config, result: game.result)
    }

    public var json: JSONValue {
        .object([
            ("game", .string("pong")), ("match", .number(match)), ("pairing", .number(pairing)),
            ("pair", .number(pair)), ("seed", .number(result.seed)),
            ("bottom", .string(bottom)), ("top", .string(top)),
            ("scoreBottom", .number(result.scoreBottom)), ("scoreTop", .number(result.scoreTop)),
            ("steps", .number(result.steps)), ("end", .string(result.end.description)),
            ("hitsBottom", .number(result.hitsBottom)), ("hitsTop", .number(result.hitsTop)),
            ("receiverPoints", .number(result.receiverPoints)), ("pointSpeedSum", .number(result.pointSpeedSum)),
            ("configHash", .string(String(config.configHash, radix: 16))),
            ("config", config.json),
        ])
    }

    /// The record as one line of JSONL (no newline).
    public var line: String { json.serialized(pretty: false) }

    /// Decodes a record line.
    /// - Parameter source: names the line in errors, e.g. `matches.jsonl:12`.
    public static func decode(_ line: String, source: String) throws(ReplayError) -> PongMatchRecord {
        let record = try RecordLine(line, source: source)
        guard case .object = record.doc else { throw .malformed(source: source, message: "a match record is a JSON object") }
        if let g = record["game"], g != .string("pong") {
            throw .unsupported(source: source, message: "game \(g.serialized(pretty: false)) cannot be replayed; allowed: \"pong\"")
        }
        let seed = try record.seed()
        let config = try record.config(PongConfig.self)
        let end = try record.end(try record.string("end"))
        var speedSum = 0.0
        if case let .number(x, _)? = record["pointSpeedSum"] { speedSum = x }
        let result = PongMatchResult(seed: seed, scoreBottom: try record.int("scoreBottom"), scoreTop: try record.int("scoreTop"),
                                     steps: try record.int("steps"), end: end,
                                     hitsBottom: (try? record.int("hitsBottom")) ?? 0, hitsTop: (try? record.int("hitsTop")) ?? 0,
                                     receiverPoints: (try? record.int("receiverPoints")) ?? 0, pointSpeedSum: speedSum)
        return PongMatchRecord(match: (try? record.int("match")) ?? 0, pairing: (try? record.int("pairing")) ?? 0,
                               pair: (try? record.int("pair")) ?? 0, bottom: try record.string("bottom"),
                               top: try record.string("top"), config: config, result: result)
    }

    /// Plays the recorded game again from its seed, config and agents.
    public func replay() throws(AgentSpecError) -> PongMatchResult {
        let bottomSpec = try AgentSpec.parse(bottom), topSpec = try AgentSpec.parse(top)
        try Pong.check(bottomSpec, config: config)
        try Pong.check(topSpec, config: config)
        var b = Pong.makeAgent(bottomSpec, config: config)
        var t = Pong.makeAgent(topSpec, config: config)
        return PongMatch.play(config: config, seed: result.seed, bottom: &b, top: &t)
    }
}

// MARK: - Balance

/// Runs a Pong balance scenario set and measures its metrics.
///
/// Metrics per scenario (agents `a` and `b`), each the mean over pairs of
/// side-swapped games of a per-pair value (see ``BalanceMetric``):
/// | metric | per-pair value |
/// |---|---|
/// | `receiverWinRate` | share of points won by the side the serve headed to (serve-side balance; 0.5 neutral) |
/// | `rallyLength` | paddle hits per point |
/// | `pointsPerGame` | points played per game |
/// | `gameLength` | agent steps per game |
/// | `pointSpeed` | ball speed level (units/frame) when a point was scored, per point |
/// | `winRateA` | agent `a`'s score per game (win 1, draw ½): the win rate at the scenario's skill gap |
/// | `truncationRate` | share of games that hit the step limit |
/// Per-point values skip a pair without points.
public enum PongBalance {
    /// Plays every scenario of `set` under `config` (normally `set.config`;
    /// a different config is how a rules change is checked).
    public static func run(_ set: BalanceScenarioSet, config: PongConfig, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) -> [BalanceScenarioResult] {
        set.scenarios.enumerated().map { s, scenario in
            let b = scenario.b ?? scenario.a
            let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: scenario.games / 2,
                                              seed: set.scenarioSeed(s))
            let games = PongTournament.run(config: config, agents: [scenario.a, b], schedule: schedule,
                                           runner: runner, progress: progress)
            return BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: b.text,
                                         games: scenario.games, metrics: metrics(games))
        }
    }

    /// The metrics of a scenario's games (game order: pair k is games 2k, 2k + 1).
    public static func metrics(_ games: [PongTournamentGame]) -> [BalanceMetric] {
        var receiver: [Double] = [], rally: [Double] = [], points: [Double] = [], length: [Double] = []
        var speed: [Double] = [], winA: [Double] = [], truncated: [Double] = []
        var k = 0
        while k + 1 < games.count {
            let pair = [games[k], games[k + 1]]
            k += 2
            var pts = 0, rec = 0, hits = 0, steps = 0, trunc = 0
            var speedSum = 0.0, score = 0.0
            for g in pair {
                let r = g.result
                pts += r.points; rec += r.receiverPoints; hits += r.hitsBottom + r.hitsTop; steps += r.steps
                speedSum += r.pointSpeedSum
                score += g.outcomeA
                if r.end.isTruncation { trunc += 1 }
            }
            points.append(Double(pts) / 2)
            length.append(Double(steps) / 2)
            winA.append(score / 2)
            truncated.append(Double(trunc) / 2)
            if pts > 0 {
                receiver.append(Double(rec) / Double(pts))
                rally.append(Double(hits) / Double(pts))
                speed.append(speedSum / Double(pts))
            }
        }
        return [
            .mean("receiverWinRate", receiver), .mean("rallyLength", rally), .mean("pointsPerGame", points),
            .mean("gameLength", length), .mean("pointSpeed", speed), .mean("winRateA", winA),
            .mean("truncationRate", truncated),
        ]
    }
}

// MARK: - Training setup

extension Pong: TrainableGame {
    /// The policy plays `opponent` (a `;`-separated list; `self` is self-play)
    /// and is evaluated against each of `evalOpponent`; the score is the
    /// lowest point share.
    public static func trainingSetup(_ config: TrainConfig, game: PongConfig,
                                     evalGame: PongConfig) throws(TrainingSetupError) -> TrainingSetup<PongTask> {
        var opponents: [PongTask.Opponent] = []
        var evalOpponents: [AgentSpec] = []
        do {
            for text in TrainConfig.split(config.opponent) {
                if text == "self" {
                    opponents.append(.selfPlay)
                } else {
                    let spec = try AgentSpec.parse(text)
                    try Pong.check(spec, config: game)
                    opponents.append(.agent(spec))
                }
            }
            for text in TrainConfig.split(config.evalOpponent) {
                let spec = try AgentSpec.parse(text)
                try Pong.check(spec, config: evalGame)
                evalOpponents.append(spec)
            }
        } catch { throw .agent(error) }
        let names = evalOpponents.map(\.displayName).joined(separator: ", ")
        return TrainingSetup(
            task: PongTask(config: game, opponents: opponents, episodeSteps: config.episodeSteps),
            evaluationTasks: evalOpponents.map { PongTask(config: evalGame, opponent: .agent($0), episodeSteps: config.evalSteps) },
            scoreName: evalOpponents.count == 1 ? "point share vs \(names)" : "lowest point share vs \(names)",
            score: { scores in scores.map(\.share).min() ?? 0 })
    }
}
