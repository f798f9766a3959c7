import Agents
import ArgumentParser
import Foundation
import Gym

/// `--resume DIR` of the commands whose games (or sweep cells) a journal records.
struct ResumeOptions: ParsableArguments {
    @Option(help: "Resume the run in this results folder (give the options it was started with): plays only the games its journal.jsonl has not recorded; the files end as an uninterrupted run's.")
    var resume: String?

    /// Test hook: after this many games recorded by this process, say
    /// "gym-train: holding at game N" on stderr and stop recording (every
    /// worker then waits for a signal), so a test can kill a run midway
    /// without timing it.
    @Option(help: .hidden) var holdAfterGames: Int?

    func validate() throws {
        if resume?.isEmpty == true { throw ValidationError("--resume '' is empty; allowed: the results folder of the run to resume") }
        if let holdAfterGames, holdAfterGames < 1 {
            throw ValidationError("--hold-after-games \(holdAfterGames) is out of range; allowed: 1 or more")
        }
    }

    /// The run's folder: the one `--resume` names, or a new one as `output` says.
    func folder(_ output: OutputOptions, command: String, game: String, seed: UInt64) throws -> ResultsFolder {
        guard let resume else { return try ResultsFolder.create(output, command: command, game: game, seed: seed) }
        if output.out != nil { throw CLIError("give either --resume DIR or --out DIR, not both") }
        if output.overwrite { throw CLIError("give either --resume DIR or --overwrite, not both (--resume keeps the run's results)") }
        return try ResultsFolder.claim(resume, mode: .resume)
    }
}

/// A run's journal (`journal.jsonl` in its results folder): what `--resume`
/// reads to play only the games not yet recorded.
///
/// Line 1 is `{"journal": 1, "run": {...}}`, the run's identity (everything
/// that decides its games and files: command, game, config hash, seed,
/// agents and their file hashes, sizes, version); every further line is
/// `{"index": g, "record": [...]}`, one finished game (or sweep cell), its
/// record's exact fields (``RecordFields``). A line is appended with one
/// write(2) as soon as its game ends, so a killed process loses no finished
/// game (a machine crash may lose the last lines, which are then played
/// again); a half-written last line is dropped on resume. The journal is
/// removed once the run has written its result files (``complete()``).
final class RunJournal: @unchecked Sendable {
    static let fileName = "journal.jsonl"
    static let version = 1

    /// The records found in the folder on resume, by index.
    let recorded: [Int: JSONValue]
    private let url: URL
    private let fd: Int32
    private let lock = NSLock()
    private let header: String
    private let holdAfter: Int?
    private var appended = 0
    /// Whether the run resumes (`--resume`).
    let resumed: Bool

    private init(url: URL, fd: Int32, header: String, recorded: [Int: JSONValue], holdAfter: Int?, resumed: Bool) {
        self.url = url; self.fd = fd; self.header = header; self.recorded = recorded; self.holdAfter = holdAfter
        self.resumed = resumed
    }

    deinit { close(fd) }

