import Foundation
import Agents
import Gym

/// A run's output folder under Results/, held by one run at a time.
///
/// A run takes its folder before it writes into it: it locks the folder
/// (`flock` on the open folder, released by the kernel when the process
/// ends, however it ends), so of several runs into one folder one proceeds
/// and the others stop with one line. A new or empty folder is then marked
/// as a results folder (the empty file ``markerName``, which stays); a
/// marked folder is refused to a fresh run unless it resumes the run
/// (``Mode/resume``) or replaces it (``Mode/overwrite``, which clears only
/// a marked folder), and a folder neither empty nor marked (someone's
/// files, the working folder) is never written.
///
/// Every file is written whole or not at all (``AtomicFile``), so an
/// interrupted run never leaves a half-written result; the temp files a
/// killed run leaves are removed when the folder is next resumed (or
/// cleared by an overwrite).
struct ResultsFolder {
    let url: URL
    /// The folder's lock (released when the last copy of this value goes away).
    private let claim: Claim

    /// A claimed folder; external agents started from now on log their
    /// standard error to its `agents/` folder.
    private init(url: URL, claim: Claim) {
        self.url = url
        self.claim = claim
        AgentLogs.use(folder: url.path)
    }

    /// An open, `flock`ed folder; closing it releases the lock. A run that
    /// ends before writing anything (bad input found after the claim) takes
    /// back what the claim made: the marker, and the folders it created.
    private final class Claim {
        let fd: Int32
        let folder: String
        /// Whether this claim made the marker, and the topmost folder it created.
        var madeMarker = false
        var createdRoot: String?

        init(fd: Int32, folder: String) {
            self.fd = fd
            self.folder = folder
        }

        deinit {
            if madeMarker, (try? FileManager.default.contentsOfDirectory(atPath: folder)) == [ResultsFolder.markerName] {
                unlink(folder + "/" + ResultsFolder.markerName)
                var dir = URL(fileURLWithPath: folder)
                while let root = createdRoot, rmdir(dir.path) == 0, dir.path != root {
                    dir.deleteLastPathComponent()
                }
            }
            close(fd)
        }
    }

    /// How a run takes its folder.
    enum Mode: Equatable {
        /// A new or empty folder; a used one is refused.
        case fresh
        /// `--overwrite`: a used folder's old results are removed first.
        case overwrite
        /// `--resume`: the folder must exist; its results are kept.
        case resume
    }

    /// The marker file that makes a folder a results folder and carries its lock.
    static let markerName = ".gym-train-folder"

    /// The folder of a run with `output`'s `--out` and `--overwrite`, or
    /// `Results/<command>-<game>-<UTC time>-s<seed>` (with a numeric suffix
    /// if that exists already) when no `--out` is given.
    static func create(_ output: OutputOptions, command: String, game: String, seed: UInt64) throws -> ResultsFolder {
        try create(out: output.out, mode: output.overwrite ? .overwrite : .fresh, command: command, game: game, seed: seed)
    }

