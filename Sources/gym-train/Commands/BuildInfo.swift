import ArgumentParser
import CPULevel
import Agents

/// `gym-train build-info`: which build of the tool runs on this machine.
struct BuildInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-info",
        abstract: "Show which build runs here: this CPU's x86-64 level, whether this process is the portable build or one tuned for the CPU, and OpenBLAS's kernel.",
        discussion: """
        `make release` and `pip install` build a portable gym-train that runs on any x86-64 CPU and, \
        beside it, one tuned for this machine's level (gym-train-x86-64-v3 or -v4); the portable one \
        hands the process over to the tuned one when the CPU runs it. Results never depend on the build.
        """)

    func run() throws {
        let level = Int(pbg_cpu_level())
        print("cpu level: " + (level > 0 ? "x86-64-v\(level)" : "not x86-64"))
        print("build: " + (TunedBuild.isTuned ? "tuned" : "portable"))
        print("openblas: " + BLAS.configuration)
    }
}