    /// Opens the journal of `folder` for a run with identity `run`: a new one
    /// for a fresh run; for `--resume`, the folder's, refused with one line
    /// when it belongs to another run (naming the first member that differs).
    static func open(_ folder: ResultsFolder, run: [(String, JSONValue)], options: ResumeOptions) throws -> RunJournal {
        let url = folder.url.appendingPathComponent(fileName)
        let header = JSONValue.object([("journal", .number(version)), ("run", .object(run))]).serialized(pretty: false) + "\n"
        var recorded: [Int: JSONValue] = [:]
        let fm = FileManager.default
        if options.resume != nil {
            guard fm.fileExists(atPath: folder.url.appendingPathComponent(ResultsFolder.markerName).path) else {
                throw CLIError("cannot resume \(folder.path): it is not a gym-train results folder (no \(ResultsFolder.markerName))")
            }
            if let data = fm.contents(atPath: url.path) {
                let kept: Int
                (recorded, kept) = try read(data, folder: folder.path, run: run)
                if kept < data.count { truncate(url.path, off_t(kept)) }
            } else {
                let others = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? [])
                    .filter { $0 != ResultsFolder.markerName && $0 != "agents" }
                guard others.isEmpty else {
                    throw CLIError("cannot resume \(folder.path): it holds no \(fileName): the run there finished (nothing is left to play), or it is not a tournament, eval or sweep run")
                }
                try AtomicFile.write(Data(header.utf8), to: url)
            }
        } else {
            try AtomicFile.write(Data(header.utf8), to: url)
        }
        let fd = Foundation.open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        return RunJournal(url: url, fd: fd, header: header, recorded: recorded, holdAfter: options.holdAfterGames,
                          resumed: options.resume != nil)
    }

    /// The records of a journal's bytes and how many bytes hold whole lines;
    /// a journal of another run is refused.
    static func read(_ data: Data, folder: String, run: [(String, JSONValue)]) throws -> ([Int: JSONValue], Int) {
        var records: [Int: JSONValue] = [:]
        var kept = 0, line = 0
        var start = data.startIndex
        let bytes = [UInt8](data)
        while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            line += 1
            let text = String(decoding: bytes[start ..< end], as: UTF8.self)
            start = end + 1
            let value = try? JSONValue.parse(text)
            if line == 1 {
                guard case let .object(m)? = value, let saved = m.first(where: { $0.0 == "run" })?.1,
                      case let .object(savedRun) = saved else {
                    throw CLIError("cannot resume \(folder): \(fileName) does not start with a run's identity")
                }
                try compare(savedRun, run, folder: folder)
            } else {
                guard case let .object(m)? = value, let g = m.first(where: { $0.0 == "index" })?.1.integer(Int.self),
                      let record = m.first(where: { $0.0 == "record" })?.1 else {
                    // Only the last line can be cut short by a kill; anything else is damage.
                    if start >= bytes.count { break }
                    throw CLIError("cannot resume \(folder): \(fileName) line \(line) is not a game record")
                }
                records[g] = record
            }
            kept = start
        }
        if line == 0 { throw CLIError("cannot resume \(folder): \(fileName) does not start with a run's identity") }
        return (records, kept)
    }

    /// One line naming the first member of the run's identity that differs.
    static func compare(_ saved: [(String, JSONValue)], _ run: [(String, JSONValue)], folder: String) throws {
        func shown(_ v: JSONValue?) -> String { v.map { $0.serialized(pretty: false) } ?? "none" }
        for key in run.map(\.0) + saved.map(\.0) {
            let a = saved.first { $0.0 == key }?.1, b = run.first { $0.0 == key }?.1
            if a.map({ $0.serialized(pretty: false) }) != b.map({ $0.serialized(pretty: false) }) {
                throw CLIError("cannot resume \(folder): it holds a run with \(key) \(shown(a)); this run has \(key) \(shown(b)) (resume with the options the run was started with)")
            }
        }
    }

    /// Records game `index` (from any worker thread): one line, one write(2).
    func append(_ index: Int, _ record: JSONValue) {
        let line = JSONValue.object([("index", .number(index)), ("record", record)]).serialized(pretty: false) + "\n"
        lock.lock()
        if let holdAfter, appended >= holdAfter {
            lock.unlock()
            // The test hook: nothing more is recorded; this worker waits for the signal that ends the process.
            while true { pause() }
        }
        let bytes = Array(line.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue } else { break } }
            written += n
        }
        appended += 1
        if let holdAfter, appended == holdAfter {
            FileHandle.standardError.write(Data("gym-train: holding at game \(appended)\n".utf8))
        }
        lock.unlock()
    }

    /// Removes the journal once every result file is written: a finished
    /// run's folder holds what an uninterrupted run's holds. (A kill before
    /// this leaves a journal with every record; resuming it plays nothing
    /// and writes the same files again.)
    func complete() throws {
        if unlink(url.path) != 0, errno != ENOENT {
            throw CLIError("cannot remove \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}

extension RunJournal {
    /// A run's identity (the journal's first line): what decides its games
    /// and files. Wall-clock, the worker count and the command line are not
    /// in it: a run may resume with other workers.
    static func identity<C: GameConfig>(subcommand: String, seed: UInt64, config: C, shard: Shard?,
                                        parameters: [(String, JSONValue)]) -> [(String, JSONValue)] {
        [("subcommand", .string(subcommand)), ("version", .string(GymTrainVersion.string)),
         ("game", .string(C.gameName)), ("seed", .number(seed)),
         ("configHash", .string(String(config.configHash, radix: 16))),
         ("shard", shard.map { .string($0.description) } ?? .null)] + parameters
    }

    /// The records of the games in `range` the journal holds (decoded by
    /// `decode`; one that does not decode is refused), and the indices still to play.
    func split<R>(_ range: Range<Int>, what: String, decode: (JSONValue) -> R?) throws -> (have: [Int: R], missing: [Int]) {
        let have = try records(in: range, what: what, decode: decode)
        return (have, range.filter { have[$0] == nil })
    }

    /// The records of the games in `range` the journal holds, decoded by `decode`.
    func records<R>(in range: Range<Int>, what: String, decode: (JSONValue) -> R?) throws -> [Int: R] {
        var have: [Int: R] = [:]
        for (g, value) in recorded where range.contains(g) {
            guard let r = decode(value) else {
                throw CLIError("cannot resume \(url.deletingLastPathComponent().path): \(Self.fileName) holds a malformed record of \(what) \(g)")
            }
            have[g] = r
        }
        return have
    }

    /// Every record of `range` in index order: the journal's (`have`) and
    /// those just played (`played[k]` is game `missing[k]`).
    static func merge<R>(_ range: Range<Int>, have: [Int: R], missing: [Int], played: [R]) throws -> [R] {
        var byIndex = have
        for (g, r) in zip(missing, played) { byIndex[g] = r }
        return try range.map { g in
            guard let r = byIndex[g] else { throw CLIError("game \(g) was neither recorded nor played") }
            return r
        }
    }

    /// On `--resume`, says on stderr what the journal held and what is left.
    func announce(recorded: Int, of total: Int, unit: String) {
        guard resumed else { return }
        FileHandle.standardError.write(Data(
            "gym-train: resuming \(url.deletingLastPathComponent().path): \(recorded) of \(total) \(unit) recorded, \(total - recorded) to play\n".utf8))
    }

    /// Whether the folder already holds run.json (a resumed run keeps it as the run's start wrote it).
    var hasRunInfo: Bool {
        FileManager.default.fileExists(atPath: url.deletingLastPathComponent().appendingPathComponent("run.json").path)
    }
}

