/// Pong's per-frame rules written once, for one game (`Float`) or eight at
/// a time (`SIMD8<Float>`, one game per lane; see ``LaneFloat``): the
/// sticky actions, the paddles' moves and targets, the quiet test (no contact can happen this
/// frame) with the motion of a quiet frame, and the observation.
/// ``PongPhysics/tick(_:bottom:top:events:)`` and ``PongPhysics/observe(_:side:into:)``
/// call them with `Float`, ``PongBatch`` with eight lanes, so both are the
/// same arithmetic bit for bit.

/// The moving state of one game or eight: the ball's centre and velocity
/// and both paddles' centres (units, units/frame).
@usableFromInline
struct PongFrame<L: LaneFloat> {
    @usableFromInline var x, y, vx, vy: L
    @usableFromInline var bx, by, tx, ty: L

    @inlinable @inline(__always)
    init(x: L, y: L, vx: L, vy: L, bx: L, by: L, tx: L, ty: L) {
        self.x = x; self.y = y; self.vx = vx; self.vy = vy
        self.bx = bx; self.by = by; self.tx = tx; self.ty = ty
    }
}

extension PongFrame {
    /// Takes the positions of `b` (a quiet frame does not change the
    /// velocities), in every lane or in those of `mask`.
    @inline(__always)
    mutating func take(_ b: PongFrame) {
        x = b.x; y = b.y; bx = b.bx; by = b.by; tx = b.tx; ty = b.ty
    }

    @inline(__always)
    mutating func take(_ b: PongFrame, where mask: L.Condition) {
        x = x.replacing(with: b.x, where: mask); y = y.replacing(with: b.y, where: mask)
        bx = bx.replacing(with: b.bx, where: mask); by = by.replacing(with: b.by, where: mask)
        tx = tx.replacing(with: b.tx, where: mask); ty = ty.replacing(with: b.ty, where: mask)
    }
}

extension PongFrame where L == Float {
    @inlinable @inline(__always)
    init(_ s: PongState) {
        self.init(x: s.ballX, y: s.ballY, vx: s.ballVX, vy: s.ballVY,
                  bx: s.bottomX, by: s.bottomY, tx: s.topX, ty: s.topY)
    }
}

/// Where the kernels read the rule values a variant key
/// (``PongConfig/variantKeys``) can change, for one game or eight (one per
/// lane), so that eight games under their own rules
/// (``VectorEnvironment/reset(_:seed:rules:)``) step in one set of lanes:
/// ``SameRules`` reads the physics' own (one game, or eight under the same
/// rules: nothing to pass, the same code as constants), ``PongRuleLanes``
/// holds eight games' values. Every other constant is the physics' (the
/// field, the ball, the paddles' heights and depth range are the same for
/// every game of a batch).
@usableFromInline
protocol PongRuleValues {
    associatedtype L: LaneFloat
    /// Half the paddle's width; the lowest and highest paddle centre (units).
    func halfW(_ p: PongPhysics) -> L
    func minPaddleX(_ p: PongPhysics) -> L
    func maxPaddleX(_ p: PongPhysics) -> L
    /// Horizontal and vertical paddle speed (units/frame; vertical 0 without vertical movement).
    func hSpeed(_ p: PongPhysics) -> L
    func vSpeed(_ p: PongPhysics) -> L
    /// The observation's reciprocals of the top speed and of twice it.
    func invS(_ p: PongPhysics) -> L
    func invV(_ p: PongPhysics) -> L
}

/// The physics' own rule values, in every lane.
@usableFromInline
struct SameRules<L: LaneFloat>: PongRuleValues {
    @inlinable @inline(__always) init() {}
    @inlinable @inline(__always) func halfW(_ p: PongPhysics) -> L { L(repeating: p.halfW) }
    @inlinable @inline(__always) func minPaddleX(_ p: PongPhysics) -> L { L(repeating: p.minPaddleX) }
    @inlinable @inline(__always) func maxPaddleX(_ p: PongPhysics) -> L { L(repeating: p.maxPaddleX) }
    @inlinable @inline(__always) func hSpeed(_ p: PongPhysics) -> L { L(repeating: p.hSpeed) }
    @inlinable @inline(__always) func vSpeed(_ p: PongPhysics) -> L { L(repeating: p.vSpeed) }
    @inlinable @inline(__always) func invS(_ p: PongPhysics) -> L { L(repeating: p.observationScales.invS) }
    @inlinable @inline(__always) func invV(_ p: PongPhysics) -> L { L(repeating: p.observationScales.invV) }
}

