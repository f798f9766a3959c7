import Gym

/// The results of members `first ..< end` of one ES iteration, as a file
/// (what `gym-train es-members` writes and `gym-train train --remote-members`
/// reads). Numbers are exact: integers in decimal, doubles in shortest
/// round-trip form, so decoding gives every result bit for bit.
///
/// ```json
/// {"format": "es-members", "iteration": 3, "trainingHash": "…", "first": 0, "end": 4,
///  "members": [{"fitness": 1.5, "steps": 812, "statistics": null}, …]}
/// ```
/// `statistics` is `{"count": c, "sum": [...], "sumSquares": [...]}` when the
/// policy normalises its input.
public struct MemberPiece: Equatable, Sendable {
    public static let formatName = "es-members"

    /// The iteration played (iterations completed before it).
    public var iteration: Int
    /// ``TrainConfig/trainingHash`` of the run.
    public var trainingHash: UInt64
    /// Members `first ..< end`.
    public var first: Int
    public var members: [MemberResult]

    public init(iteration: Int, trainingHash: UInt64, first: Int, members: [MemberResult]) {
        self.iteration = iteration
        self.trainingHash = trainingHash
        self.first = first
        self.members = members
    }

    public var end: Int { first + members.count }

    public var json: JSONValue {
        .object([
            ("format", .string(Self.formatName)), ("iteration", .number(iteration)),
            ("trainingHash", .string(String(trainingHash, radix: 16))),
            ("first", .number(first)), ("end", .number(end)),
            ("members", .array(members.map { m in
                .object([
                    ("fitness", .number(m.fitness)), ("steps", .number(m.steps)),
                    ("statistics", m.statistics.map { s in
                        .object([("count", .number(s.count)), ("sum", .array(s.sum.map { .number($0) })),
                                 ("sumSquares", .array(s.sumSquares.map { .number($0) }))])
                    } ?? .null),
                ])
            })),
        ])
    }

    /// Decodes a piece file's text; errors name `path` and the key.
    public static func decode(_ text: String, path: String) throws(PopulationPieceError) -> MemberPiece {
        func bad(_ why: String) -> PopulationPieceError { .incomplete("\(path): \(why)") }
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw bad("\(error)") }
        guard doc["format"] == .string(formatName) else { throw bad("not an es-members file (\"format\" must be \"\(formatName)\")") }
        func int(_ v: JSONValue?, _ key: String) throws(PopulationPieceError) -> Int {
            guard let i = v?.integer(Int.self) else { throw bad("\"\(key)\" must be an integer") }
            return i
        }
        func double(_ v: JSONValue?, _ key: String) throws(PopulationPieceError) -> Double {
            guard let d = v?.double else { throw bad("\"\(key)\" must be a number") }
            return d
        }
        func doubles(_ v: JSONValue?, _ key: String) throws(PopulationPieceError) -> [Double] {
            guard case let .array(xs)? = v else { throw bad("\"\(key)\" must be an array of numbers") }
            var out: [Double] = []
            for x in xs { out.append(try double(x, key)) }
            return out
        }
        guard case let .string(hashText)? = doc["trainingHash"], let hash = UInt64(hashText, radix: 16) else {
            throw bad("\"trainingHash\" must be a hexadecimal string")
        }
        let iteration = try int(doc["iteration"], "iteration"), first = try int(doc["first"], "first")
        let end = try int(doc["end"], "end")
        guard case let .array(list)? = doc["members"] else { throw bad("\"members\" must be an array") }
        var members: [MemberResult] = []
        for m in list {
            var statistics: ObservationStatistics?
            switch m["statistics"] {
            case .null?: statistics = nil
            case let s?:
                let sum = try doubles(s["sum"], "sum"), squares = try doubles(s["sumSquares"], "sumSquares")
                guard sum.count == squares.count else { throw bad("\"sum\" and \"sumSquares\" differ in length") }
                var st = ObservationStatistics(features: sum.count)
                st.count = try double(s["count"], "count")
                st.sum = sum
                st.sumSquares = squares
                statistics = st
            case nil: throw bad("a member has no \"statistics\"")
            }
            members.append(MemberResult(fitness: try double(m["fitness"], "fitness"), steps: try int(m["steps"], "steps"),
                                        statistics: statistics))
        }
        guard end == first + members.count else { throw bad("members \(first) ..< \(end) but \(members.count) results") }
        return MemberPiece(iteration: iteration, trainingHash: hash, first: first, members: members)
    }

    /// Joins pieces of one iteration into the whole population's results,
    /// in member order; the pieces must cover `0 ..< population` exactly once.
    public static func join(_ pieces: [MemberPiece], iteration: Int, trainingHash: UInt64,
                            population: Int) throws(PopulationPieceError) -> [MemberResult] {
        var results: [MemberResult] = []
        for p in pieces.sorted(by: { $0.first < $1.first }) {
            guard p.iteration == iteration else {
                throw .incomplete("a piece holds iteration \(p.iteration); expected iteration \(iteration)")
            }
            guard p.trainingHash == trainingHash else {
                throw .incomplete("a piece is from another training config (trainingHash \(String(p.trainingHash, radix: 16)), expected \(String(trainingHash, radix: 16)))")
            }
            guard p.first == results.count else {
                throw .incomplete(p.first < results.count
                    ? "members from \(p.first) are given twice" : "members \(results.count) ..< \(p.first) are missing")
            }
            results += p.members
        }
        guard results.count == population else {
            throw .incomplete(results.count < population
                ? "members \(results.count) ..< \(population) are missing" : "more than \(population) members given")
        }
        return results
    }
}
