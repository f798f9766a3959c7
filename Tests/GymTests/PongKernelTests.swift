import Testing
@testable import Gym

/// Pong's per-frame kernels (PongKernels.swift) against the rules they
/// stand for: the quiet frame against the full contact loop, and the
/// eight-lane forms against the one-game form, lane by lane, bit for bit.
@Suite struct PongKernelTests {
    static func configs() throws -> [(String, PongConfig)] {
        try PongConfig.presetNames.map { ($0, try PongConfig.preset($0)) } + [("extreme", PongCollisionTests.extreme)]
    }

    /// The states of random play (`frames` frames from `seed`), each with
    /// the actions of the frame that follows it; actions include values
    /// outside the game's range (they act as stay).
    static func frames(_ physics: PongPhysics, seed: UInt64, frames: Int) -> [(PongState, Int, Int)] {
        var s = physics.initialState(seed: seed)
        var play = Xoshiro256(seed: seed &+ 99)
        let actions = physics.config.verticalMovement ? 5 : 3
        var out: [(PongState, Int, Int)] = []
        for _ in 0 ..< frames {
            let pick = { (r: inout Xoshiro256) -> Int in r.below(16) == 0 ? 300 + r.below(3) : r.below(actions) }
            let b = pick(&play), t = pick(&play)
            out.append((s, b, t))
            var e = PongEvents()
            _ = physics.tick(&s, bottom: b, top: t, events: &e)
        }
        return out
    }

    /// Wherever the quiet test says no contact can happen, the contact
    /// loop finds none and ends where the quiet frame does, bit for bit;
    /// and the test is clear in most frames (it is not vacuous).
    @Test func quietFrameIsTheContactLoopBitForBit() throws {
        for (name, config) in try Self.configs() {
            let physics = PongPhysics(config: config)
            var clearFrames = 0, total = 0
            for seed in 0 ..< 3 as Range<UInt64> {
                for (s, b, t) in Self.frames(physics, seed: seed, frames: 6000) {
                    let (next, clear) = physics.frame(PongFrame(s), physics.moves(bottom: Float(b), top: Float(t), SameRules<Float>()),
                                                      ExactFrame.self, SameRules<Float>())
                    total += 1
                    guard clear.isSet else { continue }
                    clearFrames += 1
                    var full = s
                    var events = PongEvents()
                    physics.resolveContacts(&full, bottomTarget: Vec2(next.bx, next.by), topTarget: Vec2(next.tx, next.ty),
                                            events: &events)
                    var quiet = s
                    quiet.ballX = next.x; quiet.ballY = next.y
                    quiet.bottomX = next.bx; quiet.bottomY = next.by; quiet.topX = next.tx; quiet.topY = next.ty
                    guard quiet == full, events == PongEvents() else {
                        Issue.record("\(name) seed \(seed): a clear frame differs from the contact loop")
                        break
                    }
                }
            }
            #expect(clearFrames * 2 > total, "\(name): \(clearFrames) of \(total) frames clear")
        }
    }

