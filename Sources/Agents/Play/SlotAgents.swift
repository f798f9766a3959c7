import Gym

/// The batched agents seated in one worker's slots: each agent plays every
/// seat of every slot as one of its games (``AgentSeating/everySeat(slots:seats:)``:
/// game `i × seats + s` is seat `s` of slot `i`), and per step each agent
/// acts once, on the rows of the seats it holds. Every buffer is allocated
/// once; a step allocates nothing.
final class SlotAgents<Game: PlayableGame> {
    let agents: [any BatchAgent]
    /// ``agents`` again, each in a box that ``boxes`` keeps alive, unretained
    /// in raw memory: a step calls each seated agent through its box's
    /// guaranteed reference, without the retain and release that copying
    /// an agent out of an array costs.
    private let held: UnsafeMutableBufferPointer<Unmanaged<HeldAgent>>
    private let boxes: [HeldAgent]
    /// The indices in ``agents`` of the agents holding a seat (``seatedCount``
    /// of them, in index order), rebuilt with ``rows``: a step visits only these.
    let seated: UnsafeMutableBufferPointer<Int32>
    let seatedCount: UnsafeMutablePointer<Int>
    let slots: Int, seats: Int
    /// Per seat (`i × seats + s`): the index in ``agents`` of the agent
    /// holding it, or -1 (no agent: idle, or the learner's seat).
    let holder: UnsafeMutableBufferPointer<Int32>
    /// Per agent: the seats it holds, its rows of each step (``rows`` at
    /// `a × slots × seats`, in seat order) and their count; rebuilt at the
    /// first step after a seat changed hands (``start(_:slot:seat:seed:)``, ``end(slot:)``).
    let rows: UnsafeMutableBufferPointer<Int32>
    let counts: UnsafeMutableBufferPointer<Int>
    /// Whether a seat changed hands since ``rows`` were built (1 or 0; in
    /// raw memory: a class's stored `var` is checked for exclusive access at every use).
    let seatsChanged: UnsafeMutablePointer<Bool>
    /// Per agent: whether it reads observation rows (``BatchAgent/readsObservations``).
    let readsRows: [Bool]
    /// Per seat, seat-major (`s × slots + i`): 1 when its observation row is
    /// needed, 0 when a ``StateReadingAgent`` holds it, and for a free seat
    /// ``freeSeatsNeedRows``
    /// (``VectorStepOutput/observedRows``: the step skips rows nobody reads).
    let rowNeeded: UnsafeMutableBufferPointer<UInt8>
    /// 1 when a free seat's row is needed (someone besides these agents
    /// reads it: a learner's seat), 0 when nobody plays a free seat (a match
    /// roster's slot without an episode).
    let freeSeatsNeedRows: UInt8

    /// The agents of `specs`, each for every seat of `vector`'s `slots` games
    /// (`freeSeatsNeedRows`: see ``freeSeatsNeedRows``).
    convenience init(_ specs: [AgentSpec], config: Game.Config, vector: Game.Vector, slots: Int,
                     freeSeatsNeedRows: Bool = true) throws(AgentFault) {
        let seats = Game.seats
        let context = AgentContext<Game>(config: config, seating: .everySeat(slots: slots, seats: seats),
                                         vector: vector)
        self.init(try Game.makeBatchAgents(specs, context: context), slots: slots, freeSeatsNeedRows: freeSeatsNeedRows)
    }

