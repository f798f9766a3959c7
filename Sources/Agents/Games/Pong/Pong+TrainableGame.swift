import Gym

extension Pong: TrainableGame {
    /// The policy plays `opponent` (a `;`-separated list; `self` is self-play)
    /// and is evaluated against each of `evalOpponent`; the score is the
    /// lowest point share. External agents (`process:`) play on the slot
    /// engine, one process per worker per iteration (or evaluation), and
    /// start only when `config.allowAgentPrograms`.
    public static func trainingSetup(_ config: TrainConfig, game: PongConfig, evalGame: PongConfig,
                                     rules: TrainingRules<PongConfig>?) throws(TrainingSetupError)
        -> TrainingSetup<PongTask> {
        var opponents: [PongTask.Opponent] = []
        var evalOpponents: [AgentSpec] = []
        do {
            for text in TrainConfig.split(config.opponent) {
                if text == "self" {
                    opponents.append(.selfPlay)
                } else {
                    let spec = try AgentSpec.parse(text, commandLine: config.allowAgentPrograms)
                    try Pong.check(spec, config: game)
                    opponents.append(.agent(spec))
                }
            }
            for text in TrainConfig.split(config.evalOpponent) {
                let spec = try AgentSpec.parse(text, commandLine: config.allowAgentPrograms)
                try Pong.check(spec, config: evalGame)
                evalOpponents.append(spec)
            }
        } catch { throw .agent(error) }
        let names = evalOpponents.map(\.displayName).joined(separator: ", ")
        return TrainingSetup(
            task: PongTask(config: game, opponents: opponents, episodeSteps: config.episodeSteps, rules: rules),
            evaluationTasks: evalOpponents.map {
                PongTask(config: evalGame, opponent: .agent($0), episodeSteps: config.evalSteps, rules: rules?.fixed)
            },
            scoreName: evalOpponents.count == 1 ? "point share vs \(names)" : "lowest point share vs \(names)",
            score: { scores in scores.map(\.share).min() ?? 0 })
    }
}
