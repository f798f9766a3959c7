import Foundation
import Gym

/// Per-episode rules (``RuleContext``) behind the one ``GameAdapter``
/// interface: game `i` is a one-game adapter of its own, rebuilt at each
/// reset with the episode's rules, drawn from the episode's seed (the
/// restart stream's next episode, as without contexts). Sessions with
/// autoreset disabled only (the single environment): every episode starts
/// from a reset the caller asks for, so no rule change falls inside a step.
/// The batched fast path is not involved; each game steps alone.
///
/// With a visible context its features follow each seat's game features
/// (``RuleContext``, "Context features"), bounds [−1, 1]. A snapshot is the
/// inner game's, whose config is the episode's rules, so restoring rebuilds
/// the game under them (refused when they are not base + set keys).
final class ContextAdapter<C: VariantConfig>: GameAdapter {
    let context: RuleContext<C>
    let make: (C) throws(ABIError) -> any GameAdapter
    let savedConfig: ([UInt8]) throws(ABIError) -> C
    var inner: [any GameAdapter]
    var configs: [C]
    var pixelsPrepared = false
    let count: Int, seats: Int, actionCount: Int, n: Int
    let layout: ObservationLayout
    let eventNames: [String], scoreNames: [String]
    let renderSize: PixelObservation
    /// Scratch for one game's inner observations (`seats × n`).
    var scratch: [Float]

    init(context: RuleContext<C>, count: Int, make: @escaping (C) throws(ABIError) -> any GameAdapter,
         savedConfig: @escaping ([UInt8]) throws(ABIError) -> C) throws(ABIError) {
        self.context = context
        self.make = make
        self.savedConfig = savedConfig
        self.count = count
        var games: [any GameAdapter] = []
        for _ in 0 ..< count { games.append(try make(context.base)) }
        inner = games
        configs = Array(repeating: context.base, count: count)
        let first = games[0]
        seats = first.seats
        actionCount = first.actionCount
        n = first.layout.count
        let b = context.featureBounds
        layout = ObservationLayout(count: n + context.featureCount, version: first.layout.version,
                                   lower: first.layout.lower + b.lower, upper: first.layout.upper + b.upper)
        eventNames = first.eventNames
        scoreNames = first.scoreNames
        renderSize = first.renderSize
        scratch = Array(repeating: 0, count: seats * n)
    }

    var configJSON: JSONValue { context.base.json }
    var rowWidth: Int { layout.count }

    /// Game `i` rebuilt under `config`, its restart stream kept.
    func rebuild(_ i: Int, _ config: C) {
        let stream = inner[i].restartStream(0)
        do {
            let game = try make(config)
            if pixelsPrepared { try game.preparePixels() }
            game.setRestartStream(stream, 0)
            inner[i] = game
            configs[i] = config
        } catch {
            // The context was checked at creation: every variant it draws makes a game.
            preconditionFailure("a checked rule context failed to make a game: \(error)")
        }
    }

    func reset(_ i: Int, stream runSeed: UInt64) throws(ABIError) {
        rebuild(i, context.rules(episodeSeed: Seeds.episode(runSeed: runSeed, index: 0)).config)
        try inner[i].reset(0, stream: runSeed)
    }

    func resetNext(mask: UnsafePointer<UInt8>) throws(ABIError) {
        var one: UInt8 = 1
        for i in 0 ..< count where mask[i] != 0 {
            let s = inner[i].restartStream(0)
            rebuild(i, context.rules(episodeSeed: Seeds.episode(runSeed: s.runSeed, index: Int(truncatingIfNeeded: s.next))).config)
            try inner[i].resetNext(mask: &one)
        }
    }

    func restartStream(_ i: Int) -> RestartStream { inner[i].restartStream(0) }
    func setRestartStream(_ stream: RestartStream, _ i: Int) { inner[i].setRestartStream(stream, 0) }
    func ended(_ i: Int) -> Bool { inner[i].ended(0) }

