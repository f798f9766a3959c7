import Gym

/// A trainer whose iteration is a population played member by member, then
/// one update from the members' results (ES). Its members can be played in
/// pieces elsewhere — other processes or machines (`pbgym.distributed`) —
/// and the results joined in member order give exactly the iteration
/// ``PolicyTrainer/iterate(runner:)`` runs in one process, which is itself
/// ``evaluateMembers(_:runner:)`` over the whole population followed by
/// ``update(members:)``.
public protocol PopulationTrainer: PolicyTrainer {
    /// Members per iteration.
    var population: Int { get }
    /// Plays members `range` of the current iteration; results in member order.
    func evaluateMembers(_ range: Range<Int>, runner: ParallelRunner) throws(AgentFault) -> [MemberResult]
    /// Finishes the current iteration from all `population` members' results.
    mutating func update(members: [MemberResult]) -> IterationReport
}

extension EvolutionStrategies: PopulationTrainer {
    public var population: Int { settings.population }
}

/// Why a population piece cannot be played or applied.
public enum PopulationPieceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trainer plays no population (REINFORCE).
    case notAPopulationTrainer(String)
    /// Members outside `0 ..< population`, or an empty range.
    case badRange(first: Int, end: Int, population: Int)
    /// The pieces do not cover the population exactly once, in order.
    case incomplete(String)
    /// An agent (an opponent) faulted while the members played.
    case agent(AgentFault)

    public var description: String {
        switch self {
        case let .notAPopulationTrainer(t):
            "trainer \"\(t)\" does not play a population; only \"es\" can be trained in pieces"
        case let .badRange(first, end, population):
            "members \(first) ..< \(end) are out of range; allowed: a non-empty range within 0 ..< \(population)"
        case let .incomplete(why): why
        case let .agent(fault): fault.description
        }
    }
}

extension TrainingSession {
    var populationTrainer: (any PopulationTrainer)? { trainer as? any PopulationTrainer }

    /// Members per iteration, nil when the trainer plays no population.
    public var population: Int? { populationTrainer?.population }

    /// Plays members `first ..< end` of the current iteration (one piece of
    /// ``iterate(runner:)``), results in member order.
    public func evaluateMembers(first: Int, end: Int,
                                runner: ParallelRunner) throws(PopulationPieceError) -> [MemberResult] {
        guard let t = populationTrainer else { throw .notAPopulationTrainer(config.trainer) }
        guard first >= 0, first < end, end <= t.population else {
            throw .badRange(first: first, end: end, population: t.population)
        }
        do { return try t.evaluateMembers(first ..< end, runner: runner) } catch { throw .agent(error) }
    }

    /// Finishes the current iteration from the whole population's results
    /// (what ``iterate(runner:)`` does after playing the members itself).
    public mutating func iterate(members: [MemberResult]) throws(PopulationPieceError) -> IterationReport {
        guard var t = populationTrainer else { throw .notAPopulationTrainer(config.trainer) }
        guard members.count == t.population else {
            throw .incomplete("\(members.count) member results for a population of \(t.population)")
        }
        let report = t.update(members: members)
        trainer = t
        return report
    }
}
