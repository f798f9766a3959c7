import Foundation
import Gym
import Synchronization

/// One environment behind a handle: N games of one kind (a Gym
/// ``VectorEnvironment`` behind a ``GameAdapter``) and the caller's bound
/// buffers.
///
/// ## Seeds and autoreset
/// The batch's own: game `i`'s restart stream starts at `seed + i` at
/// creation and at `s` on a reset with seed `s`
/// (``VectorEnvironment/reset(_:stream:)``), a reset without a seed and
/// every automatic restart play the stream's next episode, so episode `e`
/// of stream `r` plays `Seeds.episode(runSeed: r, index: e)`, as
/// `gym-train eval --seed r` seeds its episode `e`. Next-step and disabled
/// are the batch's modes. Same-step runs the batch in next-step mode and
/// restarts the games that ended right after the step with
/// ``VectorEnvironment/reset(mask:seeds:)`` (their streams' next episodes:
/// the episodes a same-step batch plays), because the caller is owed the
/// ended episode's final pixels and scores, which a same-step batch
/// replaces inside its step.
final class Session: @unchecked Sendable {
    /// Buffer slots a caller binds (``bind(_:address:bytes:)``).
    enum Slot: Int32, CaseIterable {
        case actions = 0, observations, pixels, rewards, terminated, truncated, ends, events, scores,
             finalObservations, finalPixels
    }

    let lock = Mutex(())
    let config: EnvConfig
    let games: any GameAdapter
    let count: Int, seats: Int, obsCount: Int
    let kind: UInt8
    /// The caller's buffers, indexed by ``Slot/rawValue`` (nil: not bound).
    var bound: [UnsafeMutableRawPointer?] = Array(repeating: nil, count: Slot.allCases.count)
    var ends: [UInt8]
    /// Scratch (`count × seats` each) for the buffers bound in a type other
    /// than the game's (``EnvConfig/ActionDType``, ``EnvConfig/RewardDType``):
    /// int64 actions narrowed to the game's Int32 after their check, Float
    /// rewards before they are widened into a float64 buffer. Buffers bound
    /// in the game's own types (int32, float32) are read and written in place.
    let stepActions: UnsafeMutablePointer<Int32>
    let stepRewards: UnsafeMutablePointer<Float>
    /// Scratch: the games a reset or a same-step restart concerns.
    var mask: [UInt8]
    /// Pixel observations stacked over steps (nil: `frame_stack` 1, each
    /// step's frame drawn straight into the caller's buffer).
    let stack: FrameStack?
    /// One seat's pixel observation (its frame, or its stack of frames).
    var pixelBytes: Int { config.pixelSize.byteCount * config.frameStack }