    func observe(into out: UnsafeMutablePointer<Float>) {
        for i in 0 ..< count { observe(i, into: out + i * seats * rowWidth) }
    }

    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        scratch.withUnsafeMutableBufferPointer { s in
            guard let base = s.baseAddress else { return }
            inner[i].observe(0, into: base)
            spread(i, base, out)
        }
    }

    /// Game `i`'s seat rows from `rows` (`seats × n`) into `out` (`seats × rowWidth`), each with its context.
    func spread(_ i: Int, _ rows: UnsafeMutablePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        for seat in 0 ..< seats {
            let o = out + seat * rowWidth
            o.update(from: rows + seat * n, count: n)
            context.writeFeatures(of: configs[i], into: o + n)
        }
    }

    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        inner[i].render(0, seat: seat, size: size, into: out)
    }

    func preparePixels() throws(ABIError) {
        for g in inner { try g.preparePixels() }
        pixelsPrepared = true
    }

    func renderObservation(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        inner[i].renderObservation(0, seat: seat, size: size, into: out)
    }

    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?) throws(ABIError) {
        let e = eventNames.count
        try scratch.withUnsafeMutableBufferPointer { (s) throws(ABIError) in
            guard let rows = s.baseAddress else { return }
            for i in 0 ..< count {
                try inner[i].step(actions: actions + i * seats, observations: observations == nil ? nil : rows,
                              rewards: rewards + i * seats, terminated: terminated + i, truncated: truncated + i,
                              ends: ends + i, events: events.map { $0 + i * e })
                if let observations { spread(i, rows, observations + i * seats * rowWidth) }
            }
        }
    }

    func scores(_ i: Int) -> (Int32, Int32) { inner[i].scores(0) }
    func statusLine(_ i: Int) -> String { inner[i].statusLine(0) }
    func payload(_ i: Int) throws(ABIError) -> GamePayload { try inner[i].payload(0) }

    func restore(_ payload: GamePayload, into i: Int) throws(ABIError) {
        let config = try savedConfig(payload.json)
        guard context.variant(of: config) != nil else {
            throw ABIError(.badSnapshot, "snapshot: its rules differ from this environment's base config in a key outside the variant set \"\(context.set.name)\" (\(context.keys.joined(separator: ", ")))")
        }
        let stream = inner[i].restartStream(0)
        let game = try make(config)
        if pixelsPrepared { try game.preparePixels() }
        try game.restore(payload, into: 0)
        game.setRestartStream(stream, 0)
        inner[i] = game
        configs[i] = config
    }

    /// Game `i`'s rules as JSON: the set's name and the values of its keys in this episode.
    func rulesJSON(_ i: Int) -> String {
        let values = context.variant(of: configs[i])?.json ?? .object([])
        return JSONValue.object([("set", .string(context.set.name)), ("values", values)]).serialized(pretty: false)
    }
}

/// What the rules export asks of an adapter.
protocol RulesReporting {
    func rulesJSON(_ i: Int) -> String
}

extension ContextAdapter: RulesReporting {}

extension ContextAdapter {
    /// The session's games: `make(base, numGames)` without `variants` in the
    /// create config; with it, a context adapter over one-game adapters
    /// `make(rules, 1)` whose rules come from the named set of the game's
    /// variant file (`variants_text`, else the shipped one).
    static func games(_ c: EnvConfig, base: C, make: @escaping (C, Int) throws(ABIError) -> any GameAdapter,
                      savedConfig: @escaping ([UInt8]) throws(ABIError) -> C) throws(ABIError) -> any GameAdapter {
        guard let name = c.variants else { return try make(base, c.numGames) }
        guard c.autoreset == .disabled else {
            throw ABIError(.badConfig, "config: variants=\"\(name)\" needs autoreset \"disabled\" (per-episode rules run in the single environment; a vector environment with rule contexts is not available yet)")
        }
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
        return try ContextAdapter(context: context, count: c.numGames, make: { (config: C) throws(ABIError) in try make(config, 1) },
                                  savedConfig: savedConfig)
    }
}