/// Eight games' rule values (or one game's), each its own physics' values.
@usableFromInline
struct PongRuleLanes<L: LaneFloat>: PongRuleValues {
    @usableFromInline var halfW, minPaddleX, maxPaddleX, hSpeed, vSpeed, invS, invV: L

    @inlinable @inline(__always)
    init(halfW: L, minPaddleX: L, maxPaddleX: L, hSpeed: L, vSpeed: L, invS: L, invV: L) {
        self.halfW = halfW; self.minPaddleX = minPaddleX; self.maxPaddleX = maxPaddleX
        self.hSpeed = hSpeed; self.vSpeed = vSpeed; self.invS = invS; self.invV = invV
    }

    @inlinable @inline(__always) func halfW(_: PongPhysics) -> L { halfW }
    @inlinable @inline(__always) func minPaddleX(_: PongPhysics) -> L { minPaddleX }
    @inlinable @inline(__always) func maxPaddleX(_: PongPhysics) -> L { maxPaddleX }
    @inlinable @inline(__always) func hSpeed(_: PongPhysics) -> L { hSpeed }
    @inlinable @inline(__always) func vSpeed(_: PongPhysics) -> L { vSpeed }
    @inlinable @inline(__always) func invS(_: PongPhysics) -> L { invS }
    @inlinable @inline(__always) func invV(_: PongPhysics) -> L { invV }
}

extension PongRuleLanes: ColumnRuleValues where L == SIMD8<Float> {
    /// Games `i ..< i + 8`'s values from their rule columns (``PerGameRules/columns``,
    /// as ``PongPhysics/writeRuleColumns(_:stride:)`` writes them), `n` games a column.
    @inline(__always)
    init(columns c: UnsafePointer<Float>, stride n: Int, _ i: Int) {
        self.init(halfW: Lane8.load(c, i), minPaddleX: Lane8.load(c + n, i), maxPaddleX: Lane8.load(c + 2 * n, i),
                  hSpeed: Lane8.load(c + 3 * n, i), vSpeed: Lane8.load(c + 4 * n, i),
                  invS: Lane8.load(c + 5 * n, i), invV: Lane8.load(c + 6 * n, i))
    }
}

extension PongPhysics: GamePhysics {
    /// The rule values of ``PongRuleValues``, one column each, in the order
    /// of ``PongRuleLanes``'s fields.
    static var ruleColumnCount: Int { 7 }

    func writeRuleColumns(_ c: UnsafeMutablePointer<Float>, stride n: Int) {
        let r = SameRules<Float>()
        c[0] = r.halfW(self); c[n] = r.minPaddleX(self); c[2 * n] = r.maxPaddleX(self); c[3 * n] = r.hSpeed(self)
        c[4 * n] = r.vSpeed(self); c[5 * n] = r.invS(self); c[6 * n] = r.invV(self)
    }
}

/// The paddle moves of one frame's actions, field units per frame:
/// `horizontal(a) × hSpeed` and `vertical(a) × vSpeed` per side, which the
/// bottom paddle adds and the top one (mirrored) subtracts.
@usableFromInline
struct PongMoves<L: LaneFloat> {
    @usableFromInline var bx, by, tx, ty: L

    @inlinable @inline(__always)
    init(bx: L, by: L, tx: L, ty: L) { self.bx = bx; self.by = by; self.tx = tx; self.ty = ty }
}

/// A form of the quiet test, fixed at compile time (each is compiled on its
/// own, its branches folded away). The exact form is ``PongPhysics``'s own.
///
/// The band form: while every ball stays inside the band of
/// ``PongPhysics/quietBand`` (checked by the batch for a whole step), the
/// quiet test reduces to its wall test: every paddle centre stays within
/// its clamp, so a ball above the band's low edge is above the bottom
/// paddle's swept box plus its reach and one below the high edge under the
/// top paddle's, and the ball is inside the field (no point). The flat
/// form: paddles that cannot leave their heights (no depth range, and at
/// their home heights) keep them.
@usableFromInline
protocol QuietFrameForm {
    /// The band form (the wall test alone).
    static var band: Bool { get }
    /// The paddles' heights are fixed.
    static var flat: Bool { get }
}

@usableFromInline enum ExactFrame: QuietFrameForm {
    @inlinable static var band: Bool { false }
    @inlinable static var flat: Bool { false }
}
enum ExactFlatFrame: QuietFrameForm { static var band: Bool { false }; static var flat: Bool { true } }
enum BandFrame: QuietFrameForm { static var band: Bool { true }; static var flat: Bool { false } }
enum BandFlatFrame: QuietFrameForm { static var band: Bool { true }; static var flat: Bool { true } }