    /// The eight-lane kernels give each lane the one-game kernels' bits:
    /// moves, the frame after (every form where it applies), the quiet
    /// test, the points test and both sides' observations.
    @Test func laneKernelsAreTheScalarKernelsLaneByLane() throws {
        for (name, config) in try Self.configs() {
            let physics = PongPhysics(config: config)
            let band = physics.quietBand
            let states = (0 ..< 8 as Range<UInt64>).map { Self.frames(physics, seed: $0, frames: 800) }
            for k in 0 ..< 800 {
                let rows = states.map { $0[k] }
                func lanes(_ f: (PongState) -> Float) -> SIMD8<Float> {
                    SIMD8(rows.map { f($0.0) })
                }
                let s = PongFrame(x: lanes(\.ballX), y: lanes(\.ballY), vx: lanes(\.ballVX), vy: lanes(\.ballVY),
                                  bx: lanes(\.bottomX), by: lanes(\.bottomY), tx: lanes(\.topX), ty: lanes(\.topY))
                let k = SameRules<SIMD8<Float>>()
                let m = physics.moves(bottom: SIMD8(rows.map { Float($0.1) }), top: SIMD8(rows.map { Float($0.2) }), k)
                let (next, clear) = physics.frame(s, m, ExactFrame.self, k)
                let (bandNext, bandClear) = physics.frame(s, m, BandFrame.self, k)
                let inField = physics.inField(next.y)
                let sides = PongSide.allCases.map {
                    physics.observation(s, speed: lanes(\.speed), scoreBottom: lanes { Float($0.scoreBottom) },
                                        scoreTop: lanes { Float($0.scoreTop) }, side: $0, k)
                }
                for g in 0 ..< 8 {
                    let (state, b, t) = rows[g]
                    let one = PongFrame(state)
                    let (n1, c1) = physics.frame(one, physics.moves(bottom: Float(b), top: Float(t), SameRules<Float>()),
                                                 ExactFrame.self, SameRules<Float>())
                    let same = [n1.x, n1.y, n1.bx, n1.by, n1.tx, n1.ty].map(\.bitPattern)
                        == [next.x[g], next.y[g], next.bx[g], next.by[g], next.tx[g], next.ty[g]].map(\.bitPattern)
                    #expect(same && c1.isSet == clear[g] && physics.inField(n1.y).isSet == inField[g],
                            "\(name) frame \(k) lane \(g): the lane frame differs")
                    // The band form: the same positions; inside the band its
                    // wall test alone is the exact test with no point.
                    #expect(bandNext.x[g] == n1.x && bandNext.y[g] == n1.y, "\(name) frame \(k) lane \(g): band positions")
                    if state.ballY - abs(state.ballVY) >= band.low && state.ballY + abs(state.ballVY) <= band.high {
                        #expect(bandClear[g] == (c1 .& physics.inField(n1.y)).isSet, "\(name) frame \(k) lane \(g): band test")
                    }
                    for side in PongSide.allCases {
                        var o = [Float](repeating: 0, count: PongPhysics.observationCount)
                        physics.observe(state, side: side, into: &o)
                        let f = sides[side.rawValue]
                        let lane = [f.f0, f.f1, f.f2, f.f3, f.f4, f.f5, f.f6, f.f7, f.f8, f.f9, f.f10, f.f11].map { $0[g] }
                        #expect(o.map(\.bitPattern) == lane.map(\.bitPattern), "\(name) frame \(k) lane \(g) \(side)")
                    }
                }
            }
        }
    }

    /// The action signs, in both widths: `sign(plus:minus:)` is -1 where
    /// `minus` holds (whatever `plus`), else +1 where `plus` holds, else 0,
    /// and the moves' tables (1 → -1, 2 → +1; 3 → +1, 4 → -1; anything
    /// else 0) hold lane by lane for in- and out-of-range actions.
    @Test func actionSignsAreTheSameInBothWidths() {
        for plus in [false, true] {
            for minus in [false, true] {
                let want: Float = minus ? -1 : plus ? 1 : 0
                let one = Float.sign(plus: LaneFlag(plus), minus: LaneFlag(minus))
                let lanes = SIMD8<Float>.sign(plus: SIMDMask(repeating: plus), minus: SIMDMask(repeating: minus))
                #expect(one.bitPattern == want.bitPattern && lanes[3].bitPattern == want.bitPattern,
                        "sign(plus: \(plus), minus: \(minus)): \(one), \(lanes[3]); want \(want)")
            }
        }
        let actions: [Float] = [-1, 0, 1, 2, 3, 4, 5, 300]
        let table: [Float: (Float, Float)] = [1: (-1, 0), 2: (1, 0), 3: (0, 1), 4: (0, -1)]
        for a in actions {
            let want = table[a] ?? (0, 0)
            let h = PongPhysics.horizontal(a), v = PongPhysics.vertical(a)
            let hl = PongPhysics.horizontal(SIMD8(repeating: a)), vl = PongPhysics.vertical(SIMD8(repeating: a))
            #expect([h, v, hl[5], vl[5]].map(\.bitPattern) == [want.0, want.1, want.0, want.1].map(\.bitPattern),
                    "action \(a): horizontal \(h), \(hl[5]), vertical \(v), \(vl[5]); want \(want)")
        }
    }

    /// The sticky-action kernel is the rule as first written, one game at
    /// a time (per frame bottom then top: keep the previous action's byte
    /// where ``Xoshiro256/chance(_:)`` says so, else take the chosen one),
    /// and its four-lane form (``GeneratorLanes``) draws each lane's
    /// numbers and gives each lane's actions and generator bit for bit.
    @Test func stickyDrawsAreTheRuleInBothWidths() {
        var play = Xoshiro256(seed: 7)
        var kept = 0
        for p in [Float(0), 0.25, 0.5, 0x1p-20, 1] {
            for seed in 0 ..< 64 as Range<UInt64> {
                var games = (0 ..< 4).map { Xoshiro256(seed: seed &* 4 &+ UInt64($0)) }
                var reference = games
                var lanes = GeneratorLanes(SIMD4(games.map(\.s0)), SIMD4(games.map(\.s1)),
                                           SIMD4(games.map(\.s2)), SIMD4(games.map(\.s3)))
                // Actions include values outside any game's range and past a byte.
                let pick = { (r: inout Xoshiro256) -> Int in r.below(8) == 0 ? 250 + r.below(20) : r.below(5) }
                var last = (0 ..< 4).map { _ in (pick(&play) & 0xFF, pick(&play) & 0xFF) }
                var laneLast = (SIMD4<Int32>(last.map { Int32($0.0) }), SIMD4<Int32>(last.map { Int32($0.1) }))
                for _ in 0 ..< 8 {
                    let chosen = (0 ..< 4).map { _ in (pick(&play), pick(&play)) }
                    laneLast = PongPhysics.stickyActions(&lanes, chosen: (SIMD4(chosen.map { Int32($0.0) }), SIMD4(chosen.map { Int32($0.1) })),
                                                         last: laneLast, scaled: p * 0x1p24, .standard)
                    for g in 0 ..< 4 {
                        let (b, t) = PongPhysics.stickyActions(&games[g].words, chosen: chosen[g], last: last[g],
                                                               scaled: p * 0x1p24, .standard)
                        let keepB = reference[g].chance(p), keepT = reference[g].chance(p)
                        #expect(b == (keepB ? last[g].0 & 0xFF : chosen[g].0) && t == (keepT ? last[g].1 & 0xFF : chosen[g].1),
                                "p \(p) seed \(seed) game \(g)")
                        #expect(Int(laneLast.0[g]) == b && Int(laneLast.1[g]) == t, "p \(p) seed \(seed) lane \(g)")
                        kept += (keepB ? 1 : 0) + (keepT ? 1 : 0)
                        last[g] = (b, t)
                    }
                }
                for g in 0 ..< 4 {
                    #expect(games[g] == reference[g], "p \(p) seed \(seed) game \(g): generator")
                    #expect(Xoshiro256(words: lanes.s0[g], lanes.s1[g], lanes.s2[g], lanes.s3[g]) == games[g],
                            "p \(p) seed \(seed) lane \(g): generator")
                }
            }
        }
        #expect(kept > 0, "no draw kept an action")
    }
}
