/// ``PongBatch``'s observations of eight games at once.
///
/// The observation kernel (``PongPhysics/observation(_:speed:scoreBottom:scoreTop:side:_:)``)
/// in eight lanes on the columns, so every float is the reference's bit for
/// bit (the batch tests compare the observations of every preset with
/// ``PongGame``'s). The twelve entries come out as twelve lanes of eight
/// games and go to the games' rows four entries of four games at a time
/// (``LaneTranspose``).
extension PongBatch {
    /// `PongPhysics.observe` for side `side` of games `i ..< i + 8`, game
    /// `g`'s row at `out + g × stride`.
    @inline(never)
    func observeRows<K: PongRuleValues>(_ i: Int, side: PongSide, into out: UnsafeMutablePointer<Float>, stride: Int,
                                        _ p: PongPhysics, _ k: K) where K.L == Lanes {
        let f = observationLanes(i, side: side, p, k)
        let row = out + i * stride
        LaneTranspose.storeColumns(f.f0, f.f1, f.f2, f.f3, into: row, stride: stride)
        LaneTranspose.storeColumns(f.f4, f.f5, f.f6, f.f7, into: row + 4, stride: stride)
        LaneTranspose.storeColumns(f.f8, f.f9, f.f10, f.f11, into: row + 8, stride: stride)
    }

    /// The entries of side `side`'s observations of games `i ..< i + 8`
    /// (out of line: computed apart from the transposes that follow).
    @inline(never)
    func observationLanes<K: PongRuleValues>(_ i: Int, side: PongSide, _ p: PongPhysics, _ k: K) -> PongObservation<Lanes>
        where K.L == Lanes {
        p.observation(loadLanes(i), speed: Lane8.load(speed, i), scoreBottom: Lane8.floats(Lane8.load(scoreBottom, i)),
                      scoreTop: Lane8.floats(Lane8.load(scoreTop, i)), side: side, k)
    }
}
