/// ``PongBatch``'s observations of eight games at once.
///
/// ``PongPhysics/observe(_:side:into:)``'s arithmetic lane-wise, on the
/// columns: the same operations in the same order with the same constants
/// (``PongPhysics/observationScales``), and `smin`/`smax` are the standard
/// library's `min`/`max` lane by lane, so every float is the reference's bit
/// for bit (the batch tests compare the observations of every preset with
/// ``PongGame``'s). The twelve entries come out as twelve lanes of eight
/// games and go to the games' rows four entries of four games at a time
/// (``LaneTranspose``).
extension PongBatch {
    /// Eight games' observation entries, entry `k` of game `i + j` in lane
    /// `j` of `f[k]`.
    struct ObservationLanes {
        var f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11: Lanes
    }

    /// `PongPhysics.observe` for side `side` of games `i ..< i + 8`, game
    /// `g`'s row at `out + g × stride`.
    @inline(never)
    func observeRows(_ i: Int, side: PongSide, into out: UnsafeMutablePointer<Float>, stride: Int, _ p: PongPhysics) {
        let f = observationLanes(i, side: side, p)
        let row = out + i * stride
        LaneTranspose.storeColumns(f.f0, f.f1, f.f2, f.f3, into: row, stride: stride)
        LaneTranspose.storeColumns(f.f4, f.f5, f.f6, f.f7, into: row + 4, stride: stride)
        LaneTranspose.storeColumns(f.f8, f.f9, f.f10, f.f11, into: row + 8, stride: stride)
    }

    /// The entries of side `side`'s observations of games `i ..< i + 8`.
    /// Out of line, a kernel apart from the transposes that follow, so that
    /// the entries are computed lane-wise (docs/throughput.md, "Kernels of
    /// bounded size").
    @inline(never)
    func observationLanes(_ i: Int, side: PongSide, _ p: PongPhysics) -> ObservationLanes {
        let (cx, cy, invCX, invCY, invW, invS, invV, invDepth, invMax) = p.observationScales
        let m = side.mirror
        let bottomX = Self.lanes(self.bottomX, i), topX = Self.lanes(self.topX, i)
        let bottomDepth = Self.lanes(bottomY, i) - p.homeY
        let topDepth = (p.height - p.homeY) - Self.lanes(topY, i)
        let bottomScore = Self.floats(Self.lanes(scoreBottom, i)), topScore = Self.floats(Self.lanes(scoreTop, i))
        let bottom = side == .bottom
        let ownX = bottom ? bottomX : topX, oppX = bottom ? topX : bottomX
        let ownDepth = bottom ? bottomDepth : topDepth, oppDepth = bottom ? topDepth : bottomDepth
        let ownScore = bottom ? bottomScore : topScore, oppScore = bottom ? topScore : bottomScore
        let x = Self.lanes(ballX, i)
        return ObservationLanes(
            f0: (ownX - cx) * invCX * m,
            f1: Self.smin(ownDepth * invDepth, 1),
            f2: (oppX - cx) * invCX * m,
            f3: Self.smin(oppDepth * invDepth, 1),
            f4: (x - cx) * invCX * m,
            f5: Self.smin(Self.smax((Self.lanes(ballY, i) - cy) * invCY * m, -1), 1),
            f6: Self.smin(Self.smax(Self.lanes(ballVX, i) * invV * m, -1), 1),
            f7: Self.smin(Self.smax(Self.lanes(ballVY, i) * invV * m, -0.5), 0.5),
            f8: (x - ownX) * invW * m,
            f9: Self.smin(Self.lanes(speed, i) * invS, 1),
            f10: ownScore * invMax,
            f11: oppScore * invMax)
    }
}
