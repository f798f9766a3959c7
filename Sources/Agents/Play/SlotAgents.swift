import Gym

/// Agents held by their concrete types in buffers allocated once, so that
/// `act` on agent `k` is a direct call mutating it in place (no existential
/// box made unique, no copy or reference counting per step). `Game`'s
/// tracker is one of those types; agents of other types than the ones
/// ``AgentSpec`` makes are held as `any Agent`.
final class SlotAgents<Game: PlayableGame> {
    enum Kind: UInt8 { case tracker, random, linear, constant, other }

    let count: Int
    let kinds: UnsafeMutableBufferPointer<Kind>
    /// Agent `k`'s index in the buffer of its kind.
    let positions: UnsafeMutableBufferPointer<Int>
    let trackers: UnsafeMutableBufferPointer<Game.Tracker>
    let randoms: UnsafeMutableBufferPointer<RandomAgent>
    let linears: UnsafeMutableBufferPointer<LinearAgent>
    let constants: UnsafeMutableBufferPointer<ConstantAgent>
    var others: [any Agent]

    init(_ agents: [any Agent]) {
        count = agents.count
        kinds = .allocate(capacity: count)
        positions = .allocate(capacity: count)
        var t: [Game.Tracker] = [], r: [RandomAgent] = [], l: [LinearAgent] = [], c: [ConstantAgent] = []
        var o: [any Agent] = []
        for (k, agent) in agents.enumerated() {
            let (kind, position): (Kind, Int)
            switch agent {
            case let a as Game.Tracker: (kind, position) = (.tracker, t.count); t.append(a)
            case let a as RandomAgent: (kind, position) = (.random, r.count); r.append(a)
            case let a as LinearAgent: (kind, position) = (.linear, l.count); l.append(a)
            case let a as ConstantAgent: (kind, position) = (.constant, c.count); c.append(a)
            default: (kind, position) = (.other, o.count); o.append(agent)
            }
            kinds.initializeElement(at: k, to: kind)
            positions.initializeElement(at: k, to: position)
        }
        func buffer<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
            _ = b.initialize(from: values)
            return b
        }
        trackers = buffer(t); randoms = buffer(r); linears = buffer(l); constants = buffer(c)
        others = o
    }

    deinit {
        func free<T>(_ b: UnsafeMutableBufferPointer<T>, _ n: Int) {
            b.baseAddress?.deinitialize(count: n)
            b.deallocate()
        }
        var n = (0, 0, 0, 0)
        for k in 0 ..< count {
            switch kinds[k] {
            case .tracker: n.0 += 1
            case .random: n.1 += 1
            case .linear: n.2 += 1
            case .constant: n.3 += 1
            case .other: break
            }
        }
        free(trackers, n.0); free(randoms, n.1); free(linears, n.2); free(constants, n.3)
        kinds.deallocate(); positions.deallocate()
    }

    func reset(_ k: Int, seed: UInt64) {
        let p = positions[k]
        switch kinds[k] {
        case .tracker: trackers[p].reset(seed: seed)
        case .random: randoms[p].reset(seed: seed)
        case .linear: linears[p].reset(seed: seed)
        case .constant: constants[p].reset(seed: seed)
        case .other: others[p].reset(seed: seed)
        }
    }

    @inline(__always)
    func act(_ k: Int, _ observation: UnsafeBufferPointer<Float>) -> Int {
        let p = positions[k]
        switch kinds[k] {
        case .tracker: return trackers[p].act(observation)
        case .random: return randoms[p].act(observation)
        case .linear: return linears[p].act(observation)
        case .constant: return constants[p].act(observation)
        case .other: return others[p].act(observation)
        }
    }
}
