/// ``PongBatch``'s sticky actions for eight games at a time: a whole agent
/// step's draws in one pass over the games' own generators, then the
/// paddle moves of every frame, before any frame runs.
///
/// The draws do not depend on the games' motion: per frame, each running
/// game draws twice from its own sticky generator, bottom then top (as
/// ``PongPhysics/step(_:top:bottom:events:)`` does), whether its frame is
/// quiet or not. Only a game that ends inside the step (a side reaches
/// `maxScore`) stops drawing; such a game takes its generator again from
/// its columns (which hold it as it was before the step) and draws, one
/// game alone, the frames it played (``redrawSticky(_:frames:_:)``).
///
/// Then each frame's actions follow the reference's rule lane-wise: per
/// side, the previous frame's action as the state stores it (its byte)
/// where the frame's draw says keep, else the chosen action.
extension PongBatch {
    /// The sticky draws of every frame of a step of the games `i ..< i + 8`
    /// (all of them: the caller uses the lanes of the running games), as
    /// lane masks in ``frameKeeps`` (bottom at `2f`, top at `2f + 1` for
    /// frame `f`), the generators after them in ``drawnGenerators``. Four
    /// games at a time: their generators' state fills few registers.
    @inline(never)
    func drawKeeps(_ i: Int, frames: Int, _ sticky: Float) {
        let keeps = UnsafeMutableRawPointer(frameKeeps)
        let laneBytes = MemoryLayout<LaneInts>.stride
        let rotation = GeneratorLanes.Rotations(resultLeft: generatorRotations[0], resultRight: generatorRotations[1],
                                                stateLeft: generatorRotations[2], stateRight: generatorRotations[3])
        let scaled = sticky * 0x1p24
        for half in 0 ..< 2 {
            let k = i + 4 * half
            var g = GeneratorLanes(s0: Lane8.loadQuad(sticky0, k), s1: Lane8.loadQuad(sticky1, k),
                                   s2: Lane8.loadQuad(sticky2, k), s3: Lane8.loadQuad(sticky3, k))
            let halfKeeps = keeps + 16 * half
            // Draw d is frame d / 2's, bottom (even d) then top.
            for d in 0 ..< 2 * frames {
                halfKeeps.storeBytes(of: g.chance(scaled: scaled, rotation), toByteOffset: d * laneBytes, as: SIMD4<Int32>.self)
            }
            drawnGenerators[half] = g
        }
    }

    /// Every frame's actions (``frameActions``: bottom at `2f`, top at
    /// `2f + 1`) and paddle moves (``frameMoves``) of the games
    /// `i ..< i + 8` from the step's chosen actions, the actions stored from
    /// before the step (`oldB`, `oldT`) and the draws in ``frameKeeps``.
    @inline(never)
    func stickyFrames(_ i: Int, bottom: LaneInts, top: LaneInts, oldB: LaneInts, oldT: LaneInts, frames: Int,
                      _ p: PongPhysics) {
        var b = oldB, t = oldT
        for f in 0 ..< frames {
            b = bottom.replacing(with: b & 0xFF, where: unsafeBitCast(frameKeeps[2 * f], to: LaneMask.self))
            t = top.replacing(with: t & 0xFF, where: unsafeBitCast(frameKeeps[2 * f + 1], to: LaneMask.self))
            frameActions[2 * f] = b
            frameActions[2 * f + 1] = t
            frameMoves[f] = p.moves(bottom: Lane8.floats(b), top: Lane8.floats(t))
        }
    }

    /// Stores the drawn generators (``drawnGenerators``) of the games among
    /// `i ..< i + 8` that played the whole step (bit `j` of `played` for
    /// game `i + j`).
    @inline(__always)
    func storeDrawn(_ i: Int, played: UInt8) {
        for half in 0 ..< 2 {
            let k = i + 4 * half
            let g = drawnGenerators[half]
            let bits = played >> UInt8(4 * half) & 0xF
            if bits == 0xF {
                Lane8.storeQuad(g.s0, sticky0, k); Lane8.storeQuad(g.s1, sticky1, k)
                Lane8.storeQuad(g.s2, sticky2, k); Lane8.storeQuad(g.s3, sticky3, k)
            } else {
                for j in 0 ..< 4 where bits >> UInt8(j) & 1 != 0 {
                    sticky0[k + j] = g.s0[j]; sticky1[k + j] = g.s1[j]
                    sticky2[k + j] = g.s2[j]; sticky3[k + j] = g.s3[j]
                }
            }
        }
    }

    /// Game `i`'s sticky generator after the draws of `frames` frames (two
    /// each) from its state before the step, for a game that ended after
    /// those frames.
    @inline(never)
    func redrawSticky(_ i: Int, frames: Int, _ sticky: Float) {
        var g = stickyGenerator(i)
        for _ in 0 ..< 2 * frames { _ = g.chance(sticky) }
        setStickyGenerator(g, i)
    }
}
