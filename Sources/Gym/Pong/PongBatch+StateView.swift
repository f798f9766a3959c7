/// ``PongBatch``'s observation entries read straight from its columns, for
/// agents that act on the batch's state instead of observation rows (the
/// built-in tracker in lanes): the same floats, bit for bit, as the rows
/// ``PongBatch/step(actions:into:)`` and ``PongBatch/observe(into:)`` write.
extension PongBatch {
    /// Side `side`'s observation entries of games `i ..< i + 8` (lane `j`:
    /// game `i + j`; `i + 8 ≤ count`).
    public func observation(lanes i: Int, side: PongSide) -> PongObservation<SIMD8<Float>> {
        precondition(i >= 0 && i + Lanes.scalarCount <= count, "eight games from \(i) are not in the batch")
        if ruleTable.ownCount != 0 { return observationLanes(i, side: side, physics, GameRules(ruleTable).lanes(i)) }
        return observationLanes(i, side: side, physics, SameRules<Lanes>())
    }

    /// Calls `body(k, entries)` for each `k` in `0 ..< count` with the
    /// observation entries of seat `e % 2` (0 bottom, 1 top) of games
    /// `8 (e / 2) ..< 8 (e / 2) + 8`, `e = blockSeats[k]` (all eight in the
    /// batch): one call for many blocks, the entries handed over in place.
    public func forEachObservation(blockSeats: UnsafePointer<Int32>, count: Int,
                                   _ body: (Int, borrowing PongObservation<SIMD8<Float>>) -> Void) {
        if ruleTable.ownCount != 0 {
            forEachObservation(blockSeats: blockSeats, count: count, GameRules(ruleTable), body)
        } else {
            forEachObservation(blockSeats: blockSeats, count: count, UniformRules(), body)
        }
    }

    private func forEachObservation<R: RuleSource>(blockSeats: UnsafePointer<Int32>, count: Int, _ rules: R,
                                                    _ body: (Int, borrowing PongObservation<SIMD8<Float>>) -> Void)
        where R.Values: PongRuleValues, R.Values.L == Lanes {
        let physics = self.physics
        for k in 0 ..< count {
            let e = Int(blockSeats[k]), i = (e >> 1) * Lanes.scalarCount
            precondition(e >= 0 && i + Lanes.scalarCount <= self.count, "eight games from \(i) are not in the batch")
            body(k, observationLanes(i, side: e & 1 == 0 ? .bottom : .top, physics, rules.lanes(i)))
        }
    }

    /// Side `side`'s observation entries of game `i`.
    public func observation(_ i: Int, side: PongSide) -> PongObservation<Float> {
        precondition(i >= 0 && i < count, "game index out of range")
        return physics(i).observation(PongFrame(x: ballX[i], y: ballY[i], vx: ballVX[i], vy: ballVY[i], bx: bottomX[i],
                                                by: bottomY[i], tx: topX[i], ty: topY[i]),
                                      speed: speed[i], scoreBottom: Float(scoreBottom[i]), scoreTop: Float(scoreTop[i]),
                                      side: side, SameRules<Float>())
    }
}
