import Foundation
import Gym

/// Per-episode rules (``RuleContext``) behind the one ``GameAdapter``
/// interface, in every session mode: the inner adapter's batch is built with
/// the context (``RuleContextVector``), so every episode (the first, each
/// reset, each automatic restart) plays the rules drawn from its episode
/// seed, the batched fast path included.
///
/// With a visible context its features follow each seat's game features
/// (``RuleContext``, "Context features"), bounds [−1, 1]. A snapshot is the
/// batch's game's, whose config is the episode's rules; restoring it puts
/// the game under them (refused when they are not base + set keys).
final class ContextAdapter<C: VariantConfig>: GameAdapter {
    let context: RuleContext<C>
    let inner: any GameAdapter
    /// Game `i`'s rules (its batch's ``VectorEnvironment/rules(_:)``).
    let rules: (Int) -> C
    let savedConfig: ([UInt8]) throws(ABIError) -> C
    let count: Int, seats: Int, actionCount: Int, n: Int
    let layout: ObservationLayout
    /// Scratch for the inner observations (`count × seats × n`) when the context is visible.
    var scratch: [Float]

    init(context: RuleContext<C>, inner: any GameAdapter, rules: @escaping (Int) -> C,
         savedConfig: @escaping ([UInt8]) throws(ABIError) -> C) {
        self.context = context
        self.inner = inner
        self.rules = rules
        self.savedConfig = savedConfig
        count = inner.count
        seats = inner.seats
        actionCount = inner.actionCount
        n = inner.layout.count
        let b = context.featureBounds
        layout = ObservationLayout(count: n + context.featureCount, version: inner.layout.version,
                                   lower: inner.layout.lower + b.lower, upper: inner.layout.upper + b.upper)
        scratch = Array(repeating: 0, count: context.visible ? count * seats * n : 0)
    }

    var eventNames: [String] { inner.eventNames }
    var scoreNames: [String] { inner.scoreNames }
    var renderSize: PixelObservation { inner.renderSize }
    var configJSON: JSONValue { context.base.json }
    var rowWidth: Int { layout.count }

    func reset(_ i: Int, stream runSeed: UInt64) throws(ABIError) { try inner.reset(i, stream: runSeed) }
    func resetNext(mask: UnsafePointer<UInt8>) throws(ABIError) { try inner.resetNext(mask: mask) }
    func restartStream(_ i: Int) -> RestartStream { inner.restartStream(i) }
    func setRestartStream(_ stream: RestartStream, _ i: Int) { inner.setRestartStream(stream, i) }
    func ended(_ i: Int) -> Bool { inner.ended(i) }

    func observe(into out: UnsafeMutablePointer<Float>) {
        for i in 0 ..< count { observe(i, into: out + i * seats * rowWidth) }
    }

    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        guard context.visible else { return inner.observe(i, into: out) }
        scratch.withUnsafeMutableBufferPointer { s in
            guard let base = s.baseAddress else { return }
            inner.observe(i, into: base)
            spread(i, base, out)
        }
    }

    /// Game `i`'s seat rows from `rows` (`seats × n`) into `out` (`seats × rowWidth`), each with its context.
    func spread(_ i: Int, _ rows: UnsafeMutablePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        let config = rules(i)
        for seat in 0 ..< seats {
            let o = out + seat * rowWidth
            o.update(from: rows + seat * n, count: n)
            context.writeFeatures(of: config, into: o + n)
        }
    }

    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        inner.render(i, seat: seat, size: size, into: out)
    }

    func preparePixels() throws(ABIError) { try inner.preparePixels() }

    func renderObservation(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        inner.renderObservation(i, seat: seat, size: size, into: out)
    }

    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?) throws(ABIError) {
        guard context.visible, let observations else {
            return try inner.step(actions: actions, observations: observations, rewards: rewards, terminated: terminated,
                                  truncated: truncated, ends: ends, events: events)
        }
        try scratch.withUnsafeMutableBufferPointer { (s) throws(ABIError) in
            guard let rows = s.baseAddress else { return }
            try inner.step(actions: actions, observations: rows, rewards: rewards, terminated: terminated,
                           truncated: truncated, ends: ends, events: events)
            for i in 0 ..< count { spread(i, rows + i * seats * n, observations + i * seats * rowWidth) }
        }
    }

    func writeScores(into out: UnsafeMutablePointer<Int32>) { inner.writeScores(into: out) }
    func statusLine(_ i: Int) -> String { inner.statusLine(i) }
    func payload(_ i: Int) throws(ABIError) -> GamePayload { try inner.payload(i) }

    func restore(_ payload: GamePayload, into i: Int) throws(ABIError) {
        let config = try savedConfig(payload.json)
        guard context.variant(of: config) != nil else {
            throw ABIError(.badSnapshot, "snapshot: its rules differ from this environment's base config in a key outside the variant set \"\(context.set.name)\" (\(context.keys.joined(separator: ", ")))")
        }
        try inner.restore(payload, into: i)
    }

    /// Game `i`'s rules as JSON: the set's name and the values of its keys in this episode.
    func rulesJSON(_ i: Int) -> String {
        let values = context.variant(of: rules(i))?.json ?? .object([])
        return JSONValue.object([("set", .string(context.set.name)), ("values", values)]).serialized(pretty: false)
    }
}

/// What the rules export asks of an adapter.
protocol RulesReporting {
    func rulesJSON(_ i: Int) -> String
}

extension ContextAdapter: RulesReporting {}

extension ContextAdapter {
    /// The session's games: `make(base, nil)` without `variants` in the
    /// create config; with it, a context adapter over `make(base, context)`
    /// whose context comes from the named set of the game's variant file
    /// (`variants_text`, else the shipped one). `rules(adapter, i)` reads
    /// game `i`'s rules from the adapter `make` gave.
    static func games(_ c: EnvConfig, base: C,
                      make: @escaping (C, RuleContext<C>?) throws(ABIError) -> any GameAdapter,
                      rules: @escaping (any GameAdapter, Int) -> C,
                      savedConfig: @escaping ([UInt8]) throws(ABIError) -> C) throws(ABIError) -> any GameAdapter {
        guard let name = c.variants else { return try make(base, nil) }
        let source = c.variantsText == nil ? "variants (shipped \(C.gameName) sets)" : "variants_text"
        guard let text = c.variantsText ?? ShippedVariants.text(game: C.gameName) else {
            throw ABIError(.badConfig, "config: \(C.gameName) ships no variant sets; give variants_text")
        }
        let context: RuleContext<C>
        do {
            let file = try VariantFile<C>.decode(text, source: source)
            context = try RuleContext(base: base, set: try file.set(name, source: source), visible: c.variantsVisible,
                                      source: "\(source): set \"\(name)\" on config.config")
        } catch { throw ABIError(.badConfig, error.description) }
        let inner = try make(base, context)
        return ContextAdapter(context: context, inner: inner, rules: { rules(inner, $0) }, savedConfig: savedConfig)
    }
}
