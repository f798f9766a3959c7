#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pixel observations of every game of a ``BreakoutBatch`` at one size,
/// keeping each game's wall image: the wall (background and bricks)
/// changes only when a brick does, so a frame is the game's wall image
/// copied in, then the paddle and balls drawn over it. The wall is redrawn
/// when the game's brick grid differs from the one it was drawn from.
/// The images are the same as ``PixelObservation/render(_:bricks:config:layout:into:)``'s.
///
/// It holds one image per game (`count × size.byteCount` bytes, as much
/// as the pixel observations of every game), so it is made for a batch's
/// pixel observations, not for one picture of one game (draw that whole
/// with ``BreakoutBatch/render(_:layout:into:)``). Its memory comes from
/// `malloc`, so a size the machine cannot hold makes `init` return nil
/// instead of stopping the process.
public final class BreakoutPixelRenderer {
    public let layout: BreakoutPixelLayout
    let count: Int, cells: Int, bytes: Int
    /// `count` wall images, the `count` grids they were drawn from, and
    /// whether each game's image is drawn (one allocation, freed in deinit).
    let walls: UnsafeMutablePointer<UInt8>, grids: UnsafeMutablePointer<UInt8>, drawn: UnsafeMutablePointer<Bool>

    /// A renderer for `count` games of `config` at `size`, or nil when its
    /// ``byteCount(config:count:size:)`` bytes cannot be allocated.
    public init?(config: BreakoutConfig, count: Int, size: PixelObservation) {
        let cells = config.brickRows * config.brickColumns
        guard count >= 0, let total = Self.byteCount(config: config, count: count, size: size),
              let raw = malloc(max(1, total)) else { return nil }
        layout = BreakoutPixelLayout(config: config, size: size)
        self.count = count
        self.cells = cells
        bytes = size.byteCount
        walls = raw.bindMemory(to: UInt8.self, capacity: count * bytes)
        grids = (raw + count * bytes).bindMemory(to: UInt8.self, capacity: count * cells)
        drawn = (raw + count * (bytes + cells)).bindMemory(to: Bool.self, capacity: count)
        drawn.initialize(repeating: false, count: count)
    }

    deinit { free(walls) }

    /// Bytes a renderer for `count` games of `config` at `size` holds: an
    /// image and a grid per game plus a flag; nil when that overflows `Int`.
    public static func byteCount(config: BreakoutConfig, count: Int, size: PixelObservation) -> Int? {
        let perGame = size.byteCount + config.brickRows * config.brickColumns + 1
        let (total, overflow) = count.multipliedReportingOverflow(by: perGame)
        return overflow ? nil : total
    }

    /// Draws game `i` of `batch` (a batch of this renderer's config and
    /// count) into `out` (`layout.size.byteCount` bytes).
    public func render(_ batch: BreakoutBatch, _ i: Int, into out: UnsafeMutablePointer<UInt8>) {
        precondition(i >= 0 && i < count && batch.count == count && batch.cellCount == cells,
                     "the renderer is for another batch")
        let size = layout.size
        let grid = batch.grid(i), wall = walls + i * bytes, seen = grids + i * cells
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
        size.renderMovers(batch.core(i), config: batch.rules(i), into: out)
    }
}
