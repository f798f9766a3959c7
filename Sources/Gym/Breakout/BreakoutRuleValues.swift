/// Where Breakout's kernels (BreakoutKernels.swift, the observation's
/// entries) read the rule values a variant key (``BreakoutConfig/variantKeys``)
/// can change, for one game or eight (one per lane), so that eight games
/// under their own rules (``VectorEnvironment/reset(_:seed:rules:)``, a
/// ``RuleContext``) step and observe in one set of lanes: ``SameRules``
/// reads the physics' own (one game, or eight under the same rules: nothing
/// to pass, the same code as constants), ``BreakoutRuleLanes`` holds eight
/// games' values. The paddle's width is each game's state
/// (``BreakoutCore/paddleHalfWidth``); every other constant the lanes read
/// is the physics' (the field, the ball's size, the paddle's height and
/// inset, the serve and the limits are the same for every game of a batch).
@usableFromInline
protocol BreakoutRuleValues {
    associatedtype L: LaneFloat
    /// The paddle's speed (units/frame).
    func paddleSpeed(_ p: BreakoutPhysics) -> L
    /// Gravity (units/frame², 0 or more), and whether some lane's and every
    /// lane's is above 0: the kernels take gravity's path only where some is.
    func gravity(_ p: BreakoutPhysics) -> L
    func someGravity(_ p: BreakoutPhysics) -> Bool
    func allGravity(_ p: BreakoutPhysics) -> Bool
    /// The top ball speed (units/frame), its square and its reciprocal (the
    /// observation's scale of speeds).
    func maxSpeed(_ p: BreakoutPhysics) -> L
    func maxSpeedSquared(_ p: BreakoutPhysics) -> L
    func invMaxSpeed(_ p: BreakoutPhysics) -> L
    /// The push's impulse (units/frame, 0: no push), and whether some lane's
    /// and every lane's is above 0.
    func pushImpulse(_ p: BreakoutPhysics) -> L
    func somePush(_ p: BreakoutPhysics) -> Bool
    func allPush(_ p: BreakoutPhysics) -> Bool
    /// The lives an episode starts with, as a float (the observation's scale of lives).
    func lives(_ p: BreakoutPhysics) -> L
}

extension SameRules: BreakoutRuleValues {
    @inlinable @inline(__always) func paddleSpeed(_ p: BreakoutPhysics) -> L { L(repeating: p.paddleSpeed) }
    @inlinable @inline(__always) func gravity(_ p: BreakoutPhysics) -> L { L(repeating: p.gravity) }
    @inlinable @inline(__always) func someGravity(_ p: BreakoutPhysics) -> Bool { p.gravity > 0 }
    @inlinable @inline(__always) func allGravity(_ p: BreakoutPhysics) -> Bool { p.gravity > 0 }
    @inlinable @inline(__always) func maxSpeed(_ p: BreakoutPhysics) -> L { L(repeating: p.maxSpeed) }
    @inlinable @inline(__always) func maxSpeedSquared(_ p: BreakoutPhysics) -> L { L(repeating: p.maxSpeedSquared) }
    @inlinable @inline(__always) func invMaxSpeed(_ p: BreakoutPhysics) -> L { L(repeating: 1 / p.maxSpeed) }
    @inlinable @inline(__always) func pushImpulse(_ p: BreakoutPhysics) -> L { L(repeating: p.pushImpulse) }
    @inlinable @inline(__always) func somePush(_ p: BreakoutPhysics) -> Bool { p.pushImpulse > 0 }
    @inlinable @inline(__always) func allPush(_ p: BreakoutPhysics) -> Bool { p.pushImpulse > 0 }
    @inlinable @inline(__always) func lives(_ p: BreakoutPhysics) -> L { L(repeating: Float(p.config.lives)) }
}

/// Eight games' rule values (or one game's), each its own physics' values
/// (in the order of ``BreakoutRuleLanes/count`` columns: the batch keeps
/// them so, see ``BreakoutBatch``).
@usableFromInline
struct BreakoutRuleLanes<L: LaneFloat>: BreakoutRuleValues {
    @usableFromInline var paddleSpeed, gravity, maxSpeed, maxSpeedSquared, invMaxSpeed, pushImpulse, lives: L

