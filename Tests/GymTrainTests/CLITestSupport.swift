import Foundation
import Testing

/// Runs the built `gym-train` binary (next to the test bundle) and captures
/// its output and exit status.
enum CLI {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return dir.appendingPathComponent("gym-train")
    }

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["CI"] = "1"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// A fresh empty folder for one test.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gym-train-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func files(in url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}

/// A `gym-train` process a test can stop at a known point: started with
/// `--hold-after N`, it says "holding at iteration N" on stderr and waits
/// for a signal.
final class HeldRun {
    private let process = Process()
    private let err = Pipe()
    private var seen = Data()

    init(_ arguments: [String], in directory: URL) throws {
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["CI"] = "1"
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
    }

    /// Reads stderr until the hold line (true) or its end (false: the run ended first).
    func waitForHold(_ marker: String = "gym-train: holding at iteration") -> Bool {
        while true {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            seen.append(chunk)
            if String(decoding: seen, as: UTF8.self).contains(marker) { return true }
        }
    }

    /// Sends `signal` and waits for the end; the exit status (128 + signal
    /// for a signal that killed it) and all of stderr.
    func stop(_ signal: Int32) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        seen.append(err.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: seen, as: UTF8.self))
    }
}

/// Slots written by concurrent closures.
final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [CLI.Output?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ value: CLI.Output?) {
        lock.lock()
        slots[k] = value
        lock.unlock()
    }
    var values: [CLI.Output?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