    /// The folder `out` taken as `mode` says, or a new default folder when `out` is nil.
    static func create(out: String?, mode: Mode, command: String, game: String, seed: UInt64) throws -> ResultsFolder {
        if let out { return try claim(out, mode: mode) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "Results/\(command)-\(game)-\(formatter.string(from: Date()))-s\(seed)"
        let parentMissing = firstMissing(URL(fileURLWithPath: base).deletingLastPathComponent().path)
        try makeParent(of: base)
        var path = base
        var k = 2
        // mkdir(2) is the claim of a new name: of two runs started in the same second, each gets its own folder.
        while mkdir(path, 0o755) != 0 {
            guard errno == EEXIST else { throw CLIError("cannot create results folder \(path): \(String(cString: strerror(errno)))") }
            path = "\(base)-\(k)"
            k += 1
        }
        return try claim(path, mode: .fresh, createdRoot: parentMissing ?? URL(fileURLWithPath: path).path)
    }

    /// Claims the folder at `path` for this run (see the type's rules); one
    /// clear error when it cannot be had.
    static func claim(_ path: String, mode: Mode, createdRoot: String? = nil) throws -> ResultsFolder {
        guard !path.isEmpty else { throw CLIError(OutputOptions.emptyOutMessage) }
        let url = URL(fileURLWithPath: path)
        let shown = url.path
        var isFolder: ObjCBool = false
        var created = createdRoot
        if FileManager.default.fileExists(atPath: shown, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CLIError("results folder \(shown) exists and is not a folder; give a folder path") }
        } else if mode == .resume {
            throw CLIError("cannot resume \(shown): no such folder")
        } else {
            created = firstMissing(shown)
            try makeParent(of: shown)
            if mkdir(shown, 0o755) != 0 {
                guard errno == EEXIST else {
                    throw CLIError("cannot create results folder \(shown): \(String(cString: strerror(errno)))")
                }
                created = nil   // made by another run meanwhile: not ours to take back
            }
        }
        // The lock first: of several runs into one folder, one holds it and the others stop here.
        let claim = try lock(shown)
        claim.createdRoot = created
        if mode == .resume {
            removeStaleTemps(in: url)
            return ResultsFolder(url: url, claim: claim)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: shown)) ?? []
        if entries.isEmpty {
            // A new or empty folder becomes a results folder: the marker says so from now on.
            let fd = open(url.appendingPathComponent(markerName).path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw CLIError("cannot claim results folder \(shown): \(String(cString: strerror(errno)))") }
            close(fd)
            claim.madeMarker = true
            return ResultsFolder(url: url, claim: claim)
        }
        guard entries.contains(markerName) else {
            throw CLIError("results folder \(shown) is not empty and holds no gym-train results (no \(markerName)); "
                + "give a new or empty folder" + (mode == .overwrite ? " (--overwrite replaces only a gym-train results folder)" : ""))
        }
        guard mode == .overwrite else {
            throw CLIError("results folder \(shown) already holds an earlier run's results; give a new folder, or --overwrite "
                + "to replace them (train: --resume \(shown) continues that run)")
        }
        try clear(url)
        return ResultsFolder(url: url, claim: claim)
    }

    /// Takes the folder's lock: `flock` on the open folder itself, held until
    /// the folder value goes away or the process ends, however it ends (the
    /// kernel releases it then).
    private static func lock(_ folder: String) throws -> Claim {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError("cannot open results folder \(folder): \(String(cString: strerror(errno)))") }
        let claim = Claim(fd: fd, folder: folder)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw CLIError("results folder \(folder) is in use by another gym-train run; wait for it to end or give another folder")
        }
        return claim
    }

    /// `--overwrite`: removes everything in the (locked) folder but its marker.
    /// A nested results folder another run holds is refused, not removed.
    private static func clear(_ url: URL) throws {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != markerName }
        for name in names {
            let fd = open(url.appendingPathComponent(name).path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                throw CLIError("cannot overwrite \(url.path): \(url.appendingPathComponent(name).path) is in use by another gym-train run")
            }
        }
        for name in names {
            do { try fm.removeItem(at: url.appendingPathComponent(name)) } catch {
                throw CLIError("cannot overwrite \(url.path): cannot remove \(name): \(error.localizedDescription)")
            }
        }
    }

    /// Removes the temp files of ``AtomicFile`` that a killed run left in the
    /// (locked) folder and its subfolders, except nested results folders.
    private static func removeStaleTemps(in url: URL) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: url.path)) ?? [] {
            let item = url.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: item.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if !fm.fileExists(atPath: item.appendingPathComponent(markerName).path) { removeStaleTemps(in: item) }
            } else if AtomicFile.isTemp(name) {
                try? fm.removeItem(at: item)
            }
        }
    }

    /// The topmost folder of `path` (itself included) that does not exist yet, if any.
    private static func firstMissing(_ path: String) -> String? {
        var url = URL(fileURLWithPath: path)
        var missing: String?
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing = url.path
            url.deleteLastPathComponent()
        }
        return missing
    }

    private static func makeParent(of path: String) throws {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
            throw CLIError("cannot create results folder \(path): \(error.localizedDescription)")
        }
    }

    var path: String { url.path }

    func write(_ text: String, to name: String) throws {
        try AtomicFile.write(Data(text.utf8), to: url.appendingPathComponent(name))
    }

    func write(_ data: Data, to name: String) throws {
        try AtomicFile.write(data, to: url.appendingPathComponent(name))
    }

    /// The run's provenance: command line, version, seed, game and config hash.
    func writeRunInfo<C: GameConfig>(command: String, seed: UInt64, config: C, extra: [(String, JSONValue)] = []) throws {
        var members: [(String, JSONValue)] = [
            ("command", .string(CommandLine.arguments.joined(separator: " "))),
            ("subcommand", .string(command)),
            ("version", .string(GymTrainVersion.string)),
            ("game", .string(C.gameName)),
            ("seed", .number(seed)),
            ("configHash", .string(String(config.configHash, radix: 16))),
        ]
        members += extra
        try write(JSONValue.object(members).serialized() + "\n", to: "run.json")
        try write(config.json.serialized() + "\n", to: "config.json")
    }
}

/// Whole-file writes: temp file `.<name>.<pid>.tmp` in the same folder, then
/// rename(2), which replaces the target atomically.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temp)
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw CLIError("cannot write \(url.path): \(error.localizedDescription)")
        }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temp)
            throw CLIError("cannot write \(url.path): \(reason)")
        }
    }

    /// Whether `name` is one of ``write(_:to:)``'s temp files.
    static func isTemp(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = parts.last else { return false }
        return !pid.isEmpty && pid.allSatisfy(\.isASCII) && pid.allSatisfy(\.isNumber)
    }
}
