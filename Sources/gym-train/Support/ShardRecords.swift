import Agents
import ArgumentParser
import Foundation
import Gym

/// `--shard K/N` of the commands whose games (or sweep cells) can be cut by index.
struct ShardOptions: ParsableArguments {
    @Option(help: "Play only shard K of N (1 ≤ K ≤ N): the games cut by global index into N fixed chunks (independent of --workers); combine the shard folders with `gym-train merge`.")
    var shard: String?

    func validate() throws {
        if let s = shard, Shard(parsing: s) == nil {
            throw ValidationError("--shard \(s) is invalid; allowed: K/N with 1 ≤ K ≤ N ≤ \(Shard.maxCount) (e.g. 2/3)")
        }
    }

    /// The shard to play, nil for the whole run.
    var value: Shard? { shard.flatMap { Shard(parsing: $0) } }
}

/// A shard folder: what a `--shard K/N` run writes and `merge` reads.
///
/// Layout: `run.json` (command line, subcommand, version, game, seed,
/// configHash, shard "K/N", shardIndex, shardCount, games (the run's total),
/// first and end (this shard's global game indices `first ..< end`),
/// parameters: everything else that decides the results), `config.json`,
/// `records.jsonl` (one line per game in index order:
/// `{"index": g, "record": [...]}`) and `timing.json` (wallSeconds, workers).
/// Only `timing.json` and run.json's command line differ between two runs of one shard.
struct ShardFolder {
    var path: String
    var subcommand: String
    var version: String
    var game: String
    var seed: UInt64
    var configHash: String
    var shard: Shard
    var games: Int
    var parameters: JSONValue
    var configText: String
    /// Per game in index order: its global index and record.
    var records: [(index: Int, record: JSONValue)]
    var wallSeconds: Double
    var workers: Int

    static let runFile = "run.json", recordsFile = "records.jsonl", timingFile = "timing.json"

    /// Writes a shard's folder.
    static func write<C: GameConfig>(_ folder: ResultsFolder, subcommand: String, shard: Shard, games: Int, seed: UInt64,
                                     config: C, parameters: [(String, JSONValue)], records: [JSONValue],
                                     seconds: Double, workers: Int) throws {
        let range = shard.range(of: games)
        precondition(records.count == range.count, "a shard writes one record per game of its range")
        let run = JSONValue.object([
            ("command", .string(CommandLine.arguments.joined(separator: " "))),
            ("subcommand", .string(subcommand)), ("version", .string(GymTrainVersion.string)),
            ("game", .string(C.gameName)), ("seed", .number(seed)),
            ("configHash", .string(String(config.configHash, radix: 16))),
            ("shard", .string(shard.description)), ("shardIndex", .number(shard.index)),
            ("shardCount", .number(shard.count)), ("games", .number(games)),
            ("first", .number(range.lowerBound)), ("end", .number(range.upperBound)),
            ("parameters", .object(parameters)),
        ])
        try folder.write(run.serialized() + "\n", to: runFile)
        try folder.write(config.json.serialized() + "\n", to: "config.json")
        var lines = ""
        for (k, r) in records.enumerated() {
            lines += JSONValue.object([("index", .number(range.lowerBound + k)), ("record", r)])
                .serialized(pretty: false) + "\n"
        }
        try folder.write(lines, to: recordsFile)
        try folder.write(timingJSON(seconds: seconds, workers: workers), to: timingFile)
    }

    /// Writes the folder of a `--shard` run (``write(_:subcommand:shard:games:seed:config:parameters:records:seconds:workers:)``)
    /// and prints the one line every sharded command prints: which of the
    /// run's `units` ("games", "cells", "conditions") it played, then where
    /// the folder is and how to combine it.
    /// - Parameter label: how the line names the run ("sweep FILE", "robustness pong").
    static func finish<C: GameConfig>(_ folder: ResultsFolder, subcommand: String, label: String, units: String,
                                      shard: Shard, games: Int, seed: UInt64, config: C,
                                      parameters: [(String, JSONValue)], records: [JSONValue], seconds: Double,
                                      workers: Int) throws {
        try write(folder, subcommand: subcommand, shard: shard, games: games, seed: seed, config: config,
                  parameters: parameters, records: records, seconds: seconds, workers: workers)
        let range = shard.range(of: games)
        print("\(label) shard \(shard): \(units) \(range.lowerBound) ..< \(range.upperBound) of \(games)")
        print("results \(folder.path) (combine the shards with gym-train merge)")
    }

