import Testing
import Gym
@testable import Agents

/// Records of episodes played under a variant set carry their rules
/// (``RecordedRules``): the recorded episode replays bit for bit under them,
/// and a forged or mismatched rules entry is refused with one line.
@Suite struct RecordedRulesTests {
    static func drawn<C: VariantConfig>(_: C.Type, seed: UInt64) throws -> (base: C, rules: RecordedRules, played: C) {
        let base = try C.preset("classic")
        let file = RecordedRules.shippedFile(game: C.gameName)
        let set = try VariantFile<C>.decode(ShippedVariants.text(game: C.gameName) ?? "", source: file).set("train", source: file)
        let (variant, played) = try RuleContext(base: base, set: set, visible: false, source: "test").rules(episodeSeed: seed)
        return (base, RecordedRules(set: "train", file: file, version: 1, variant: variant), played)
    }

    @Test func aBreakoutEpisodeUnderDrawnRulesReplaysBitForBit() throws {
        let seed = Seeds.episode(runSeed: 3, index: 2)
        let (base, rules, played) = try Self.drawn(BreakoutConfig.self, seed: seed)
        #expect(played != base)
        // As a tournament under the set plays it: the agent made for the base rules, the game under the drawn ones.
        let result = try Matches.play(Breakout.self, config: base, roster: [try AgentSpec.parse("tracker")], count: 1,
                                      runner: ParallelRunner(workers: 1), game: { _ in SeatedGame(seed: seed, seats: [0]) },
                                      rules: { _ in played })[0]
        let record = BreakoutEpisodeRecord(agent: "tracker", episode: 2, config: base, result: result, rules: rules, played: played)
        let decoded = try BreakoutEpisodeRecord.decode(record.line, source: "episodes.jsonl:2")
        #expect(decoded.played == played && decoded.rules?.variant.name == "train~")
        var replayed = try decoded.replay()
        replayed.index = result.index
        #expect(replayed == result)
        // Without its rules the line plays the base rules: another episode.
        let plain = BreakoutEpisodeRecord(agent: "tracker", episode: 2, config: base, result: result)
        #expect(try BreakoutEpisodeRecord.decode(plain.line, source: "x").replay().steps != result.steps)
    }

    @Test func aPongGameUnderDrawnRulesReplaysBitForBit() throws {
        let seed = Seeds.episode(runSeed: 5, index: 0)
        let (base, rules, played) = try Self.drawn(PongConfig.self, seed: seed)
        let roster = [try AgentSpec.parse("tracker"), try AgentSpec.parse("tracker:noise=2")]
        let result = try Matches.play(Pong.self, config: base, roster: roster, count: 1, runner: ParallelRunner(workers: 1),
                                      game: { _ in SeatedGame(seed: seed, seats: [0, 1]) }, rules: { _ in played })[0]
        let record = PongMatchRecord(match: 0, pairing: 0, pair: 0, bottom: "tracker", top: "tracker:noise=2", config: base,
                                     result: result, rules: rules, played: played)
        let decoded = try PongMatchRecord.decode(record.line, source: "matches.jsonl:0")
        #expect(decoded.played == played && decoded.result == record.result && decoded.rules?.set == "train")
        #expect(try decoded.replay() == result)
        let plain = PongMatchRecord(match: 0, pairing: 0, pair: 0, bottom: "tracker", top: "tracker:noise=2", config: base,
                                    result: result)
        #expect(try PongMatchRecord.decode(plain.line, source: "x").replay() != result)
    }