extension PongPhysics {
    // MARK: - Paddles

    /// -1 for left (1), +1 for right (2), 0 otherwise (egocentric), given
    /// the action as a float (exact: only the integers 1 … 4 convert to
    /// the floats 1 … 4, so out-of-range actions act as stay).
    @inlinable @inline(__always)
    static func horizontal<L: LaneFloat>(_ a: L) -> L {
        L.sign(plus: a .== 2, minus: a .== 1)
    }

    /// +1 toward the centre (3), -1 back (4), 0 otherwise (egocentric).
    @inlinable @inline(__always)
    static func vertical<L: LaneFloat>(_ a: L) -> L {
        L.sign(plus: a .== 3, minus: a .== 4)
    }

    /// The paddle moves of the (egocentric) actions `bottom` and `top`,
    /// given as floats, at the speeds of `k`. Without vertical movement
    /// (`vSpeed` 0, for every game of a batch: `verticalMovement` is not a
    /// rule value) the vertical moves are 0, which leave a paddle's height
    /// as ±0 would.
    @inlinable @inline(__always)
    func moves<K: PongRuleValues>(bottom: K.L, top: K.L, _ k: K) -> PongMoves<K.L> {
        typealias L = K.L
        let bx = Self.horizontal(bottom) * k.hSpeed(self), tx = Self.horizontal(top) * k.hSpeed(self)
        guard vSpeed != 0 else { return PongMoves(bx: bx, by: L(repeating: 0), tx: tx, ty: L(repeating: 0)) }
        return PongMoves(bx: bx, by: Self.vertical(bottom) * k.vSpeed(self), tx: tx, ty: Self.vertical(top) * k.vSpeed(self))
    }

    // MARK: - Sticky actions

    /// One frame's actions with sticky actions, for one game's sticky
    /// generator or four games' (one per lane): two draws, the bottom
    /// side's then the top side's; each side keeps its previous action (as
    /// the state stores it, its byte) where its draw is below the
    /// probability (`scaled` is it times 2^24), else takes its `chosen`
    /// action (``GeneratorWord/sticky(_:below:last:chosen:)``).
    @inlinable @inline(__always)
    static func stickyActions<W: GeneratorWord>(_ g: inout XoshiroWords<W>, chosen: (bottom: W.Actions, top: W.Actions),
                                                last: (bottom: W.Actions, top: W.Actions), scaled: Float,
                                                _ r: XoshiroWords<W>.Rotations) -> (bottom: W.Actions, top: W.Actions) {
        let b = W.sticky(g.next(r), below: scaled, last: last.bottom, chosen: chosen.bottom)
        let t = W.sticky(g.next(r), below: scaled, last: last.top, chosen: chosen.top)
        return (b, t)
    }

    // MARK: - The quiet test and motion

    /// One frame in every lane of `s` as if nothing touched: the paddles
    /// moved by `m` and clamped to their lanes (horizontally a gap of a ball
    /// size plus one unit to the side walls; vertically their own half), the
    /// ball moved by its velocity. `clear` holds where no contact can
    /// happen this frame: the ball crosses no side wall and its box swept
    /// over the frame comes within 0.01 units of neither paddle's box swept
    /// from its position to its target (conservative: a lane not `clear`
    /// may still touch nothing). Only a `clear` lane may take `next`; a
    /// point is not part of the test (``inField(_:)``).
    @inlinable @inline(__always)
    func frame<K: PongRuleValues, Form: QuietFrameForm>(_ s: PongFrame<K.L>, _ m: PongMoves<K.L>, _: Form.Type,
                                                        _ k: K) -> (next: PongFrame<K.L>, clear: K.L.Condition) {
        typealias L = K.L
        let x = s.x, y = s.y, vx = s.vx, vy = s.vy
        let bx0 = s.bx, by0 = s.by, tx0 = s.tx, ty0 = s.ty
        let minX = k.minPaddleX(self), maxX = k.maxPaddleX(self)
        let bx1 = L.min(L.max(bx0 + m.bx, minX), maxX)
        let tx1 = L.min(L.max(tx0 - m.tx, minX), maxX)
        let by1 = Form.flat ? by0 : L.min(L.max(by0 + m.by, homeY), homeY + maxDepth)
        let ty1 = Form.flat ? ty0 : L.max(L.min(ty0 - m.ty, height - homeY), height - homeY - maxDepth)
        let x1 = x + vx, y1 = y + vy
        let walls = (x1 .>= r) .& (x1 .<= width - r)
        let next = PongFrame(x: x1, y: y1, vx: vx, vy: vy, bx: bx1, by: by1, tx: tx1, ty: ty1)
        if Form.band { return (next, walls) }
        // The swept boxes meet when they overlap on both axes (a paddle's
        // reach added to each end: `max(a, b) + r` is `max(a + r, b + r)`,
        // as rounding is monotonic).
        let margin: Float = 0.01
        let reachX = k.halfW(self) + r + margin, reachY = r + halfH + margin
        let meetBottom = L.spanBelow(x, x1, bx0 + reachX, bx1 + reachX) .& L.spanAbove(x, x1, bx0 - reachX, bx1 - reachX)
            .& L.spanBelow(y, y1, by0 + reachY, by1 + reachY) .& L.spanAbove(y, y1, by0 - reachY, by1 - reachY)
        let meetTop = L.spanBelow(x, x1, tx0 + reachX, tx1 + reachX) .& L.spanAbove(x, x1, tx0 - reachX, tx1 - reachX)
            .& L.spanBelow(y, y1, ty0 + reachY, ty1 + reachY) .& L.spanAbove(y, y1, ty0 - reachY, ty1 - reachY)
        return (next, walls .& .!meetBottom .& .!meetTop)
    }

