extension BreakoutPhysics {
    // MARK: - Observations of eight games at once (the batch's path)

    @usableFromInline typealias Lanes = SIMD8<Float>
    @usableFromInline typealias LaneMask = SIMDMask<SIMD8<Int32>>

    /// Writes the observations of the eight games `i ..< i + 8` of a batch
    /// (``BreakoutBatch/Columns`` in `columns`, the rest of each in its core
    /// `c[0 ..< 8]`; game `g`'s brick grid at `cellRows + g × stride +
    /// cellStart`, in a byte row of its own whose other bytes are 0; its
    /// ``aimColumns(_:)`` in `aim[g]`) to `o + g × stride`, `stride` being
    /// ``observationCount``: what ``observe(_:bricks:aimColumns:into:)``
    /// writes for each, bit for bit (the same entry kernels, lane `g` for
    /// game `g`). `scratch` holds ``laneScratchCount`` lane vectors (the
    /// caller's, so nothing is allocated here). Lane `g` plays the rules in
    /// lane `g` of `rules`.
    ///
    /// The eight byte rows are written whole as cell entries
    /// (``cellEntries(_:)``, sixteen floats at a time by
    /// ``Lane8/writeBlocks(into:count:_:)``): the cells' entries, and 0
    /// around them (under these physics' `toughHits`, the same for every
    /// game of a batch: not a rule value, ``BreakoutConfig/variantKeys``); the head and the paddle-relative entries are computed
    /// in lanes into `scratch` and written over the rows by four-by-four
    /// transposes (``Lane8/storeRows(_:count:skipping:into:stride:)``).
    /// Ball slots no game of the eight uses are not computed: the rows hold
    /// zeros there.
    @inline(always)
    func observeEight<K: BreakoutRuleValues>(_ group: UnsafePointer<BreakoutBatch.LaneGroup>,
                                             cores c: UnsafePointer<BreakoutCore>, cellRows: UnsafePointer<UInt8>,
                                             aim: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<Float>,
                                             stride: Int, scratch: UnsafeMutablePointer<Lanes>, _ rules: K)
        where K.L == Lanes {
        assert(stride == observationCount, "eight rows of an observation each")
        // The fields, lane `g` from game `g`: paddle x, half width, ball
        // count, each used slot's x, y, vx, vy (slot 0 from the columns,
        // the others from the cores), the push cooldown.
        let fields = scratch + Self.laneFieldsStart
        let balls = group.pointee.ballCount
        let most = Int(Lane8.greatest(balls))
        fields[0] = group.pointee.paddleX
        fields[1] = group.pointee.halfWidth
        fields[2] = Lane8.floats(balls)
        fields[Self.laneCooldownField] = Lane8.floats(group.pointee.cooldown)
        if most > 0 {
            fields[3] = group.pointee.ballX
            fields[4] = group.pointee.ballY
            fields[5] = group.pointee.ballVX
            fields[6] = group.pointee.ballVY
        }
        var k = 1
        while k < most {
            let slot = fields + 3 + 4 * k
            slot[0] = Self.gather(c) { $0.pointee.ballX[k] }
            slot[1] = Self.gather(c) { $0.pointee.ballY[k] }
            slot[2] = Self.gather(c) { $0.pointee.ballVX[k] }
            slot[3] = Self.gather(c) { $0.pointee.ballVY[k] }
            k += 1
        }
        let px = fields[0], half = fields[1], n = fields[2]
        headEntries(paddleX: px, halfWidth: half, lives: Lane8.floats(group.pointee.lives),
                    levels: Lane8.floats(group.pointee.levels), cooldown: fields[Self.laneCooldownField],
                    sinceProgress: Lane8.floats(group.pointee.sinceProgress),
                    servePending: Lane8.floats(Lane8.widen(group.pointee.pending)),
                    speed: group.pointee.speed, rules) { scratch[$0] = $1 }
        for k in 0 ..< most {
            let slot = fields + 3 + 4 * k
            let e = slotEntries(x: slot[0], y: slot[1], vx: slot[2], vy: slot[3], active: Lanes(repeating: Float(k)) .< n, rules)
            let b = scratch + 8 + 5 * k
            b[0] = e.0; b[1] = e.1; b[2] = e.2; b[3] = e.3; b[4] = e.4
        }
        // The rows are written after the entries are computed, so that each
        // column is read where it is used rather than held across the rows.
        let bytes = UnsafeRawPointer(cellRows)
        Lane8.writeBlocks(into: o, count: 8 &* stride) {
            cellEntries(bytes.loadUnaligned(fromByteOffset: $0, as: SIMD16<UInt8>.self))
        }
        if most == 1 {
            // One ball slot (most steps): the count known (the head's
            // eight entries and the slot's five), the transposes inline.
            Lane8.storeRows(scratch, count: 8 + 5, into: o, stride: stride)
        } else {
            Self.storeRows(scratch, count: 8 + 5 * most, skipping: 0 ..< 0, into: o, stride: stride)
        }
        observeRelativeEight(aim: aim, fields: fields, most: most, into: o + relativeStart, stride: stride,
                             scratch: scratch, rules)
    }

    /// The paddle-relative entries of ``observeEight(_:cores:cellRows:aim:into:stride:scratch:_:)``
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

    /// Lane vectors ``observeEight(_:cores:cellRows:aim:into:stride:scratch:_:)``
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

    /// One float of each of the eight games `c[0 ..< 8]`, lane `g` from game `g`.
    @inline(always)
    static func gather(_ c: UnsafePointer<BreakoutCore>, _ read: (UnsafePointer<BreakoutCore>) -> Float) -> Lanes {
        Lanes(read(c), read(c + 1), read(c + 2), read(c + 3), read(c + 4), read(c + 5), read(c + 6), read(c + 7))
    }
}