    /// timing.json: the only output file that holds wall time (and the worker count), never compared.
    static func timingJSON(seconds: Double, workers: Int, shards: [(String, Double, Int)] = []) -> String {
        var members: [(String, JSONValue)] = [("wallSeconds", .number(seconds)), ("workers", .number(workers))]
        if !shards.isEmpty {
            members.append(("shards", .array(shards.map { .object([
                ("folder", .string($0.0)), ("wallSeconds", .number($0.1)), ("workers", .number($0.2)),
            ]) })))
        }
        return JSONValue.object(members).serialized() + "\n"
    }

    /// Reads the shard folder at `path`.
    static func read(_ path: String) throws -> ShardFolder {
        let dir = URL(fileURLWithPath: path)
        func file(_ name: String) throws -> String {
            try readText(dir.appendingPathComponent(name).path, what: "shard file")
        }
        func parse(_ text: String, _ name: String) throws -> JSONValue {
            do { return try JSONValue.parse(text) } catch {
                throw CLIError("\(path)/\(name): \(error)")
            }
        }
        let run = RunMembers(object: try parse(try file(runFile), runFile),
                             missing: { "\(path)/\(runFile) is not a shard's run.json: no \"\($0)\" (was the run given --shard K/N?)" },
                             notString: { "\(path)/\(runFile): \"\($0)\" must be a string" })
        func integer<T: FixedWidthInteger>(_ key: String, _: T.Type) throws -> T {
            if let v = try run.value(key).integer(T.self) { return v }
            throw CLIError("\(path)/\(runFile): \"\(key)\" must be an integer")
        }
        let index = try integer("shardIndex", Int.self), count = try integer("shardCount", Int.self)
        guard (1 ... Shard.maxCount).contains(count), (1 ... count).contains(index) else {
            throw CLIError("\(path)/\(runFile): shard \(index)/\(count) is out of range")
        }
        let shard = Shard(index: index, count: count)
        let games = try integer("games", Int.self)
        guard games >= 0 else { throw CLIError("\(path)/\(runFile): games \(games) must not be negative") }
        var records: [(index: Int, record: JSONValue)] = []
        for (n, line) in try file(recordsFile).split(separator: "\n").enumerated() {
            let value = try parse(String(line), "\(recordsFile) line \(n + 1)")
            guard case let .object(m) = value, let g = m.first(where: { $0.0 == "index" })?.1.integer(Int.self),
                  let r = m.first(where: { $0.0 == "record" })?.1 else {
                throw CLIError("\(path)/\(recordsFile) line \(n + 1): expected {\"index\": N, \"record\": ...}")
            }
            records.append((g, r))
        }
        let range = shard.range(of: games)
        guard records.map(\.index) == Array(range) else {
            throw CLIError("\(path)/\(recordsFile) holds \(records.count) games; shard \(shard) of \(games) games must hold games \(range.lowerBound) ..< \(range.upperBound) in order (interrupted run?)")
        }
        var seconds = 0.0, workers = 0
        if let text = try? file(timingFile), case let .object(m) = try parse(text, timingFile) {
            seconds = m.first(where: { $0.0 == "wallSeconds" })?.1.double ?? 0
            workers = m.first(where: { $0.0 == "workers" })?.1.integer(Int.self) ?? 0
        }
        return ShardFolder(path: path, subcommand: try run.string("subcommand"), version: try run.string("version"),
                           game: try run.string("game"), seed: try integer("seed", UInt64.self),
                           configHash: try run.string("configHash"), shard: shard, games: games,
                           parameters: try run.value("parameters"), configText: try file("config.json"),
                           records: records, wallSeconds: seconds, workers: workers)
    }

