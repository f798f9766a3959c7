import Agents
import Foundation
import Gym

/// What gym-train needs of a game beyond Agents' ``PlayableGame`` (and its
/// single-game API for `bench`): the lines, tables and files its commands
/// write for that game. One
/// conformance per game (Games/PongCommands.swift, Games/BreakoutCommands.swift);
/// the commands are generic over it, and ``GameKind/game`` is the one place
/// that maps a `--game` name to its type.
protocol CommandGame: SingleAPIGame, RecordFields where Config: FieldConfig, Vector: RuleContextVector {
    /// `eval`'s files (episodes.csv, summary.json) and printed summary; under
    /// `rules` (`--variants`) episodes.csv names each episode's variant and
    /// matches.jsonl holds each episode's replayable record with its rules.
    static func reportEval(_ records: [Record], _ run: EvalRun, config: Config, rules: EpisodeRules<Config>?) throws

    // MARK: render
    /// The record on `line`, which names this game.
    static func decodeReplay(_ line: String, source: String) throws -> Replay<Self>
    /// A frame of the field at `scale` pixels per field unit.
    static func makeFrame(_ config: Config, scale: Float) -> GrayFrame
    /// The terminal's status line for game 0 of `vector`.
    static func renderStatus(_ vector: Vector, step: Int, seats: [AgentSpec], config: Config) -> String
    /// The line printed once the episode stopped.
    static func renderSummary(_ vector: Vector, label: String, seed: UInt64, seats: [AgentSpec], steps: Int,
                              config: Config) -> String
    /// Compares the replayed game 0 of `vector` (its episode ended after
    /// `steps` steps) with the record: the line to print when identical;
    /// throws a ``CLIError`` when it differs.
    static func checkReplay(_ expected: Record, vector: Vector, steps: Int) throws -> String
    /// What run.json records about the episode played.
    static func renderRunInfo(seats: [AgentSpec], seed: UInt64, episode: Int, replaying: Bool) -> [(String, JSONValue)]

    // MARK: tournament
    /// The mode's name, run.json's sizes and the number of games a
    /// round-robin or gauntlet of `agents` agents plays in the game's format.
    static func tournamentSizes(agents: Int, format: TournamentSchedule.Format, options: Tournament) -> TournamentSizes
    /// Plays the games listed in `games` (global indices, `0 ..< tournamentSizes(...).games`)
    /// of a round-robin or gauntlet of `specs` (checked for `config`) in the
    /// game's format (Pong: side-swapped pairs of games per pairing; Breakout:
    /// every agent on the same seeds); records in the list's order, and each
    /// to `finished` (global index, record) as soon as its game ends.
    /// Game `g` depends on (seed, g) alone, so a shard or a resumed run plays
    /// what the whole run plays. Under `rules` each game plays the rules its seed draws.
    static func playTournamentGames(_ specs: [AgentSpec], config: Config, format: TournamentSchedule.Format,
                                    options: Tournament, games: [Int], runner: ParallelRunner,
                                    rules: EpisodeRules<Config>?,
                                    finished: @escaping @Sendable (Int, Record) -> Void) throws(AgentFault) -> [Record]
    /// The tournament from the records of all its games, in game order
    /// (Breakout: compared seed by seed); under `rules` each record names its game's.
    static func tournamentPlay(_ specs: [AgentSpec], config: Config, format: TournamentSchedule.Format,
                               options: Tournament, records: [Record], rules: EpisodeRules<Config>?) -> TournamentPlay

    // MARK: bench
    /// Games per chunk of `bench`'s batched figures unless `--chunk` says
    /// otherwise, chosen with `--chunk` runs (the best scaling over two
    /// workers): smaller chunks lose with the policy in the loop (two
    /// workers calling a small sgemm at once wait on OpenBLAS's buffer
    /// lock), larger ones fall out of the caches.
    static var benchChunk: Int { get }
}

extension CommandGame {
    /// The names of the game's presets (``GameConfig/presetNames``).
    static var presetNames: [String] { Config.presetNames }
}

/// A tournament's mode name, run.json sizes and number of games (see ``CommandGame``).
struct TournamentSizes {
    /// The mode as run.json names it ("round-robin", "gauntlet, duplicate").
    var mode: String
    /// run.json's members after the agents.
    var members: [(String, JSONValue)]
    /// Games (episodes) played in all.
    var games: Int
}

/// A tournament as a game plays it: the pairwise outcomes the ratings are
/// fitted on, and what the command writes and prints about the games.
struct TournamentPlay {
    var outcomes: PairwiseOutcomes
    /// matches.jsonl (one replayable record per line).
    var records: String
    /// Agent steps played.
    var steps: Int
    /// summary.json's members before the ratings'.
    var summary: [(String, JSONValue)]
    /// Further files (name, text).
    var files: [(String, String)]
    /// The printed header line, and the lines after the tables.
    var header: String
    var notes: [String]
    /// The chart's title.
    var chartTitle: String
}

/// A recorded episode (a line of a tournament's `matches.jsonl`) to play again.
struct Replay<G: CommandGame> {
    /// The config the agents are made for (a record's base rules).
    var config: G.Config
    /// The rules the game played when they are not `config` (a record under a variant set).
    var played: G.Config?
    var seed: UInt64
    /// Each seat's agent spec text.
    var seats: [String]
    /// How the printed lines name it ("match 3", "episode 2").
    var label: String
    var expected: G.Record
    /// What `render` adds to run.json about the record.
    var runInfo: [(String, JSONValue)]
}

/// What an `eval` run was: the context every game's report needs.
struct EvalRun {
    var folder: ResultsFolder
    var agent: AgentSpec
    /// The opponent (two-seat games only).
    var opponent: AgentSpec?
    var seed: UInt64
    var workers: Int
    var seconds: Double
    /// Frames per agent step (for the × real time figure).
    var frameSkip: Int

    /// Writes a game's eval report (`csv` to episodes.csv, `summary` to
    /// summary.json), prints its `lines`, then the speed of `totalSteps`
    /// agent steps and the results folder, the same for every game.
    func finish(csv: String, summary: JSONValue, totalSteps: Int, lines: [String]) throws {
        try folder.write(csv, to: "episodes.csv")
        try folder.write(summary.serialized() + "\n", to: "summary.json")
        for line in lines { print(line) }
        let stepsPerSecond = Double(totalSteps) / max(seconds, 1e-9)
        let realTime = stepsPerSecond * Double(frameSkip) / 60
        let agents = opponent == nil ? "agent included" : "agents included"
        print("  speed   \(formatRate(stepsPerSecond)) steps/s (\(totalSteps) steps in \(String(format: "%.2f", seconds)) s wall, \(agents)), \(formatRate(realTime))× real time")
        print("  results \(folder.path)")
    }
}

extension GameKind {
    /// The game's type: the one dispatch from a `--game` name.
    var game: any CommandGame.Type {
        switch self {
        case .pong: Pong.self
        case .breakout: Breakout.self
        }
    }
}
