import Foundation
import Testing

@Suite struct RenderCommandTests {
    @Test func renderWritesAGIFAndPGMFrames() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("e.gif"), pgm = dir.appendingPathComponent("frames")
        let r = try CLI.run(["render", "--max-steps", "40", "--every", "10", "--gif", gif.path, "--pgm", pgm.path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: gif)
        #expect(data.prefix(6) == Data("GIF89a".utf8))
        #expect(data.last == 0x3B)
        #expect(CLI.files(in: pgm) == (0 ..< 5).map { String(format: "frame-%06d.pgm", $0) })
    }

    @Test func renderReplaysTheEvaluatedEpisode() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("eval")
        let e = try CLI.run(["eval", "--agent", "tracker:noise=1", "--opponent", "random", "--episodes", "4", "--seed", "9", "--out", out.path])
        #expect(e.status == 0)
        let rows = try String(contentsOf: out.appendingPathComponent("episodes.csv"), encoding: .utf8).split(separator: "\n")
        let fields = rows[4].split(separator: ",")   // episode 3: agent on top
        let r = try CLI.run(["render", "--agent", "tracker:noise=1", "--opponent", "random", "--seed", "9", "--episode", "3",
                             "--max-steps", "0", "--gif", dir.appendingPathComponent("x.gif").path, "--every", "50"])
        #expect(r.status == 0, "\(r.stderr)")
        // bottom-top score printed by render: agent was top on an odd episode.
        #expect(r.stdout.contains("[bottom] \(fields[4])-\(fields[3]) "), "\(r.stdout) vs \(rows[4])")
        #expect(r.stdout.contains("after \(fields[5]) steps"), "\(r.stdout) vs \(rows[4])")
    }

    @Test func renderBreakoutWritesAGif() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("b.gif")
        let r = try CLI.run(["render", "--game", "breakout", "--max-steps", "120", "--gif", gif.path])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: gif)
        #expect(data.starts(with: Array("GIF89a".utf8)))
        #expect(r.stdout.contains("episode 0"))
    }
}
