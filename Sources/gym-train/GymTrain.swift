import Agents
import ArgumentParser
import Foundation

@main
struct GymTrain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gym-train",
        abstract: "Train, evaluate, benchmark and render agents for the Pong and Breakout gym.",
        version: GymTrainVersion.string,
        subcommands: [Train.self, ESMembers.self, Eval.self, Tournament.self, Balance.self, Sweep.self, Robustness.self, Merge.self,
                      Render.self, Play.self, AgentCommand.self,
                      Bench.self, BenchPolicy.self,
                      ConfigCommand.self, BuildInfo.self]
    )

    /// Runs a build tuned for this CPU if one stands beside this one, else parses and runs the command.
    static func main() {
        TunedBuild.handOver()
        AgentChildren.installExitGuards()
        main(nil)
    }
}

enum GymTrainVersion {
    static let string = "0.1.0"
}