    /// The values' count (columns of a batch).
    static var count: Int { 7 }

    @inlinable @inline(__always)
    init(paddleSpeed: L, gravity: L, maxSpeed: L, maxSpeedSquared: L, invMaxSpeed: L, pushImpulse: L, lives: L) {
        self.paddleSpeed = paddleSpeed; self.gravity = gravity; self.maxSpeed = maxSpeed
        self.maxSpeedSquared = maxSpeedSquared; self.invMaxSpeed = invMaxSpeed; self.pushImpulse = pushImpulse
        self.lives = lives
    }

    @inlinable @inline(__always) func paddleSpeed(_: BreakoutPhysics) -> L { paddleSpeed }
    @inlinable @inline(__always) func gravity(_: BreakoutPhysics) -> L { gravity }
    @inlinable @inline(__always) func someGravity(_: BreakoutPhysics) -> Bool { !(gravity .<= 0).holdsEverywhere }
    @inlinable @inline(__always) func allGravity(_: BreakoutPhysics) -> Bool { (gravity .> 0).holdsEverywhere }
    @inlinable @inline(__always) func maxSpeed(_: BreakoutPhysics) -> L { maxSpeed }
    @inlinable @inline(__always) func maxSpeedSquared(_: BreakoutPhysics) -> L { maxSpeedSquared }
    @inlinable @inline(__always) func invMaxSpeed(_: BreakoutPhysics) -> L { invMaxSpeed }
    @inlinable @inline(__always) func pushImpulse(_: BreakoutPhysics) -> L { pushImpulse }
    @inlinable @inline(__always) func somePush(_: BreakoutPhysics) -> Bool { !(pushImpulse .<= 0).holdsEverywhere }
    @inlinable @inline(__always) func allPush(_: BreakoutPhysics) -> Bool { (pushImpulse .> 0).holdsEverywhere }
    @inlinable @inline(__always) func lives(_: BreakoutPhysics) -> L { lives }
}

extension BreakoutRuleLanes: ColumnRuleValues where L == SIMD8<Float> {
    /// The values from ``count`` columns of `stride` floats, entries `i ..< i + 8`.
    @inline(__always)
    init(columns c: UnsafePointer<Float>, stride n: Int, _ i: Int) {
        self.init(paddleSpeed: Lane8.load(c, i), gravity: Lane8.load(c + n, i), maxSpeed: Lane8.load(c + 2 * n, i),
                  maxSpeedSquared: Lane8.load(c + 3 * n, i), invMaxSpeed: Lane8.load(c + 4 * n, i),
                  pushImpulse: Lane8.load(c + 5 * n, i), lives: Lane8.load(c + 6 * n, i))
    }
}

extension BreakoutRuleLanes where L == Float {
    /// One game's values: those of `p`.
    init(_ p: BreakoutPhysics) {
        let r = SameRules<Float>()
        self.init(paddleSpeed: r.paddleSpeed(p), gravity: r.gravity(p), maxSpeed: r.maxSpeed(p),
                  maxSpeedSquared: r.maxSpeedSquared(p), invMaxSpeed: r.invMaxSpeed(p), pushImpulse: r.pushImpulse(p),
                  lives: r.lives(p))
    }

    /// Writes the values into ``count`` columns of `stride` floats, the
    /// `k`-th to `c[k × stride]`.
    func write(into c: UnsafeMutablePointer<Float>, stride n: Int) {
        c[0] = paddleSpeed; c[n] = gravity; c[2 * n] = maxSpeed; c[3 * n] = maxSpeedSquared
        c[4 * n] = invMaxSpeed; c[5 * n] = pushImpulse; c[6 * n] = lives
    }
}

/// Each game of a batch keeps its physics in a ``PerGameRules``, with the
/// rule values of ``BreakoutRuleValues`` as columns, in the order of
/// ``BreakoutRuleLanes``'s fields.
extension BreakoutPhysics: GamePhysics {
    static var ruleColumnCount: Int { BreakoutRuleLanes<Float>.count }

    func writeRuleColumns(_ c: UnsafeMutablePointer<Float>, stride n: Int) {
        BreakoutRuleLanes(self).write(into: c, stride: n)
    }
}