    /// `agents`, each with `slots × Game.seats` games (`freeSeatsNeedRows`: see ``freeSeatsNeedRows``).
    init(_ agents: [any BatchAgent], slots: Int, freeSeatsNeedRows: Bool = true) {
        let seats = Game.seats
        precondition(agents.allSatisfy { $0.games == slots * seats }, "every agent plays every seat of every slot")
        self.agents = agents
        self.slots = slots
        self.seats = seats
        holder = .allocate(capacity: slots * seats)
        holder.initialize(repeating: -1)
        rows = .allocate(capacity: max(1, agents.count * slots * seats))
        rows.initialize(repeating: 0)
        counts = .allocate(capacity: max(1, agents.count))
        counts.initialize(repeating: 0)
        boxes = agents.map(HeldAgent.init)
        held = .allocate(capacity: agents.count)
        _ = held.initialize(from: boxes.map { Unmanaged.passUnretained($0) })
        seated = .allocate(capacity: max(1, agents.count))
        seated.initialize(repeating: 0)
        seatedCount = .allocate(capacity: 1)
        seatedCount.initialize(to: 0)
        readsRows = agents.map(\.readsObservations)
        self.freeSeatsNeedRows = freeSeatsNeedRows ? 1 : 0
        rowNeeded = .allocate(capacity: seats * slots)
        rowNeeded.initialize(repeating: self.freeSeatsNeedRows)
        seatsChanged = .allocate(capacity: 1)
        seatsChanged.initialize(to: true)
    }

    deinit {
        holder.deallocate(); rows.deallocate(); counts.deallocate(); rowNeeded.deallocate(); seatsChanged.deallocate()
        held.deallocate(); seated.deallocate(); seatedCount.deallocate()
    }

    /// The rows the slots' seats need (see ``rowNeeded``).
    var observedRows: UnsafePointer<UInt8>? { UnsafePointer(rowNeeded.baseAddress) }

    /// Seats agent `a` in seat `s` of slot `i` and starts its episode there
    /// with `seed` (the agent's seed: `Seeds.agent(episodeSeed, seat: …)`).
    func start(_ a: Int, slot i: Int, seat s: Int, seed: UInt64) throws(AgentFault) {
        let g = i * seats + s
        holder[g] = Int32(a)
        seatsChanged.pointee = true
        rowNeeded[s * slots + i] = readsRows[a] ? 1 : 0
        try agents[a].start(game: g, seed: seed)
    }

    /// Slot `i`'s episode is over: ends it for every agent seated there and frees its seats.
    func end(slot i: Int) throws(AgentFault) {
        for s in 0 ..< seats {
            let g = i * seats + s
            let a = Int(holder[g])
            guard a >= 0 else { continue }
            holder[g] = -1
            seatsChanged.pointee = true
            rowNeeded[s * slots + i] = freeSeatsNeedRows
            try agents[a].end(game: g)
        }
    }

    /// Every seated agent's actions: one ``BatchAgent/act(_:)`` per agent
    /// holding a seat, over all the seats it holds. Observations and
    /// actions are the slot engine's (seat `g`'s row at `observations + g × stride`,
    /// its action at `actions[g]`); free seats' actions are left alone.
    @inline(__always)
    func act(observations: UnsafePointer<Float>, stride: Int, actions: UnsafeMutablePointer<Int32>)
        throws(AgentFault) {
        guard let rowBase = rows.baseAddress, let count = counts.baseAddress else { return }
        let n = slots * seats
        if seatsChanged.pointee {
            for a in 0 ..< held.count { count[a] = 0 }
            for g in 0 ..< n {
                let a = Int(holder[g])
                guard a >= 0 else { continue }
                rowBase[a * n + count[a]] = Int32(g)
                count[a] += 1
            }
            var k = 0
            for a in 0 ..< held.count where count[a] > 0 { seated[k] = Int32(a); k += 1 }
            seatedCount.pointee = k
            seatsChanged.pointee = false
        }
        for k in 0 ..< seatedCount.pointee {
            let a = Int(seated[k])
            let rows = AgentRows(count: count[a], games: rowBase + a * n, observations: observations,
                                 stride: stride, actions: actions)
            // Guaranteed without a retain: ``boxes`` keeps every box alive
            // for this object's life, and a box's agent is a `let`.
            let fault: AgentFault? = held[a]._withUnsafeGuaranteedRef { box in
                do throws(AgentFault) { try box.agent.act(rows); return nil } catch { return error }
            }
            if let fault { throw fault }
        }
    }
}

/// One agent of ``SlotAgents``, boxed so that a step can borrow it
/// through an unretained reference to the box.
private final class HeldAgent {
    let agent: any BatchAgent
    init(_ agent: any BatchAgent) { self.agent = agent }
}