    init(_ c: EnvConfig) throws(ABIError) {
        config = c
        let batchMode: AutoresetMode = c.autoreset == .disabled ? .disabled : .nextStep
        switch c.game {
        case .pong:
            let pc: PongConfig
            do { pc = try PongConfig.decode(c.gameConfig, source: "config.config") } catch {
                throw ABIError(.badConfig, error.description)
            }
            games = try ContextAdapter.games(c, base: pc, make: { (config: PongConfig, context: RuleContext<PongConfig>?) throws(ABIError) in
                try PongAdapter(config: config, count: c.numGames, twoPlayer: c.players == 2,
                                agentSide: c.agentSideTop ? .top : .bottom, opponentSpec: c.opponent,
                                keepHistory: c.opponentHistory ?? (c.numGames == 1), autoresetMode: batchMode,
                                context: context)
            }, rules: { adapter, i in (adapter as? PongAdapter)?.batch.rules(i) ?? pc }, savedConfig: { (bytes: [UInt8]) throws(ABIError) in
                do throws(SnapshotError) { return try PongGame.SavedGame.decode(Data(bytes)).config } catch {
                    throw ABIError(.badSnapshot, "snapshot: \(error.description)")
                }
            })
            kind = c.players == 2 ? 2 : 1
        case .breakout:
            let bc: BreakoutConfig
            do { bc = try BreakoutConfig.decode(c.gameConfig, source: "config.config") } catch {
                throw ABIError(.badConfig, error.description)
            }
            games = try ContextAdapter.games(c, base: bc, make: { (config: BreakoutConfig, context: RuleContext<BreakoutConfig>?) throws(ABIError) in
                BreakoutAdapter(config: config, count: c.numGames, observationSize: c.pixelSize, autoresetMode: batchMode,
                                context: context)
            }, rules: { adapter, i in (adapter as? BreakoutAdapter)?.batch.rules(i) ?? bc }, savedConfig: { (bytes: [UInt8]) throws(ABIError) in
                do throws(SnapshotError) { return try BreakoutGame.SavedGame.decode(Data(bytes)).config } catch {
                    throw ABIError(.badSnapshot, "snapshot: \(error.description)")
                }
            })
            kind = 3
        }
        count = c.numGames
        seats = games.seats
        obsCount = games.layout.count
        ends = Array(repeating: 0, count: c.numGames)
        mask = Array(repeating: 0, count: c.numGames)
        stepActions = .allocate(capacity: c.numGames * seats)
        stepActions.initialize(repeating: 0, count: c.numGames * seats)
        stepRewards = .allocate(capacity: c.numGames * seats)
        stepRewards.initialize(repeating: 0, count: c.numGames * seats)
        stack = c.frameStack > 1 && c.obsType == .pixels
            ? FrameStack(depth: c.frameStack, order: c.channelsOrder, frameBytes: c.pixelSize.byteCount,
                         stacks: c.numGames * seats)
            : nil
        for i in 0 ..< count { try games.reset(i, stream: c.seed &+ UInt64(i)) }
        if let stack {
            // The stacks are pixel observations of every game from the start.
            try games.preparePixels()
            for i in 0 ..< count { advanceStack(stack, game: i, starting: true) }
        }
    }

    deinit {
        stepActions.deallocate()
        stepRewards.deallocate()
    }

    // MARK: - Buffers

    /// Bytes slot `slot` needs.
    func bytes(_ slot: Slot) -> Int {
        switch slot {
        case .actions, .rewards: count * seats * alignment(slot)
        case .observations, .finalObservations: count * seats * obsCount * 4
        case .pixels, .finalPixels: count * seats * pixelBytes
        case .terminated, .truncated, .ends: count
        case .events: count * games.eventCount * 4
        case .scores: count * 2 * 4
        }
    }

    /// The alignment of slot `slot`'s buffer: its element's size.
    func alignment(_ slot: Slot) -> Int {
        switch slot {
        case .pixels, .finalPixels, .terminated, .truncated, .ends: 1
        case .actions: config.actionDType == .int64 ? 8 : 4
        case .rewards: config.rewardDType == .float64 ? 8 : 4
        default: 4
        }
    }

    func bind(_ slotRaw: Int32, address: UInt, bytes given: Int64) throws(ABIError) {
        let slot = try checkedSlot(slotRaw, address: address, bytes: given, what: "bind")
        try commit(slot, UnsafeMutableRawPointer(bitPattern: address))
    }

    /// Slot `slotRaw` if a buffer at `address` (0: none, unbinding it) of
    /// `given` bytes may be bound there (its size and alignment), else the
    /// error naming `what` (the call); nothing is bound.
    func checkedSlot(_ slotRaw: Int32, address: UInt, bytes given: Int64, what: String) throws(ABIError) -> Slot {
        guard let slot = Slot(rawValue: slotRaw) else {
            throw ABIError(.invalidArgument, "\(what): slot \(slotRaw) is not a buffer slot; allowed: 0 ... \(Slot.allCases.count - 1)")
        }
        guard address != 0 else { return slot }
        let need = bytes(slot)
        guard given >= Int64(need) else {
            throw ABIError(.bufferTooSmall, "\(what): buffer \(slot) holds \(given) bytes, needs \(need)")
        }
        guard address % UInt(alignment(slot)) == 0 else {
            throw ABIError(.invalidArgument, "\(what): buffer \(slot) at \(address) is not aligned to \(alignment(slot)) bytes")
        }
        return slot
    }

