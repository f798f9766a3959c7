extension BreakoutPhysics {
    // MARK: - Observations of eight games at once (the batch's path)

    @usableFromInline typealias Lanes = SIMD8<Float>
    @usableFromInline typealias LaneMask = SIMDMask<SIMD8<Int32>>

    /// Writes the observations of the eight games `cores[0 ..< 8]` (game
    /// `g`'s cell entries — ``writeCells(_:into:)`` of its grid — at
    /// `entries + g × stride + cellStart`, in a row of its own whose other
    /// entries are 0, its ``aimColumns(_:)`` in `aim[g]`) to
    /// `o + g × stride`, `stride` being ``observationCount``: what
    /// ``observe(_:bricks:aimColumns:into:)`` writes for each, bit for bit
    /// (the same entry kernels, lane `g` for game `g`). `scratch` holds
    /// ``laneScratchCount`` lane vectors (the caller's, so nothing is
    /// allocated here). Lane `g` plays the rules in lane `g` of `rules`.
    ///
    /// The rows with their cell entries are copied whole, eight floats at a
    /// time (``Lane8/copyRows(_:into:count:)``); the head and the
    /// paddle-relative entries are computed in lanes into `scratch` and
    /// written over the rows by four-by-four transposes
    /// (``Lane8/storeRows(_:count:skipping:into:stride:)``). Ball slots no
    /// game of the eight uses are not computed: the copied rows hold zeros
    /// there.
    ///
    /// `quiet`: the eight games' steps all ran in lanes and did not end
    /// (``quietLanes(_:actions:frames:fields:serveFrames:_:)`` left their
    /// paddle x and half width, ball count, slot 0 and push cooldown in
    /// `scratch` from ``laneFieldsStart`` on, and each has one ball and no
    /// serve pending, or no ball and a serve pending): those fields are
    /// taken from there instead of being gathered again from the cores,
    /// the same values bit for bit.
    @inline(always)
    func observeEight<K: BreakoutRuleValues>(_ c: UnsafePointer<BreakoutCore>, cells entries: UnsafePointer<Float>, aim: UnsafePointer<UInt32>,
                      into o: UnsafeMutablePointer<Float>, stride: Int, scratch: UnsafeMutablePointer<Lanes>,
                      quiet: Bool, _ rules: K) where K.L == Lanes {
        assert(stride == observationCount, "eight rows of an observation each")
        Lane8.copyRows(entries, into: o, count: 8 &* stride)
        // The fields, lane `g` from game `g`: paddle x, half width, ball
        // count, each used slot's x, y, vx, vy, the push cooldown.
        let fields = scratch + Self.laneFieldsStart
        var most: Int32 = 0
        if quiet {
            most = Lane8.sum(fields[2]) != 0 ? 1 : 0
        } else {
            fields[0] = Self.gather(c) { $0.pointee.paddleX }
            fields[1] = Self.gather(c) { $0.pointee.paddleHalfWidth }
            fields[2] = Self.gather(c) { Float($0.pointee.ballCount) }
            fields[Self.laneCooldownField] = Self.gather(c) { Float($0.pointee.pushCooldown) }
            for g in 0 ..< 8 { most = Swift.max(most, c[g].ballCount) }
            for k in 0 ..< Int(most) {
                let slot = fields + 3 + 4 * k
                slot[0] = Self.gather(c) { $0.pointee.ballX[k] }
                slot[1] = Self.gather(c) { $0.pointee.ballY[k] }
                slot[2] = Self.gather(c) { $0.pointee.ballVX[k] }
                slot[3] = Self.gather(c) { $0.pointee.ballVY[k] }
            }
        }
        let px = fields[0], half = fields[1], n = fields[2]
        // Quiet: a lane's serve is pending iff it has no ball in play.
        let pending = quiet ? 1 - n : Self.gather(c) { $0.pointee.servePending ? 1 : 0 }
        headEntries(paddleX: px, halfWidth: half, lives: Self.gather(c) { Float($0.pointee.lives) },
                    levels: Self.gather(c) { Float($0.pointee.levelsCleared) }, cooldown: fields[Self.laneCooldownField],
                    sinceProgress: Self.gather(c) { Float($0.pointee.stepsSinceProgress) }, servePending: pending,
                    speed: Self.gather(c) { $0.pointee.speed }, rules) { scratch[$0] = $1 }
        for k in 0 ..< Int(most) {
            let slot = fields + 3 + 4 * k
            let e = slotEntries(x: slot[0], y: slot[1], vx: slot[2], vy: slot[3], active: Lanes(repeating: Float(k)) .< n, rules)
            let b = scratch + 8 + 5 * k
            b[0] = e.0; b[1] = e.1; b[2] = e.2; b[3] = e.3; b[4] = e.4
        }
        Self.storeRows(scratch, count: 8 + 5 * Int(most), skipping: 0 ..< 0, into: o, stride: stride)
        observeRelativeEight(aim: aim, fields: fields, most: Int(most), into: o + relativeStart, stride: stride,
                             scratch: scratch, rules)
    }

    /// The paddle-relative entries of ``observeEight(_:cells:aim:into:stride:scratch:quiet:_:)``
    /// from the fields in `fields`, `most` the most balls any of the eight
    /// games has: a unit of its own (per ball a chain of divisions, a
    /// remainder and selects), so that it compiles whole.
    @inline(never)
    func observeRelativeEight<K: BreakoutRuleValues>(aim: UnsafePointer<UInt32>, fields: UnsafePointer<Lanes>, most: Int,
                                                     into o: UnsafeMutablePointer<Float>, stride: Int,
                                                     scratch: UnsafeMutablePointer<Lanes>, _ rules: K) where K.L == Lanes {
        let crossing = relativeEntries(paddleX: fields[0], halfWidth: fields[1], count: fields[2], slots: most,
                                       ball: { k in let s = fields + 3 + 4 * k; return (s[0], s[1], s[2], s[3]) },
                                       rules, write: { scratch[$0] = $1 })
        let candidates = UnsafeRawPointer(aim).loadUnaligned(as: SIMD8<UInt32>.self)
        let near = Self.candidates(candidates, around: placeColumn(crossing), columns: cols)
        scratch[aimEntry] = aimEntry(column: nearerColumn(crossing, left: near.left, right: near.right), crossing: crossing)
        let balls = Int(maxBalls)
        Self.storeRows(scratch, count: 3 * balls + 7, skipping: 3 * most ..< 3 * balls, into: o, stride: stride)
    }

    /// ``Lane8/storeRows(_:count:skipping:into:stride:)`` as a unit of its
    /// own, so that its transposes' stores inline into it whole.
    @inline(never)
    static func storeRows(_ columns: UnsafePointer<Lanes>, count: Int, skipping gap: Range<Int>,
                          into o: UnsafeMutablePointer<Float>, stride: Int) {
        Lane8.storeRows(columns, count: count, skipping: gap, into: o, stride: stride)
    }

    /// Lane vectors ``observeEight(_:cells:aim:into:stride:scratch:quiet:_:)``
    /// needs as scratch: one per entry of a game's head or of its
    /// paddle-relative features, whichever are more, then the fields (from
    /// ``laneFieldsStart``: three, four per ball slot, and the push
    /// cooldown).
    @usableFromInline static let laneScratchCount = laneFieldsStart + laneCooldownField + 1

    /// The push cooldown's place among the fields (after the ball slots).
    static let laneCooldownField = 3 + 4 * BreakoutConfig.ballSlots

    /// Where the fields start in the scratch (after the entries).
    static let laneFieldsStart = Swift.max(8 + 5 * BreakoutConfig.ballSlots, 3 * BreakoutConfig.ballSlots + 7)

    /// ``candidates(_:around:)`` lane by lane (`j[g]` a column number as a
    /// float). Up to 24 columns, a candidate set converts to a float
    /// exactly, so the highest set bit of the set below `j + 1` and the
    /// lowest one above (isolated as `v & −v`) are read from the exponents
    /// of those floats; wider walls take each lane's scalar answer.
    @inline(always)
    static func candidates(_ candidates: SIMD8<UInt32>, around j: Lanes, columns: Int) -> (left: Lanes, right: Lanes) {
        guard columns <= 24 else {
            var left = Lanes(), right = Lanes()
            for g in 0 ..< 8 { (left[g], right[g]) = Self.candidates(candidates[g], around: Int(j[g])) }
            return (left, right)
        }
        let low = candidates & ((SIMD8<UInt32>(repeating: 1) &<< Lane8.integers(j + 1)) &- 1)
        let high = candidates & ~low
        let lowSet = Lanes(SIMD8<Int32>(truncatingIfNeeded: low))
        let rightBit = Lanes(SIMD8<Int32>(truncatingIfNeeded: high & (0 &- high)))
        let left = Lanes((unsafeBitCast(lowSet, to: SIMD8<Int32>.self) &>> 23) &- 127)
        let right = Lanes((unsafeBitCast(rightBit, to: SIMD8<Int32>.self) &>> 23) &- 127)
        return (left.replacing(with: -1, where: lowSet .== 0), right.replacing(with: -1, where: rightBit .== 0))
    }

    /// One integer of each of the eight games `c[0 ..< 8]`, lane `g` from game `g`.
    @inline(always)
    static func gatherIntegers(_ c: UnsafePointer<BreakoutCore>,
                               _ read: (UnsafePointer<BreakoutCore>) -> Int32) -> SIMD8<Int32> {
        SIMD8(read(c), read(c + 1), read(c + 2), read(c + 3), read(c + 4), read(c + 5), read(c + 6), read(c + 7))
    }

    /// One float of each of the eight games `c[0 ..< 8]`, lane `g` from game `g`.
    @inline(always)
    static func gather(_ c: UnsafePointer<BreakoutCore>, _ read: (UnsafePointer<BreakoutCore>) -> Float) -> Lanes {
        Lanes(read(c), read(c + 1), read(c + 2), read(c + 3), read(c + 4), read(c + 5), read(c + 6), read(c + 7))
    }
}
