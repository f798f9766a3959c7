/// Each game's xoshiro256** generator as four columns of a batch, one per
/// state word, so that four games' generators load into lanes
/// (``GeneratorLanes``); all words 0 at first.
struct GeneratorColumns: ~Copyable {
    let s0, s1, s2, s3: Column<UInt64>

    init(count: Int) {
        s0 = Column(repeating: 0, count: count); s1 = Column(repeating: 0, count: count)
        s2 = Column(repeating: 0, count: count); s3 = Column(repeating: 0, count: count)
    }

    /// Game `i`'s generator.
    @inline(__always)
    subscript(i: Int) -> Xoshiro256 {
        get { Xoshiro256(words: s0[i], s1[i], s2[i], s3[i]) }
        nonmutating set { s0[i] = newValue.s0; s1[i] = newValue.s1; s2[i] = newValue.s2; s3[i] = newValue.s3 }
    }

    /// Games `k ..< k + 4`'s generators, lane `j` game `k + j`.
    @inline(__always)
    func lanes(_ k: Int) -> GeneratorLanes {
        GeneratorLanes(Lane8.loadQuad(s0.base, k), Lane8.loadQuad(s1.base, k), Lane8.loadQuad(s2.base, k),
                       Lane8.loadQuad(s3.base, k))
    }

    /// Stores lane `j` of `g` as game `k + j`'s generator for each bit `j`
    /// set in `lanes` (0 ..< 4).
    @inline(__always)
    func store(_ g: GeneratorLanes, _ k: Int, lanes: UInt8) {
        if lanes == 0xF {
            Lane8.storeQuad(g.s0, s0.base, k); Lane8.storeQuad(g.s1, s1.base, k)
            Lane8.storeQuad(g.s2, s2.base, k); Lane8.storeQuad(g.s3, s3.base, k)
        } else {
            for j in 0 ..< 4 where lanes >> UInt8(j) & 1 != 0 {
                s0[k + j] = g.s0[j]; s1[k + j] = g.s1[j]; s2[k + j] = g.s2[j]; s3[k + j] = g.s3[j]
            }
        }
    }
}
