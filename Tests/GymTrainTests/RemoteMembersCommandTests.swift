import Foundation
import Testing

/// `train --remote-members` and `es-members`: the protocol `pbgym.distributed`
/// drives, here driven by the test itself. The population played in pieces by
/// other processes gives the weights `train` computes alone, bit for bit.
@Suite struct RemoteMembersCommandTests {
    static let config = """
    { "preset": "smoke", "opponent": "tracker:noise=0.5", "normalizeObservations": true, "population": 6, "seed": 4 }
    """

    /// Reads one line (without its newline) from `handle`; nil at end of file.
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let d = handle.readData(ofLength: 1)
            guard let b = d.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if b == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(b)
        }
    }

    @Test func piecesPlayedByOtherProcessesGiveTheWeightsOfTrain() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.config.utf8).write(to: dir.appendingPathComponent("train.json"))
        let whole = try CLI.run(["train", "--config", "train.json", "--out", "whole", "--workers", "2"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["train", "--config", "train.json", "--out", "remote", "--workers", "2", "--remote-members"]
        process.currentDirectoryURL = dir
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var requests = 0
        while let line = Self.readLine(output.fileHandleForReading) {
            guard line.hasPrefix("pbgym-es-request ") else { continue }
            let request = String(line.dropFirst("pbgym-es-request ".count))
            requests += 1
            // Pieces given out of order: they are joined in member order.
            var files: [String] = []
            for (first, end) in [(4, 6), (0, 1), (1, 4)] {
                let piece = dir.appendingPathComponent("piece-\(requests)-\(first).json").path
                let r = try CLI.run(["es-members", "--request", request, "--first", "\(first)", "--end", "\(end)",
                                     "--out", piece, "--workers", "1"], in: dir)
                #expect(r.status == 0, "\(r.stderr)")
                files.append("\"\(piece)\"")
            }
            input.fileHandleForWriting.write(Data(("[" + files.joined(separator: ",") + "]\n").utf8))
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(requests == 4)
        for name in ["policy.json", "best.json", "checkpoints/iteration-000002.json", "checkpoints/iteration-000004.json"] {
            let a = try Data(contentsOf: dir.appendingPathComponent("whole/" + name))
            let b = try Data(contentsOf: dir.appendingPathComponent("remote/" + name))
            #expect(!a.isEmpty && a == b, "\(name) differs from train's")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("remote/es-request.json").path))
    }

    @Test func badPiecesAndRequestsGiveOneClearLine() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.config.utf8).write(to: dir.appendingPathComponent("train.json"))
        func oneLine(_ r: CLI.Output, _ expected: String) {
            #expect(r.status != 0)
            #expect(r.stderr.contains(expected), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        // Stdin at its end: the service went away; the run stops as when interrupted, resumable.
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["train", "--config", "train.json", "--out", "run", "--remote-members"]
        process.currentDirectoryURL = dir
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        #expect(stderr.contains("the member service closed stdin: checkpoint and metrics written at iteration 0"), "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/checkpoint.json").path))

        let request = dir.appendingPathComponent("run/es-request.json").path
        oneLine(try CLI.run(["es-members", "--request", request, "--first", "4", "--end", "9", "--out", "p.json"], in: dir),
                "members 4 ..< 9 are out of range; allowed: a non-empty range within 0 ..< 6")
        oneLine(try CLI.run(["es-members", "--request", "train.json", "--first", "0", "--end", "1", "--out", "p.json"],
                            in: dir), "is not an es-request file")
        try Data("{\"preset\": \"smoke\", \"trainer\": \"reinforce\"}".utf8).write(to: dir.appendingPathComponent("r.json"))
        oneLine(try CLI.run(["train", "--config", "r.json", "--out", "r", "--remote-members"], in: dir),
                "trainer \"reinforce\" does not play a population; only \"es\" can be trained in pieces")
    }
}
