import ArgumentParser
import Foundation

/// `--replay` and `--index` of `render`: which recorded game to play again,
/// and the lookup of its record line.
struct ReplayOptions: ParsableArguments {
    @Option(help: "Replay a recorded game: a matches.jsonl file (with --index) or one JSON record line.")
    var replay: String?

    @Option(help: "With --replay FILE: the record's line number, from 0.")
    var index: Int = 0

    @Flag(help: "Start the programs of external agents (process:...) named in the record; without it they are refused.")
    var allowAgentPrograms = false

    /// The text of the record line `--replay` names, and a name for errors.
    func recordLine(_ argument: String) throws -> (line: String, source: String) {
        if argument.hasPrefix("{") { return (argument, "--replay") }
        let text = try readText(argument, what: "match file")
        var k = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if k == index { return (String(line), "\(argument):\(index)") }
            k += 1
        }
        throw CLIError("--index \(index) is out of range for \(argument); allowed: 0 ... \(max(0, k - 1)) (\(k) records)")
    }

    /// The record line `--replay` names and the game it is of, nil without `--replay`.
    func replayLine() throws -> (line: String, source: String, game: GameKind)? {
        guard let replay else { return nil }
        let (line, source) = try recordLine(replay)
        let kind = GameKind.allCases.first { line.contains("\"game\":\"\($0.rawValue)\"") } ?? .pong
        return (line, source, kind)
    }
}
