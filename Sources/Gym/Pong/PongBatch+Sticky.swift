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
/// Within a step each frame's action of a side is one of three: the action
/// stored from before the step (kept while every draw so far said keep),
/// the chosen action (a draw said not to keep it), or, kept after that,
/// the chosen action's byte as the state stores it (the same action unless
/// the chosen one is outside a byte). The moves of those three are
/// computed once per step and selected lane-wise per frame.
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

    /// Every frame's paddle moves (``frameMoves``) of the games `i ..< i + 8`
    /// from the step's chosen actions, the actions stored from before the
    /// step (`old`) and the draws in ``frameKeeps``.
    /// - Returns: the lanes whose bottom and whose top side kept their old
    ///   action in every frame (the others end the step with the chosen
    ///   action's byte as their last action).
    @inline(never)
    func stickyFrames(_ i: Int, bottom: LaneInts, top: LaneInts, oldB: LaneInts, oldT: LaneInts, frames: Int,
                      _ p: PongPhysics) -> (bottom: LaneMask, top: LaneMask) {
        let mOld = p.moves(bottom: Lane8.floats(oldB), top: Lane8.floats(oldT))
        let mChosen = p.moves(bottom: Lane8.floats(bottom), top: Lane8.floats(top))
        // The chosen actions' bytes are the chosen actions unless some
        // action is outside a byte (then it acts as stay, its byte may not).
        let wide = (unsafeBitCast(bottom, to: SIMD8<UInt32>.self) | unsafeBitCast(top, to: SIMD8<UInt32>.self)).max() > 0xFF
        let mByte = wide ? p.moves(bottom: Lane8.floats(bottom & 0xFF), top: Lane8.floats(top & 0xFF)) : mChosen
        // Without vertical movement the vertical moves are zero whatever the action.
        let vertical = p.vSpeed != 0
        // Lanes in which every draw so far has said keep (the old action
        // still holds; once a draw says not to keep, a kept action is the
        // chosen action's byte).
        var stillB = LaneMask(repeating: true), stillT = LaneMask(repeating: true)
        for f in 0 ..< frames {
            let keepB = unsafeBitCast(frameKeeps[2 * f], to: LaneMask.self)
            let keepT = unsafeBitCast(frameKeeps[2 * f + 1], to: LaneMask.self)
            stillB = stillB .& keepB
            stillT = stillT .& keepT
            var m = mChosen
            if wide {
                m.bx.replace(with: mByte.bx, where: keepB); m.tx.replace(with: mByte.tx, where: keepT)
                if vertical { m.by.replace(with: mByte.by, where: keepB); m.ty.replace(with: mByte.ty, where: keepT) }
            }
            m.bx.replace(with: mOld.bx, where: stillB); m.tx.replace(with: mOld.tx, where: stillT)
            if vertical { m.by.replace(with: mOld.by, where: stillB); m.ty.replace(with: mOld.ty, where: stillT) }
            frameMoves[f] = m
        }
        return (stillB, stillT)
    }

    /// The actions of frame `frame` of the games `i ..< i + 8` in a sticky
    /// step (as ``stickyFrames(_:bottom:top:oldB:oldT:frames:_:)`` moves
    /// them): the old action while every draw has said keep, the chosen
    /// action in a frame whose draw says not to keep, its byte when kept
    /// after that. Only for frames that go through the columns (a busy game).
    @inline(never)
    func stickyActions(_ i: Int, frame: Int, bottom: LaneInts, top: LaneInts, oldB: LaneInts, oldT: LaneInts)
        -> (bottom: LaneInts, top: LaneInts) {
        var stillB = LaneMask(repeating: true), stillT = LaneMask(repeating: true)
        var keepB = stillB, keepT = stillT
        for f in 0 ... frame {
            keepB = unsafeBitCast(frameKeeps[2 * f], to: LaneMask.self)
            keepT = unsafeBitCast(frameKeeps[2 * f + 1], to: LaneMask.self)
            stillB = stillB .& keepB
            stillT = stillT .& keepT
        }
        return (bottom.replacing(with: bottom & 0xFF, where: keepB).replacing(with: oldB, where: stillB),
                top.replacing(with: top & 0xFF, where: keepT).replacing(with: oldT, where: stillT))
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