    /// Binds `p` (checked by ``checkedSlot(_:address:bytes:what:)``) to `slot`.
    /// - Throws: `outOfMemory` when a pixel buffer's renderer cannot be made (nothing bound).
    func commit(_ slot: Slot, _ p: UnsafeMutableRawPointer?) throws(ABIError) {
        if p != nil { try prepare(slot) }
        bound[Int(slot.rawValue)] = p
    }

    /// Makes what a buffer bound to `slot` needs before it is bound (a pixel
    /// buffer: the games' pixel renderer).
    /// - Throws: `outOfMemory` when it cannot be made.
    func prepare(_ slot: Slot) throws(ABIError) {
        if slot == .pixels || slot == .finalPixels { try games.preparePixels() }
    }

    /// Binds the `n` buffers of `entries` (`n` triples of slot, address and
    /// bytes, each checked as ``bind(_:address:bytes:)`` checks it; no
    /// address null, no action buffer, whose values a step checks before it
    /// binds), all or none: a failure binds nothing.
    func bind(entries: UnsafePointer<Int64>, count n: Int, what: String) throws(ABIError) {
        for k in 0 ..< n {
            let e = entries + 3 * k
            guard e[0] >= Int64(Int32.min), e[0] <= Int64(Int32.max), e[1] != 0,
                  let address = UInt(exactly: e[1]) else {
                throw ABIError(.invalidArgument, "\(what): entry \(k) (slot \(e[0]), address \(e[1])) is not a slot and a non-null address")
            }
            let slot = try checkedSlot(Int32(e[0]), address: address, bytes: e[2], what: what)
            guard slot != .actions else {
                throw ABIError(.invalidArgument, "\(what): entry \(k) binds the actions buffer, which a step reads before it binds")
            }
            try prepare(slot)
        }
        for k in 0 ..< n {
            let e = entries + 3 * k
            bound[Int(e[0])] = UnsafeMutableRawPointer(bitPattern: UInt(e[1]))
        }
    }

    func buffer<T>(_ slot: Slot, _: T.Type) -> UnsafeMutablePointer<T>? {
        bound[Int(slot.rawValue)]?.assumingMemoryBound(to: T.self)
    }

    func required<T>(_ slot: Slot, _: T.Type) throws(ABIError) -> UnsafeMutablePointer<T> {
        try required(slot).assumingMemoryBound(to: T.self)
    }

    func required(_ slot: Slot) throws(ABIError) -> UnsafeMutableRawPointer {
        guard let p = bound[Int(slot.rawValue)] else { throw ABIError(.notReady, "step: no \(slot) buffer is bound") }
        return p
    }

    // MARK: - Observations

    /// Writes every bound observation, pixel and score buffer from the current state.
    func writeObservations() {
        if let o = buffer(.observations, Float.self) { games.observe(into: o) }
        if let px = buffer(.pixels, UInt8.self) {
            for i in 0 ..< count { renderSeats(i, into: px) }
        }
        if let sc = buffer(.scores, Int32.self) { games.writeScores(into: sc) }
    }

    /// Game `i`'s pixel observation of every seat into its row of `px`
    /// (with a ``stack``: the stacks as they stand, nothing pushed).
    func renderSeats(_ i: Int, into px: UnsafeMutablePointer<UInt8>) {
        if let stack {
            for s in 0 ..< seats { stack.write(i * seats + s, into: px + (i * seats + s) * pixelBytes) }
            return
        }
        for s in 0 ..< seats { games.renderObservation(i, seat: s, size: config.pixelSize, into: px + (i * seats + s) * pixelBytes) }
    }

