/// Pixel observations of every game of a ``BreakoutBatch`` at one size,
/// keeping each game's wall image: the wall (background and bricks)
/// changes only when a brick does, so a frame is the game's wall image
/// copied in, then the paddle and balls drawn over it. The wall is redrawn
/// when the game's brick grid differs from the one it was drawn from.
/// The images are the same as ``PixelObservation/render(_:bricks:config:layout:into:)``'s.
public final class BreakoutPixelRenderer {
    public let layout: BreakoutPixelLayout
    let count: Int, cells: Int, bytes: Int
    /// `count` wall images and the `count` grids they were drawn from.
    var walls: [UInt8]
    var grids: [UInt8]
    var drawn: [Bool]

    public init(config: BreakoutConfig, count: Int, size: PixelObservation) {
        layout = BreakoutPixelLayout(config: config, size: size)
        self.count = count
        cells = config.brickRows * config.brickColumns
        bytes = size.byteCount
        walls = [UInt8](repeating: 0, count: count * bytes)
        grids = [UInt8](repeating: 0, count: count * cells)
        drawn = [Bool](repeating: false, count: count)
    }

    /// Draws game `i` of `batch` (a batch of this renderer's config and
    /// count) into `out` (`layout.size.byteCount` bytes).
    public func render(_ batch: BreakoutBatch, _ i: Int, into out: UnsafeMutablePointer<UInt8>) {
        precondition(i >= 0 && i < count && batch.count == count && batch.cellCount == cells,
                     "the renderer is for another batch")
        let size = layout.size, bytes = self.bytes, cells = self.cells
        let grid = batch.grid(i)
        walls.withUnsafeMutableBufferPointer { w in
            grids.withUnsafeMutableBufferPointer { g in
                guard let wall = w.baseAddress.map({ $0 + i * bytes }), let seen = g.baseAddress.map({ $0 + i * cells }) else { return }
                var same = drawn[i]
                if same {
                    for k in 0 ..< cells where seen[k] != grid[k] { same = false; break }
                }
                if !same {
                    size.renderWall(bricks: grid, layout: layout, into: wall)
                    seen.update(from: grid, count: cells)
                    drawn[i] = true
                }
                out.update(from: wall, count: bytes)
            }
        }
        size.renderMovers(batch.core(i), config: batch.physics.config, into: out)
    }
}
