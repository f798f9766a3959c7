import MallocCounter
import Testing
@testable import Gym

/// The ``VectorEnvironment`` contract, for every game (`@Test(arguments:)`).
@Suite struct VectorContractTests {
    // MARK: - Batch equals the single-game reference

    /// The batch against one reference game per slot, fed the same actions
    /// and restarted as the contract says, in every autoreset mode over long
    /// rollouts of every test config: rewards per seat, flags, end reasons,
    /// events, every seat's observation (final ones too) and every state,
    /// bit for bit, step after step. Explicit resets (`reset(_:seed:)`, and
    /// `reset(mask:seeds:)` with and without seeds) in the middle.
    @Test(arguments: GameUnderTest.allCases, AutoresetMode.allCases)
    func batchEqualsSingleGames(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        try batchEqualsSingles(game.contract, mode)
    }

    func batchEqualsSingles<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws {
        // 13 Pong games: one block of eight lanes and five on the scalar path.
        let count = G.self == PongContract.self ? 13 : 5
        let steps = G.self == PongContract.self ? 2000 : 1200
        for (name, config) in try G.testConfigs() {
            let seed: UInt64 = 42 &+ UInt64(name.utf8.count)
            let batch = G.Batch(config: config, count: count, seed: seed, firstIndex: 3, autoresetMode: mode)
            let seats = batch.seats
            var refs = (0 ..< count).map { ReferenceGame<G>(config, batchSeed: seed, globalIndex: 3 + $0) }
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var ended = 0
            var mask = [UInt8](repeating: 0, count: count), seeds = [UInt64](repeating: 0, count: count)
            stepping: for step in 0 ..< steps {
                // Explicit resets: one game now and then; in disabled mode
                // also every finished game, by mask (seeded every other time).
                if step == steps / 3 {
                    batch.reset(1, seed: 777 &+ seed)
                    refs[1].reset(seed: 777 &+ seed)
                }
                if mode == .disabled, step % 97 == 50 {
                    let seeded = step % 2 == 0
                    for i in 0 ..< count {
                        mask[i] = G.isOver(refs[i].game) ? 1 : 0
                        seeds[i] = 1000 &+ UInt64(step * count + i)
                        if mask[i] != 0 { if seeded { refs[i].reset(seed: seeds[i]) } else { refs[i].restart() } }
                    }
                    if seeded { batch.reset(mask: mask, seeds: seeds) } else { batch.reset(mask: mask, seeds: nil) }
                }
                for k in 0 ..< count * seats { b.actions[k] = play.next() }
                b.step(batch)
                for i in 0 ..< count {
                    let (same, done) = b.stepAndCompare(&refs[i], batch, i, mode: mode)
                    if done { ended += 1 }
                    if !same {
                        Issue.record("\(G.name) \(name), \(mode), seed \(seed): game \(i) differs at step \(step)")
                        break stepping
                    }
                }
            }
            if name.hasPrefix("short") { #expect(ended > 0, "\(G.name) \(name) \(mode): no episode ended, autoreset untested") }
        }
    }

    /// A game reset with seed `s` plays the same episodes, restarts
    /// included, alone in a batch of one and at any position of a larger
    /// batch, whatever it played before (the contract's seed rule, which
    /// Python's vector of single environments relies on).
    @Test(arguments: GameUnderTest.allCases, [AutoresetMode.sameStep, .nextStep])
    func resetGameReplaysAloneOrInABatch(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        try resetReplays(game.contract, mode)
    }

    func resetReplays<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws {
        let (name, config) = try G.shortConfig()
        let alone = G.Batch(config: config, count: 1, seed: 1, firstIndex: 0, autoresetMode: mode)
        let many = G.Batch(config: config, count: 9, seed: 2, firstIndex: 4, autoresetMode: mode)
        let a = VectorBuffers(alone), m = VectorBuffers(many)
        var play = ContractPlay(seed: 3, actions: alone.actionCount)
        // Different histories first.
        for _ in 0 ..< 150 {
            m.drawActions(&play)
            m.step(many)
        }
        alone.reset(0, seed: 4242)
        many.reset(5, seed: 4242)
        var restarts = 0
        for step in 0 ..< 2500 {
            m.drawActions(&play)
            for s in 0 ..< alone.seats { a.actions[s] = m.actions[5 * many.seats + s] }
            a.step(alone); m.step(many)
            let same = a.sameStep(0, as: m, 5) && G.state(alone, 0) == G.state(many, 5)
            if a.terminated[0] | a.truncated[0] != 0 { restarts += 1 }
            guard same else {
                Issue.record("\(G.name) \(name) \(mode): the reset game differs at step \(step)")
                return
            }
        }
        #expect(restarts > 1, "\(G.name) \(name) \(mode): too few restarts to test the restart stream")
    }

    /// A game reset with stream `r` (``VectorEnvironment/reset(_:stream:)``)
    /// plays the episodes of a batch's game whose stream is `r` from its
    /// start, restarts included, whatever it played before; its restart
    /// stream, copied with a snapshot into another batch, continues there
    /// identically (what the C ABI's seeds and snapshots rely on).
    @Test(arguments: GameUnderTest.allCases, [AutoresetMode.sameStep, .nextStep])
    func streamResetReplaysTheStream(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        try streamReplays(game.contract, mode)
    }

    func streamReplays<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws {
        let (name, config) = try G.shortConfig()
        let reference = G.Batch(config: config, count: 1, seed: 77, firstIndex: 6, autoresetMode: mode)
        let r = Seeds.stream(77, 6)
        #expect(reference.restartStream(0) == RestartStream(runSeed: r, next: 1))
        let many = G.Batch(config: config, count: 9, seed: 2, firstIndex: 0, autoresetMode: mode)
        let other = G.Batch(config: config, count: 3, seed: 5, firstIndex: 0, autoresetMode: mode)
        let a = VectorBuffers(reference), m = VectorBuffers(many), o = VectorBuffers(other)
        var play = ContractPlay(seed: 3, actions: many.actionCount)
        for _ in 0 ..< 150 {
            m.drawActions(&play)
            m.step(many)
        }
        many.reset(5, stream: r)
        #expect(many.restartStream(5) == RestartStream(runSeed: r, next: 1))
        #expect(many.restartStream(5).lastEpisodeSeed == Seeds.episode(runSeed: r, index: 0))
        let seats = many.seats
        var restarts = 0
        for step in 0 ..< 2500 {
            if step == 1200 {
                try other.restore(many.snapshot(5), into: 1)
                other.setRestartStream(many.restartStream(5), 1)
            }
            m.drawActions(&play)
            o.drawActions(&play)
            for s in 0 ..< seats {
                a.actions[s] = m.actions[5 * seats + s]
                o.actions[seats + s] = m.actions[5 * seats + s]
            }
            a.step(reference); m.step(many); o.step(other)
            var same = a.sameStep(0, as: m, 5) && G.state(reference, 0) == G.state(many, 5)
            if step >= 1200 {
                same = same && (0 ..< seats).allSatisfy { o.observation(1, $0) == a.observation(0, $0) }
                    && G.state(other, 1) == G.state(reference, 0)
            }
            if a.terminated[0] | a.truncated[0] != 0 { restarts += 1 }
            guard same else {
                Issue.record("\(G.name) \(name) \(mode): the stream-reset game differs at step \(step)")
                return
            }
        }
        #expect(restarts > 2, "\(G.name) \(name) \(mode): too few restarts to test the restart stream")
    }

    // MARK: - Determinism

    /// The same seeds and actions give bit-identical games whatever the
    /// batch size or a game's position in it: a slice (`firstIndex`) of a
    /// batch replays exactly the whole batch's games (what parallel workers
    /// rely on).
    @Test(arguments: GameUnderTest.allCases)
    func slicesReplayTheWholeBatch(_ game: GameUnderTest) throws {
        try slicesReplay(game.contract)
    }

    func slicesReplay<G: ContractGame>(_: G.Type) throws {
        for (name, config) in try G.testConfigs() where name.hasPrefix("short") {
            for seed: UInt64 in [1, 2] {
                let whole = G.Batch(config: config, count: 11, seed: seed, firstIndex: 0, autoresetMode: .sameStep)
                let parts = [G.Batch(config: config, count: 4, seed: seed, firstIndex: 0, autoresetMode: .sameStep),
                             G.Batch(config: config, count: 7, seed: seed, firstIndex: 4, autoresetMode: .sameStep)]
                let wb = VectorBuffers(whole), pb = parts.map { VectorBuffers($0) }
                let seats = whole.seats
                var play = ContractPlay(seed: seed, actions: whole.actionCount)
                var restarts = 0
                for _ in 0 ..< 1200 {
                    for k in 0 ..< 11 * seats { wb.actions[k] = play.next() }
                    for k in 0 ..< 4 * seats { pb[0].actions[k] = wb.actions[k] }
                    for k in 0 ..< 7 * seats { pb[1].actions[k] = wb.actions[4 * seats + k] }
                    wb.step(whole); pb[0].step(parts[0]); pb[1].step(parts[1])
                    for i in 0 ..< 11 where wb.terminated[i] | wb.truncated[i] != 0 { restarts += 1 }
                }
                for i in 0 ..< 11 {
                    let (p, j) = i < 4 ? (0, i) : (1, i - 4)
                    #expect(G.state(whole, i) == G.state(parts[p], j), "\(G.name) \(name) seed \(seed) game \(i)")
                }
                #expect(restarts > 0, "\(G.name) \(name) seed \(seed): no restart happened")
            }
        }
    }

    // MARK: - Snapshots

    /// Restoring snapshots (into the same batch and into another batch's
    /// slot) continues bit-identically; a rendered game is the reference
    /// game's picture; another config's snapshot is refused.
    @Test(arguments: GameUnderTest.allCases)
    func snapshotRestoreContinuesBitIdentically(_ game: GameUnderTest) throws {
        try snapshotRestore(game.contract)
    }

    func snapshotRestore<G: ContractGame>(_: G.Type) throws {
        let configs = try G.testConfigs()
        for (name, config) in configs {
            let batch = G.Batch(config: config, count: 4, seed: 5, firstIndex: 0, autoresetMode: .disabled)
            let other = G.Batch(config: config, count: 3, seed: 99, firstIndex: 0, autoresetMode: .disabled)
            let b = VectorBuffers(batch), o = VectorBuffers(other)
            let seats = batch.seats
            var play = ContractPlay(seed: 5, actions: batch.actionCount)
            for _ in 0 ..< 200 {
                for k in 0 ..< 4 * seats { b.actions[k] = play.next() }
                b.step(batch)
            }
            let saved = (0 ..< 4).map { batch.snapshot($0) }
            try other.restore(saved[2], into: 1)
            var actions: [[Int32]] = []
            var before: [[UInt32]] = []
            for _ in 0 ..< 300 {
                for k in 0 ..< 4 * seats { b.actions[k] = play.next() }
                for s in 0 ..< seats { o.actions[seats + s] = b.actions[2 * seats + s] }
                actions.append(Array(b.actions))
                b.step(batch); o.step(other)
                before.append((0 ..< 4 * seats).map { b.rewards[$0].bitPattern } + b.observation(2, 0))
                guard G.state(other, 1) == G.state(batch, 2), o.observation(1, 0) == b.observation(2, 0) else {
                    Issue.record("\(G.name) \(name): the restored slot diverged"); return
                }
            }
            for i in 0 ..< 4 { try batch.restore(saved[i], into: i) }
            for (t, a) in actions.enumerated() {
                for k in a.indices { b.actions[k] = a[k] }
                b.step(batch)
                guard (0 ..< 4 * seats).map({ b.rewards[$0].bitPattern }) + b.observation(2, 0) == before[t] else {
                    Issue.record("\(G.name) \(name): the restored batch diverged at step \(t)"); return
                }
            }
            var frame = G.frame(config), expected = G.frame(config)
            batch.render(2, into: &frame)
            let single = G.single(restoring: batch, 2)
            G.render(single, into: &expected)
            #expect(frame.pixels == expected.pixels, "\(G.name) \(name): render differs from the reference game's")
        }
        // A snapshot of another config is refused, and changes nothing.
        let (_, first) = configs[0], (_, last) = configs[configs.count - 1]
        let a = G.Batch(config: first, count: 2, seed: 1, firstIndex: 0, autoresetMode: .sameStep)
        let foreign = G.Batch(config: last, count: 1, seed: 1, firstIndex: 0, autoresetMode: .sameStep).snapshot(0)
        let kept = G.state(a, 0)
        #expect(throws: SnapshotError.self) { try a.restore(foreign, into: 0) }
        #expect(G.state(a, 0) == kept)
    }

    // MARK: - Bounds

    /// Every observation of every seat lies inside the bounds the game's
    /// layout declares, over long rollouts of every preset and of every
    /// config field at either end of its range (random play, frames and
    /// restarts included).
    @Test(arguments: GameUnderTest.allCases)
    func observationsStayInsideTheLayoutBounds(_ game: GameUnderTest) throws {
        try bounds(game.contract)
    }

    func bounds<G: ContractGame>(_: G.Type) throws {
        var violations: [Int: String] = [:]
        // (Observations start as NaN in the buffers: the first step's
        // actions follow nothing, `follow` then picks the no-op.)
        let configs = try G.testConfigs() + edgeConfigs(G.Batch.Config.self)
        for (name, config) in configs {
            let batch = G.Batch(config: config, count: 8, seed: 11, firstIndex: 0, autoresetMode: .sameStep)
            let layout = batch.observationLayout
            #expect(layout.count == layout.lower.count && layout.count == layout.upper.count)
            let b = VectorBuffers(batch)
            var play = ContractPlay(seed: 12, actions: batch.actionCount)
            let n = layout.count, rows = 8 * batch.seats
            for _ in 0 ..< 400 {
                // Mostly following the ball (long rallies, high speeds), now and then random.
                for k in 0 ..< rows {
                    let random = play.next()
                    b.actions[k] = play.rng.below(5) == 0 ? random : G.follow(b.observations.baseAddress.unsafelyUnwrapped + k * n)
                }
                b.step(batch)
                for r in 0 ..< rows {
                    for k in 0 ..< n {
                        let x = b.observations[r * n + k]
                        if !(x >= layout.lower[k] && x <= layout.upper[k]), violations[k] == nil {
                            violations[k] = "\(name): \(x) outside [\(layout.lower[k]), \(layout.upper[k])]"
                        }
                    }
                }
            }
        }
        for (k, what) in violations.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(G.name) observation index \(k) leaves its declared bounds: \(what)")
        }
    }

