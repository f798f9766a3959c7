/// ``PongBatch``'s sticky actions for eight games at a time: a whole agent
/// step's draws before any frame runs. The draws do not depend on the
/// games' motion: per frame, each running game makes ``PongPhysics/stickyActions(_:chosen:last:scaled:_:)``'s
/// two draws from its own generator, quiet frame or not. Only a game that
/// ends inside the step (a side reaches `maxScore`) stops drawing: it draws
/// again, alone, from its generator as the columns hold it (as before the
/// step), for the frames it played (``redrawSticky(_:frames:_:)``).
extension PongBatch {
    /// Every frame's actions of a step of the games `i ..< i + 8` (all of
    /// them: the caller uses the lanes of the running games) in
    /// ``frameActions`` (bottom at `2f`, top at `2f + 1` for frame `f`),
    /// from the chosen actions and the last ones stored before the step, and
    /// their paddle moves in ``frameMoves``; the generators after the draws
    /// in ``drawnGenerators``. Four games at a time (``GeneratorLanes``).
    @inline(never)
    func drawActions<K: PongRuleValues>(_ i: Int, bottom: LaneInts, top: LaneInts, frames: Int, _ sticky: Float,
                                        _ p: PongPhysics, _ k: K) where K.L == Lanes {
        let actions = UnsafeMutableRawPointer(frameActions.base)
        let laneBytes = MemoryLayout<LaneInts>.stride
        let rotation = generatorRotations[0]
        let lastB = Lane8.widen(Lane8.load(lastActionBottom, i)), lastT = Lane8.widen(Lane8.load(lastActionTop, i))
        for half in 0 ..< 2 {
            let k = i + 4 * half
            var g = stickyRNG.lanes(k)
            let chosen = half == 0 ? (bottom.lowHalf, top.lowHalf) : (bottom.highHalf, top.highHalf)
            var last = half == 0 ? (lastB.lowHalf, lastT.lowHalf) : (lastB.highHalf, lastT.highHalf)
            for f in 0 ..< frames {
                last = PongPhysics.stickyActions(&g, chosen: chosen, last: last, scaled: sticky * 0x1p24, rotation)
                actions.storeBytes(of: last.0, toByteOffset: 2 * f * laneBytes + 16 * half, as: SIMD4<Int32>.self)
                actions.storeBytes(of: last.1, toByteOffset: (2 * f + 1) * laneBytes + 16 * half, as: SIMD4<Int32>.self)
            }
            drawnGenerators[half] = g
        }
        for f in 0 ..< frames {
            frameMoves[f] = p.moves(bottom: Lane8.floats(frameActions[2 * f]), top: Lane8.floats(frameActions[2 * f + 1]), k)
        }
    }

    /// Stores the drawn generators (``drawnGenerators``) of the games among
    /// `i ..< i + 8` that played the whole step (bit `j` of `played` for
    /// game `i + j`).
    @inline(__always)
    func storeDrawn(_ i: Int, played: UInt8) {
        for half in 0 ..< 2 { stickyRNG.store(drawnGenerators[half], i + 4 * half, lanes: played >> UInt8(4 * half) & 0xF) }
    }

    /// Game `i`'s sticky generator after the draws of `frames` frames from
    /// its state before the step, for a game that ended after those frames.
    @inline(never)
    func redrawSticky(_ i: Int, frames: Int, _ sticky: Float) {
        var g = stickyRNG[i]
        for _ in 0 ..< frames {
            _ = PongPhysics.stickyActions(&g.words, chosen: (0, 0), last: (0, 0), scaled: sticky * 0x1p24, .standard)
        }
        stickyRNG[i] = g
    }
}
