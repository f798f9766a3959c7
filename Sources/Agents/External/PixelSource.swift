import Gym

/// Draws one game of a vector environment as a pixel observation from a
/// seat (``PixelObservation``'s images: Pong's top seat sees the field
/// rotated 180°, its own paddle at the bottom), for pixel agents.
struct PixelSource<Game: PlayableGame> {
    let draw: (_ slot: Int, _ seat: Int, _ out: UnsafeMutablePointer<UInt8>) -> Void

    /// Nil for a game whose vector has no pixel renderer here.
    init?(vector: Game.Vector, config: Game.Config, size: PixelObservation) {
        if let pong = vector as? PongBatch {
            draw = { slot, seat, out in pong.render(slot, size: size, rotated: seat == 1, into: out) }
        } else if let breakout = vector as? BreakoutBatch, let c = config as? BreakoutConfig {
            let layout = BreakoutPixelLayout(config: c, size: size)
            draw = { slot, _, out in breakout.render(slot, layout: layout, into: out) }
        } else {
            return nil
        }
    }

    func render(slot: Int, seat: Int, into out: UnsafeMutablePointer<UInt8>) { draw(slot, seat, out) }
}