    // MARK: - Allocation

    /// `step` allocates nothing, every output buffer requested, in every
    /// autoreset mode, restarts included (this thread's malloc calls).
    @Test(arguments: GameUnderTest.allCases, AutoresetMode.allCases)
    func stepAllocatesNothing(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        try allocations(game.contract, mode)
    }

    func allocations<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        for (name, config) in try G.testConfigs() where name.hasPrefix("short") || name == "extreme" {
            let batch = G.Batch(config: config, count: 16, seed: 3, firstIndex: 0, autoresetMode: mode)
            let b = VectorBuffers(batch)
            var play = ContractPlay(seed: 3, actions: batch.actionCount)
            var total: UInt64 = 0
            var ended = 0
            let mask = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16)
            defer { mask.deallocate() }
            // A first pass uncounted: the runtime's one-time work (generic
            // metadata of a path's first use, in a debug build) is not the step's.
            for pass in 0 ..< 2 {
                for _ in 0 ..< 700 {
                    for k in 0 ..< 16 * batch.seats { b.actions[k] = play.next() }
                    for i in 0 ..< 16 { mask[i] = b.terminated[i] | b.truncated[i] == 1 ? 1 : 0 }
                    malloc_counter_start_thread()
                    b.step(batch)
                    if mode == .disabled, let m = mask.baseAddress { batch.reset(mask: m, seeds: nil) }
                    let n = malloc_counter_stop_thread()
                    if pass == 1 {
                        total += n
                        for i in 0 ..< 16 where b.terminated[i] | b.truncated[i] != 0 { ended += 1 }
                    }
                }
            }
            #expect(total == 0, "\(G.name) \(name) \(mode): \(total) allocations in 700 steps")
            #expect(ended > 0, "\(G.name) \(name) \(mode): no episode ended")
        }
    }

    // MARK: - Fast paths are taken

    /// Pong's quiet-frame paths carry most frames of random play, at one
    /// frame per step and with frame skip and sticky actions, the band
    /// form (balls far from both paddles) many of those and, without
    /// vertical movement, the flat form nearly all of them; with sticky
    /// actions the draws are made lane-wise (they are what
    /// makes the batch fast; the games would be right without them, so only
    /// this test notices one is gone).
    @Test(arguments: ["classic", "classic-skip4", "classic-skip8", "ale", "touch-sticky"])
    func pongQuietPathCarriesMostFrames(_ name: String) throws {
        var config = try PongConfig.preset(name.hasPrefix("classic") ? "classic" : name.hasPrefix("touch") ? "touch" : name)
        if name == "classic-skip4" { config.frameSkip = 4 }
        if name == "classic-skip8" { config.frameSkip = 8 }
        if name == "touch-sticky" { config.stickyActionProbability = 0.25 }
        let batch = PongBatch(config: config, count: 64, seed: 1)
        let b = VectorBuffers(batch, observedSeats: 1)
        var play = ContractPlay(seed: 1, actions: batch.actionCount)
        let steps = 300
        for _ in 0 ..< steps {
            for k in 0 ..< 128 { b.actions[k] = play.next() }
            b.step(batch)
        }
        let frames = 64 * steps * config.frameSkip
        #expect(batch.quietFrames > frames * 8 / 10, "\(name): quiet frames \(batch.quietFrames) of \(frames)")
        // With vertical movement the paddles may advance to the centre
        // line, and the band where no paddle reaches is thin.
        #expect(batch.bandFrames > (config.verticalMovement ? 0 : batch.quietFrames / 4),
                "\(name): band frames \(batch.bandFrames) of \(batch.quietFrames) quiet")
        // Without vertical movement the paddles never leave their heights,
        // and the flat form carries the quiet frames; with it, the heights
        // move and the flat form must not be taken.
        if config.verticalMovement {
            #expect(batch.flatFrames == 0, "\(name): flat frames \(batch.flatFrames) with vertical movement")
        } else {
            #expect(batch.flatFrames > batch.quietFrames * 9 / 10,
                    "\(name): flat frames \(batch.flatFrames) of \(batch.quietFrames) quiet")
        }
        // With sticky actions every frame's draws are made lane-wise (64
        // games: eight whole blocks, none on the scalar path).
        if config.stickyActionProbability > 0 {
            #expect(batch.laneDrawFrames > frames * 9 / 10, "\(name): lane-wise draws for \(batch.laneDrawFrames) of \(frames) frames")
        } else {
            #expect(batch.laneDrawFrames == 0, "\(name): lane-wise draws \(batch.laneDrawFrames) without sticky actions")
        }
    }

    /// `observedSeats` narrows the observations to the first seats, with
    /// the same rows as a full observation.
    @Test func pongObservedSeatsNarrowsTheRows() {
        let all = PongBatch(config: PongConfig(), count: 11, seed: 4)
        let one = PongBatch(config: PongConfig(), count: 11, seed: 4)
        let a = VectorBuffers(all), o = VectorBuffers(one, observedSeats: 1)
        var play = ContractPlay(seed: 4, actions: 3)
        for step in 0 ..< 300 {
            for k in 0 ..< 22 { a.actions[k] = play.next(); o.actions[k] = a.actions[k] }
            a.step(all); o.step(one)
            guard (0 ..< 11).allSatisfy({ a.observation($0, 0) == o.observation($0, 0) }) else {
                Issue.record("rows differ at step \(step)"); return
            }
        }
    }
}