    /// Where a game whose step counter is now `steps` (as a float) reaches
    /// the step limit (never with `maxSteps` 0). Floats compare as the
    /// integers do: a limited episode never counts past `maxSteps` ≤
    /// 10 000 000 < 2^24, below which every integer is exact.
    @inlinable @inline(__always)
    func reachesStepLimit<L: LaneFloat>(_ steps: L) -> L.Condition {
        steps .>= (config.maxSteps > 0 ? Float(config.maxSteps) : .infinity)
    }

    /// Where a ball at height `y` scores no point (its centre inside the field).
    @inlinable @inline(__always)
    func inField<L: LaneFloat>(_ y: L) -> L.Condition {
        .!(y .> height) .& .!(y .< 0)
    }

    /// ``frame(_:_:_:_:)`` with the point test: `quiet` holds where the
    /// frame is clear and scores no point, so that `next` is the whole
    /// frame of ``tick(_:bottom:top:events:)``. The band form needs no point
    /// test (a ball in the band is inside the field).
    @inlinable @inline(__always)
    func quietFrame<K: PongRuleValues, Form: QuietFrameForm>(_ s: PongFrame<K.L>, _ m: PongMoves<K.L>, _ form: Form.Type,
                                                             _ k: K) -> (next: PongFrame<K.L>, quiet: K.L.Condition) {
        let (next, clear) = frame(s, m, form, k)
        return (next, Form.band ? clear : clear .& inField(next.y))
    }

    /// Whether every game of `s` in `allowed` may take the flat form of
    /// ``frame(_:_:_:_:)``: without a depth range (`maxDepth` 0) its clamps
    /// put the bottom paddle at `homeY` and the top one at `height − homeY`
    /// whatever the move, so a paddle already there stays there, bit for bit.
    @inlinable @inline(__always)
    func flatPaddles<L: LaneFloat>(_ s: PongFrame<L>, allowed: L.Condition) -> Bool {
        maxDepth == 0 && (((s.by .== homeY) .& (s.ty .== height - homeY)) .| .!allowed).holdsEverywhere
    }

    /// Whether every game of `s` in `allowed` may take the band form of
    /// ``frame(_:_:_:_:)`` for `frames` frames: its ball stays inside `band`
    /// (``quietBand``) at its current vertical velocity, between
    /// `y − frames·|vy|` and `y + frames·|vy|` (up to rounding, some
    /// thousandths of a unit after at most 16 frames; the band's unit of
    /// slack covers it).
    @inlinable @inline(__always)
    func staysInBand<L: LaneFloat>(_ s: PongFrame<L>, allowed: L.Condition, frames: Int,
                                   band: (low: Float, high: Float)) -> Bool {
        let reach = s.vy.replacing(with: 0 - s.vy, where: s.vy .< 0) * Float(frames)
        return (((s.y - reach) .>= band.low) .& ((s.y + reach) .<= band.high) .| .!allowed).holdsEverywhere
    }