    // MARK: - Reset and step

    func reset(mask given: UnsafePointer<UInt8>?, seeds: UnsafePointer<UInt64>?, n: Int64) throws(ABIError) {
        guard (given == nil && seeds == nil) || n == Int64(count) else {
            throw ABIError(.invalidArgument, "reset: mask and seeds hold \(n) entries, the environment has \(count) games")
        }
        try mask.withUnsafeMutableBufferPointer { (m) throws(ABIError) in
            guard let m = m.baseAddress else { return }
            for i in 0 ..< count {
                let chosen = given.map { $0[i] != 0 } ?? true
                if chosen, let seeds { try games.reset(i, stream: seeds[i]) }
                m[i] = chosen && seeds == nil ? 1 : 0
            }
            if seeds == nil { try games.resetNext(mask: m) }
            if let stack {
                for i in 0 ..< count where given.map({ $0[i] != 0 }) ?? true { advanceStack(stack, game: i, starting: true) }
            }
        }
        writeObservations()
    }

    /// The slot of the observations the environment hands out (features or pixels).
    var observationSlot: Slot { config.obsType == .pixels ? .pixels : .observations }

    /// One step of every game. `observations` (of `bytes`), when given, is
    /// bound as the ``observationSlot`` buffer once the actions have passed
    /// their check (as ``bind(_:address:bytes:)`` checks it), so the step
    /// writes its observations there; a failure binds and steps nothing.
    func step(observations: UnsafeMutableRawPointer? = nil, bytes: Int64 = 0) throws(ABIError) {
        try step { () throws(ABIError) in
            guard let observations else { return }
            try bind(observationSlot.rawValue, address: UInt(bitPattern: observations), bytes: bytes)
        }
    }

    /// One step of every game, binding first what `rebind` binds (once the
    /// actions have passed their check; it binds all or nothing, never the
    /// action buffer), so the step writes into those buffers; a failure
    /// binds and steps nothing.
    func step(rebinding rebind: () throws(ABIError) -> Void) throws(ABIError) {
        let boundActions = try required(.actions)
        // The outputs must be bound before (a rebinding never unbinds).
        _ = try required(.rewards); _ = try required(.terminated); _ = try required(.truncated)
        let per = count * seats
        // Nothing is stepped before every action has passed its check.
        let actions: UnsafePointer<Int32>
        switch config.actionDType {
        case .int32:
            let given = boundActions.assumingMemoryBound(to: Int32.self)
            // One pass: the OR of every value (negative when one is) and the largest.
            var bits: Int32 = 0, highest: Int32 = 0
            for k in 0 ..< per { bits |= given[k]; highest = max(highest, given[k]) }
            if bits < 0 || highest >= Int32(games.actionCount) { try check(given, count: per, what: "step") }
            actions = UnsafePointer(given)
        case .int64:
            // One pass narrows, ORs every Int64 value and keeps the largest
            // narrowed one: with no bit set from bit 31 up (no value negative
            // or past Int32), no value wrapped, so the largest is exact.
            let given = boundActions.assumingMemoryBound(to: Int64.self)
            var bits: Int64 = 0, highest: Int32 = 0
            for k in 0 ..< per {
                let v = given[k]
                bits |= v
                stepActions[k] = Int32(truncatingIfNeeded: v)
                highest = max(highest, stepActions[k])
            }
            if bits >> 31 != 0 || highest >= Int32(games.actionCount) { try check(given, count: per, what: "step") }
            actions = UnsafePointer(stepActions)
        }
        try rebind()
        let boundRewards = try required(.rewards)
        let terminated = try required(.terminated, UInt8.self)
        let truncated = try required(.truncated, UInt8.self)
        let wide: UnsafeMutablePointer<Double>? = config.rewardDType == .float64
            ? boundRewards.assumingMemoryBound(to: Double.self) : nil
        let rewards = wide == nil ? boundRewards.assumingMemoryBound(to: Float.self) : stepRewards
        let obs = buffer(.observations, Float.self)
        let events = buffer(.events, Int32.self)
        // Next-step: a game whose episode has ended starts its next one in this step.
        if stack != nil, config.autoreset == .nextStep {
            for i in 0 ..< count { mask[i] = games.ended(i) ? 1 : 0 }
        }
        try ends.withUnsafeMutableBufferPointer { (endBuf) throws(ABIError) in
            guard let endp = buffer(.ends, UInt8.self) ?? endBuf.baseAddress else { return }
            // Scores before a same-step restart: the ended episode's.
            try games.step(actions: actions, observations: obs, rewards: rewards, terminated: terminated,
                           truncated: truncated, ends: endp, events: events, scores: buffer(.scores, Int32.self))
            if let wide { for k in 0 ..< per { wide[k] = Double(rewards[k]) } }
            if let stack {
                let restarting = config.autoreset == .nextStep
                for i in 0 ..< count { advanceStack(stack, game: i, starting: restarting && mask[i] != 0) }
            }
            if config.autoreset == .sameStep { try restartEnded(terminated: terminated, truncated: truncated, obs: obs) }
        }
        if let px = buffer(.pixels, UInt8.self) {
            for i in 0 ..< count { renderSeats(i, into: px) }
        }
    }

