/// ``PongBatch``'s observation entries read straight from its columns, for
/// agents that act on the batch's state instead of observation rows (the
/// built-in tracker in lanes): the same floats, bit for bit, as the rows
/// ``PongBatch/step(actions:into:)`` and ``PongBatch/observe(into:)`` write.
extension PongBatch {
    /// Side `side`'s observation entries of games `i ..< i + 8` (lane `j`:
    /// game `i + j`; `i + 8 ≤ count`).
    public func observation(lanes i: Int, side: PongSide) -> PongObservation<SIMD8<Float>> {
        precondition(i >= 0 && i + Lanes.scalarCount <= count, "eight games from \(i) are not in the batch")
        return observationLanes(i, side: side, physics)
    }

    /// Side `side`'s observation entries of game `i`.
    public func observation(_ i: Int, side: PongSide) -> PongObservation<Float> {
        precondition(i >= 0 && i < count, "game index out of range")
        return physics.observation(PongFrame(x: ballX[i], y: ballY[i], vx: ballVX[i], vy: ballVY[i], bx: bottomX[i],
                                             by: bottomY[i], tx: topX[i], ty: topY[i]),
                                   speed: speed[i], scoreBottom: Float(scoreBottom[i]), scoreTop: Float(scoreTop[i]),
                                   side: side)
    }
}
