import Foundation
import Gym

/// Where `render` sends an episode's frames: an animated GIF and/or one PGM
/// file per kept frame, plus the results folder that holds the default GIF.
/// Shared by every game's render path.
struct EpisodeFrames {
    /// The run folder, when one is made: `--out` given, or no explicit file
    /// and not terminal-only.
    let folder: ResultsFolder?
    let gifPath: String?
    let pgm: String?
    /// Keep every `every`-th step.
    let every: Int
    private(set) var frame: GrayFrame
    private var encoder: GIFEncoder?
    private var written = 0

    init(options render: Render, game: String, frame: GrayFrame) throws {
        let wantsFile = render.gif != nil || render.pgm != nil || !render.terminal
        let makeFolder = wantsFile && (render.gif == nil || render.pgm == nil) && render.output.out != nil
            || (wantsFile && render.gif == nil && render.pgm == nil)
        folder = makeFolder
            ? try ResultsFolder.create(render.output, command: "render", game: game, seed: render.game.seed) : nil
        gifPath = render.gif
            ?? (render.pgm == nil ? folder?.url.appendingPathComponent("episode.gif").path : nil)
        pgm = render.pgm
        every = render.every
        self.frame = frame
        encoder = gifPath.map { _ in
            GIFEncoder(width: frame.width, height: frame.height, delay: UInt16(max(1, min(100, render.every * 100 / 60))))
        }
        if let pgm {
            do { try FileManager.default.createDirectory(atPath: pgm, withIntermediateDirectories: true) } catch {
                throw CLIError("cannot create PGM folder \(pgm): \(error.localizedDescription)")
            }
        }
    }

    /// Called once per step: on every `every`-th step, `draw` fills the
    /// frame, which goes to the GIF and/or a PGM file.
    mutating func capture(step: Int, draw: (inout GrayFrame) -> Void) throws {
        guard step % every == 0 else { return }
        draw(&frame)
        encoder?.add(frame)
        if let pgm {
            try AtomicFile.write(PGM.encode(frame),
                                 to: URL(fileURLWithPath: pgm).appendingPathComponent(String(format: "frame-%06d.pgm", written)))
        }
        written += 1
    }

    /// Writes the GIF (whole, atomically) and says what was written.
    func finish() throws {
        if let encoder, let gifPath {
            try AtomicFile.write(Data(encoder.data), to: URL(fileURLWithPath: gifPath))
            print("wrote \(gifPath) (\(encoder.frameCount) frames, \(frame.width)×\(frame.height))")
        }
        if let pgm { print("wrote \(written) PGM frames to \(pgm)") }
    }
}