    /// Same-step: the games whose episode ended this step hand their last
    /// observation and pixels to the final buffers and start their stream's
    /// next episode (see the type's doc).
    func restartEnded(terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                      obs: UnsafeMutablePointer<Float>?) throws(ABIError) {
        let finalObs = buffer(.finalObservations, Float.self)
        let finalPx = buffer(.finalPixels, UInt8.self)
        let rows = seats * obsCount
        try mask.withUnsafeMutableBufferPointer { (m) throws(ABIError) in
            guard let m = m.baseAddress else { return }
            var any = false
            for i in 0 ..< count {
                let done = terminated[i] | truncated[i] != 0
                m[i] = done ? 1 : 0
                guard done else { continue }
                any = true
                if let finalObs { games.observe(i, into: finalObs + i * rows) }
                if let finalPx { renderSeats(i, into: finalPx) }
            }
            guard any else { return }
            try games.resetNext(mask: m)
            if let obs { for i in 0 ..< count where m[i] != 0 { games.observe(i, into: obs + i * rows) } }
            if let stack { for i in 0 ..< count where m[i] != 0 { advanceStack(stack, game: i, starting: true) } }
        }
    }

    /// Checks `n` actions (one or more sets of `count × seats`: game `g`,
    /// seat `s` of set `j` at `(j × count + g) × seats + s`) against the
    /// game's action range; the first one outside is the error, naming
    /// `what` (the call).
    func check<A: FixedWidthInteger & SignedInteger>(_ actions: UnsafePointer<A>, count n: Int,
                                                       what: String) throws(ABIError) {
        let a = games.actionCount
        guard let k = (0 ..< n).first(where: { actions[$0] < 0 || actions[$0] >= a }) else { return }
        let set = k / (count * seats), g = k % (count * seats) / seats
        throw ABIError(.badAction, "\(what): action \(actions[k]) of game \(g)\(seats > 1 ? " seat \(k % seats)" : "")\(set > 0 ? " (action set \(set))" : "") is outside 0 ..< \(a)")
    }

    func checkGame(_ i: Int64, _ what: String) throws(ABIError) -> Int {
        guard i >= 0, i < Int64(count) else {
            throw ABIError(.invalidArgument, "\(what): game \(i) is outside 0 ..< \(count)")
        }
        return Int(i)
    }

    func checkSeat(_ s: Int32, _ what: String) throws(ABIError) -> Int {
        guard s >= 0, s < Int32(seats) else {
            throw ABIError(.invalidArgument, "\(what): seat \(s) is outside 0 ..< \(seats)")
        }
        return Int(s)
    }
}