    /// Reads and checks shard folders for one merge: same subcommand, game,
    /// code version, seed, config, game count and parameters, and every
    /// shard `1 ... N` exactly once. Returns them in shard order.
    static func readAll(_ paths: [String]) throws -> [ShardFolder] {
        guard !paths.isEmpty else { throw CLIError("merge needs at least one shard folder") }
        let shards = try paths.map(read)
        let first = shards[0]
        for s in shards.dropFirst() {
            func differ(_ what: String, _ a: String, _ b: String) -> CLIError {
                CLIError("cannot merge: \(s.path) has \(what) \(b), \(first.path) has \(a); shards must come from one run")
            }
            if s.subcommand != first.subcommand { throw differ("subcommand", first.subcommand, s.subcommand) }
            if s.version != first.version { throw differ("code version", first.version, s.version) }
            if s.game != first.game { throw differ("game", first.game, s.game) }
            if s.seed != first.seed { throw differ("seed", String(first.seed), String(s.seed)) }
            if s.configHash != first.configHash || s.configText != first.configText {
                throw differ("config hash", first.configHash, s.configHash)
            }
            if s.shard.count != first.shard.count {
                throw differ("shard count", String(first.shard.count), String(s.shard.count))
            }
            if s.games != first.games { throw differ("game count", String(first.games), String(s.games)) }
            if s.parameters != first.parameters {
                throw differ("parameters", first.parameters.serialized(pretty: false), s.parameters.serialized(pretty: false))
            }
        }
        var byIndex = [String?](repeating: nil, count: first.shard.count + 1)
        for s in shards {
            if let other = byIndex[s.shard.index] {
                throw CLIError("cannot merge: shard \(s.shard) is given twice (\(other) and \(s.path))")
            }
            byIndex[s.shard.index] = s.path
        }
        let missing = (1 ... first.shard.count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            throw CLIError("cannot merge: missing shard\(missing.count > 1 ? "s" : "") \(missing.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")) of the run")
        }
        return shards.sorted { $0.shard.index < $1.shard.index }
    }

    /// The game's config, decoded from the shard's config.json.
    func config<C: GameConfig>(_: C.Type) throws -> C {
        try C.decode(configText, source: "\(path)/config.json")
    }

    /// The members of `parameters`.
    var parameterMembers: RunMembers {
        RunMembers(object: parameters, missing: { "\(path)/\(ShardFolder.runFile): parameters lack \"\($0)\"" },
                   notString: { "\(path)/\(ShardFolder.runFile): parameter \"\($0)\" must be a string" })
    }

    /// A member of `parameters`.
    func parameter(_ key: String) throws -> JSONValue { try parameterMembers.value(key) }

    /// A string member of `parameters`.
    func stringParameter(_ key: String) throws -> String { try parameterMembers.string(key) }

    /// An integer member of `parameters`.
    func intParameter(_ key: String) throws -> Int {
        if let v = try parameter(key).integer(Int.self) { return v }
        throw CLIError("\(path)/\(ShardFolder.runFile): parameter \"\(key)\" must be an integer")
    }
}

/// The members of one object of a shard's run.json; each failure is one
/// error line naming the file and the key.
struct RunMembers {
    var object: JSONValue
    /// The error line for a missing key, and for a key whose value is not a string.
    var missing: (String) -> String, notString: (String) -> String

    func value(_ key: String) throws -> JSONValue {
        if let v = object[key] { return v }
        throw CLIError(missing(key))
    }

    func string(_ key: String) throws -> String {
        if case let .string(s) = try value(key) { return s }
        throw CLIError(notString(key))
    }
}

extension Array where Element == ShardFolder {
    /// Every shard's records in global index order (the shards are in shard order).
    var records: [JSONValue] { flatMap { $0.records.map(\.record) } }

    /// The merged timing.json: the shards' wall times summed, and each shard's.
    var timingJSON: String {
        ShardFolder.timingJSON(seconds: reduce(0) { $0 + $1.wallSeconds }, workers: map(\.workers).max() ?? 0,
                               shards: map { ($0.path, $0.wallSeconds, $0.workers) })
    }
}