    /// A line of an external agent under a variant set carries both: the
    /// program right after the agent spec, the rules last; it decodes to the
    /// same record, and the built-in fields keep their places.
    @Test func aRecordCarriesAnAgentProgramAndItsRulesInAFixedOrder() throws {
        let seed = Seeds.episode(runSeed: 3, index: 2)
        let program = JSONValue.object([("name", .string("C")), ("file", .string("agents/c.sh")), ("sha256", .string("ab12"))])
        let (base, rules, played) = try Self.drawn(BreakoutConfig.self, seed: seed)
        let result = BreakoutEpisode(index: 2, seed: seed, score: 3, steps: 40, end: .stepLimit, levelsCleared: 0, livesLost: 0,
                                     events: BreakoutEvents())
        let episode = BreakoutEpisodeRecord(agent: "process:cmd=c.sh,name=C", episode: 2, config: base, result: result,
                                            program: program, rules: rules, played: played)
        let line = episode.line
        let keys = ["\"agent\"", "\"program\"", "\"episode\"", "\"config\"", "\"rules\""]
        let places = keys.map { line.range(of: $0)?.lowerBound }
        #expect(!places.contains(nil) && places.map { $0! } == places.map { $0! }.sorted(), "\(line)")
        let back = try BreakoutEpisodeRecord.decode(line, source: "episodes.jsonl:2")
        #expect(back.program == program)
        #expect(back.rules?.variant.name == rules.variant.name)
        #expect(back.played == played)
        #expect(back.line == line)

        let (pongBase, pongRules, pongPlayed) = try Self.drawn(PongConfig.self, seed: seed)
        let game = PongMatchResult(seed: seed, scoreBottom: 1, scoreTop: 2, steps: 90, end: .stepLimit, hitsBottom: 0, hitsTop: 0,
                                   receiverPoints: 0, pointSpeedSum: 0)
        let match = PongMatchRecord(match: 4, pairing: 1, pair: 2, bottom: "tracker", top: "process:cmd=c.sh,name=C",
                                    config: pongBase, result: game, topProgram: program, rules: pongRules, played: pongPlayed)
        let pongLine = match.line
        let pongKeys = ["\"top\"", "\"topProgram\"", "\"scoreBottom\"", "\"config\"", "\"rules\""]
        let pongPlaces = pongKeys.map { pongLine.range(of: $0)?.lowerBound }
        #expect(!pongPlaces.contains(nil) && pongPlaces.map { $0! } == pongPlaces.map { $0! }.sorted(), "\(pongLine)")
        #expect(!pongLine.contains("bottomProgram"))
        let pongBack = try PongMatchRecord.decode(pongLine, source: "matches.jsonl:4")
        #expect(pongBack.topProgram == program && pongBack.bottomProgram == nil && pongBack.result == game)
        #expect(pongBack.played == pongPlayed && pongBack.rules?.set == "train")
        #expect(pongBack.line == pongLine)
    }

    /// A forged entry: another draw's values, a value out of range, a key that is not a rule.
    @Test func aForgedOrMismatchedRulesEntryIsRefusedWithOneLine() throws {
        let seed = Seeds.episode(runSeed: 3, index: 2)
        let (base, rules, played) = try Self.drawn(BreakoutConfig.self, seed: seed)
        let result = BreakoutEpisode(index: 2, seed: seed, score: 0, steps: 1, end: .none, levelsCleared: 0, livesLost: 0,
                                     events: BreakoutEvents())
        /// The refusal of `rules` edited (and said to come from `file`, which no draw check knows).
        func refusal(_ edit: (inout RuleVariant) -> Void, file: String? = nil) -> String? {
            var forged = rules
            edit(&forged.variant)
            if let file { forged.file = file }
            let line = BreakoutEpisodeRecord(agent: "tracker", episode: 2, config: base, result: result, rules: forged,
                                             played: played).line
            do {
                _ = try BreakoutEpisodeRecord.decode(line, source: "episodes.jsonl:2")
                return nil
            } catch { return error.description }
        }
        #expect(refusal { _ in } == nil)
        let other = try Self.drawn(BreakoutConfig.self, seed: seed &+ 1).rules.variant
        let mismatch = refusal { $0.values = other.values }
        #expect(mismatch?.contains("are not what set \"train\" of Configs/variants/breakout.json (shipped) draws for seed \(seed)") == true,
                "\(mismatch ?? "accepted")")
        let wide = refusal { $0.values[0].value = .number(500) }
        #expect(wide?.contains("are not what set \"train\"") == true, "\(wide ?? "accepted")")
        let range = refusal({ $0.values[0].value = .number(500) }, file: "my-variants.json")
        #expect(range?.contains("\"paddleWidth\" = 500 is out of range") == true, "\(range ?? "accepted")")
        let key = refusal({ $0.values.append(.init(key: "brickRows", value: .number(3))) }, file: "my-variants.json")
        #expect(key?.contains("unknown key \"brickRows\"") == true, "\(key ?? "accepted")")
        for text in [mismatch, wide, range, key] { #expect(text?.contains("\n") == false) }
    }
}
