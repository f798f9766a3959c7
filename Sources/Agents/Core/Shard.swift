/// One of `count` equal parts of a run's games, cut by global game index.
///
/// Rule: shard `index` of `count` plays games
/// `total × (index − 1) / count ..< total × index / count` (integer division),
/// a function of the game count and the shard alone, never of workers or
/// nodes. Every game's seed is a pure function of (run seed, game index), so
/// the union of the shards' records, in index order, is the unsharded run's.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// 1-based position, `1 ... count`.
    public var index: Int
    /// Number of shards the run is cut into, `1 ... maxCount`.
    public var count: Int

    /// The most shards a run may be cut into.
    public static let maxCount = 1_000_000

    public init(index: Int, count: Int) {
        precondition((1 ... Shard.maxCount).contains(count) && (1 ... count).contains(index), "shard out of range")
        self.index = index; self.count = count
    }

    /// Parses "K/N" (1 ≤ K ≤ N ≤ ``maxCount``); nil when malformed or out of range.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]),
              (1 ... Shard.maxCount).contains(n), (1 ... n).contains(k) else { return nil }
        self.init(index: k, count: n)
    }

    /// "K/N".
    public var description: String { "\(index)/\(count)" }

    /// The global indices of this shard's games among `total` (may be empty when `total < count`).
    public func range(of total: Int) -> Range<Int> {
        precondition(total >= 0, "total must not be negative")
        return total * (index - 1) / count ..< total * index / count
    }
}