    /// The ball heights between which no paddle can be reached and no
    /// point scored (the band form of ``frame(_:_:_:_:)``): (lowest, highest),
    /// each a unit inside the exact limits, which covers the rounding of a
    /// ball's heights over up to 16 frames.
    var quietBand: (low: Float, high: Float) {
        let reachY = r + halfH + 0.01
        // The highest a bottom paddle's centre can be, and the lowest a top paddle's.
        let bottomTop = homeY + maxDepth
        let topBottom = height - homeY - maxDepth
        return ((bottomTop + reachY) + 1, (topBottom - reachY) - 1)
    }

    // MARK: - Observation

    /// `side`'s egocentric observation of the games in `s` (see
    /// ``PongGame``'s table; bounds in ``observationLayout``), their speed
    /// levels and scores given as floats. Entries that can reach a bound are
    /// clamped to it: a product with a precomputed reciprocal can pass it by
    /// a rounding step.
    @inlinable @inline(__always)
    func observation<K: PongRuleValues>(_ s: PongFrame<K.L>, speed: K.L, scoreBottom: K.L, scoreTop: K.L,
                                        side: PongSide, _ k: K) -> PongObservation<K.L> {
        typealias L = K.L
        let (_, _, _, _, invW, _, _, invDepth, invMax) = observationScales
        let invS = k.invS(self)
        let m = side.mirror
        let bottomDepth = s.by - homeY, topDepth = (height - homeY) - s.ty
        let bottom = side == .bottom
        let ownX = bottom ? s.bx : s.tx
        let ownDepth = bottom ? bottomDepth : topDepth, oppDepth = bottom ? topDepth : bottomDepth
        let ownScore = bottom ? scoreBottom : scoreTop, oppScore = bottom ? scoreTop : scoreBottom
        let e = motion(s, side: side, k)
        return PongObservation(
            f0: e.ownX,
            f1: L.min(ownDepth * invDepth, 1),
            f2: e.oppX,
            f3: L.min(oppDepth * invDepth, 1),
            f4: e.ballX, f5: e.ballY, f6: e.vx, f7: e.vy,
            f8: (s.x - ownX) * invW * m,
            f9: L.min(speed * invS, 1),
            f10: ownScore * invMax,
            f11: oppScore * invMax)
    }

    /// Entries 0, 2 and 4–7 of ``observation(_:speed:scoreBottom:scoreTop:side:_:)``
    /// (its own lines): the paddles' x and the ball's position and velocity.
    @inlinable @inline(__always)
    func motion<K: PongRuleValues>(_ s: PongFrame<K.L>, side: PongSide, _ k: K) -> PongMotion<K.L> {
        typealias L = K.L
        let (cx, cy, invCX, invCY, _, _, _, _, _) = observationScales
        let invV = k.invV(self)
        let m = side.mirror
        let bottom = side == .bottom
        let ownX = bottom ? s.bx : s.tx, oppX = bottom ? s.tx : s.bx
        return PongMotion(
            ownX: (ownX - cx) * invCX * m,
            oppX: (oppX - cx) * invCX * m,
            ballX: (s.x - cx) * invCX * m,
            ballY: L.min(L.max((s.y - cy) * invCY * m, -1), 1),
            vx: L.min(L.max(s.vx * invV * m, -1), 1),
            vy: L.min(L.max(s.vy * invV * m, -0.5), 0.5))
    }
}

/// Observation entries 0, 2 and 4–7 of one game or eight, one side's view:
/// what an agent reading the batch's state steers by (the built-in tracker).
public struct PongMotion<L: LaneFloat> {
    /// Entries 0 and 2: the own and the opponent's paddle x.
    public var ownX, oppX: L
    /// Entries 4–7: the ball's x, y, vx and vy.
    public var ballX, ballY, vx, vy: L

    @inlinable @inline(__always)
    init(ownX: L, oppX: L, ballX: L, ballY: L, vx: L, vy: L) {
        self.ownX = ownX; self.oppX = oppX; self.ballX = ballX; self.ballY = ballY; self.vx = vx; self.vy = vy
    }
}

/// The twelve observation entries of one game or eight (entry `k` in `fk`).
public struct PongObservation<L: LaneFloat> {
    public var f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11: L

    @inlinable @inline(__always)
    init(f0: L, f1: L, f2: L, f3: L, f4: L, f5: L, f6: L, f7: L, f8: L, f9: L, f10: L, f11: L) {
        self.f0 = f0; self.f1 = f1; self.f2 = f2; self.f3 = f3; self.f4 = f4; self.f5 = f5
        self.f6 = f6; self.f7 = f7; self.f8 = f8; self.f9 = f9; self.f10 = f10; self.f11 = f11
    }
}
