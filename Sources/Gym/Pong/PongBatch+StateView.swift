/// ``PongBatch``'s observation entries 0, 2 and 4–7 (``PongMotion``) read
/// straight from its columns, for agents that act on the batch's state
/// instead of observation rows (the built-in tracker): the same floats, bit
/// for bit, as those of the rows ``PongBatch/step(actions:into:)`` and
/// ``PongBatch/observe(into:)`` write, and no other entry is computed.
extension PongBatch {
    /// Calls `body(k, entries)` for each `k` in `0 ..< count` with the
    /// motion entries of seat `e % 2` (0 bottom, 1 top) of games
    /// `8 (e / 2) ..< 8 (e / 2) + 8`, `e = blockSeats[k]` (all eight in the
    /// batch): one call for many blocks, the entries handed over in place.
    public func forEachMotion(blockSeats: UnsafePointer<Int32>, count: Int,
                              _ body: (Int, borrowing PongMotion<SIMD8<Float>>) -> Void) {
        if ruleTable.ownCount != 0 {
            forEachMotion(blockSeats: blockSeats, count: count, GameRules(ruleTable), body)
        } else {
            forEachMotion(blockSeats: blockSeats, count: count, UniformRules(), body)
        }
    }

    private func forEachMotion<R: RuleSource>(blockSeats: UnsafePointer<Int32>, count: Int, _ rules: R,
                                              _ body: (Int, borrowing PongMotion<SIMD8<Float>>) -> Void)
        where R.Values: PongRuleValues, R.Values.L == Lanes {
        let physics = self.physics
        for k in 0 ..< count {
            let e = Int(blockSeats[k]), i = (e >> 1) * Lanes.scalarCount
            precondition(e >= 0 && i + Lanes.scalarCount <= self.count, "eight games from \(i) are not in the batch")
            // Each side its own call, so that each is compiled for its own
            // mirror (the bottom's, 1, leaves the entries as they are).
            if e & 1 == 0 {
                body(k, physics.motion(loadLanes(i), side: .bottom, rules.lanes(i)))
            } else {
                body(k, physics.motion(loadLanes(i), side: .top, rules.lanes(i)))
            }
        }
    }

    /// Side `side`'s motion entries of game `i`.
    public func motion(_ i: Int, side: PongSide) -> PongMotion<Float> {
        precondition(i >= 0 && i < count, "game index out of range")
        return physics(i).motion(PongFrame(x: ballX[i], y: ballY[i], vx: ballVX[i], vy: ballVY[i], bx: bottomX[i],
                                           by: bottomY[i], tx: topX[i], ty: topY[i]), side: side, SameRules<Float>())
    }
}
