import Foundation
import Gym

/// A run's output folder under Results/. Every file is written whole or not
/// at all (temp file, then rename), so an interrupted run never leaves a
/// half-written result.
struct ResultsFolder {
    let url: URL

    /// Creates `explicit`, or `Results/<command>-<game>-<UTC time>-s<seed>`
    /// (with a numeric suffix if that exists already).
    static func create(explicit: String?, command: String, game: String, seed: UInt64) throws -> ResultsFolder {
        let fm = FileManager.default
        var url: URL
        if let explicit {
            url = URL(fileURLWithPath: explicit)
        } else {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd-HHmmss"
            let base = "Results/\(command)-\(game)-\(formatter.string(from: Date()))-s\(seed)"
            url = URL(fileURLWithPath: base)
            var k = 2
            while fm.fileExists(atPath: url.path) {
                url = URL(fileURLWithPath: "\(base)-\(k)")
                k += 1
            }
        }
        do {
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create results folder \(url.path): \(error.localizedDescription)")
        }
        return ResultsFolder(url: url)
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

/// Whole-file writes: temp file in the same folder, then rename(2), which
/// replaces the target atomically.
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
}
