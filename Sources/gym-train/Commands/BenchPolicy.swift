import Agents
import ArgumentParser
import Foundation

/// `gym-train bench-policy`: the linear policy's forward pass, plain loop
/// against one sgemm per batch.
struct BenchPolicy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-policy",
        abstract: "Measure the linear policy's forward pass: plain loop vs one cblas_sgemm per batch (ns per observation).",
        discussion: """
        One thread (OpenBLAS pinned to one thread). For each batch size, both paths compute \
        greedy actions for the same random observations with a random policy, timed for at \
        least --seconds each. Release build only.
        """
    )

    @Option(help: "Observation length (Pong: 12).") var inputs: Int = 12
    @Option(help: "Actions (Pong: 3, or 5 with vertical movement).") var outputs: Int = 3
    @Option(help: "Batch sizes, comma separated.") var batches: String = "1,4,8,16,64,256,1024"
    @Option(help: "Seconds per measurement (at least).") var seconds: Double = 0.3

    func validate() throws {
        guard (1 ... 4096).contains(inputs) else { throw ValidationError("--inputs \(inputs) is out of range; allowed: 1 ... 4096") }
        guard (1 ... 256).contains(outputs) else { throw ValidationError("--outputs \(outputs) is out of range; allowed: 1 ... 256") }
        guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds \(seconds) is out of range; allowed: (0, 60]") }
        guard !sizes.isEmpty else { throw ValidationError("--batches \(batches) must list sizes in 1 ... 65536, comma separated") }
    }

    var sizes: [Int] {
        let parsed = batches.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parsed.allSatisfy({ $0.map { (1 ... 65536).contains($0) } ?? false }) else { return [] }
        return parsed.compactMap { $0 }
    }

    func run() throws {
        BLAS.useSingleThread()
        #if DEBUG
        FileHandleOutput.standardError("warning: this is a debug build; figures are many times below release (use `swift build -c release`)")
        #endif
        print("bench-policy: \(inputs) inputs × \(outputs) actions, ns per observation (greedy action)")
        print("   batch   plain loop   one sgemm   sgemm/plain")
        for b in sizes {
            let plain = PolicyThroughput.nanosecondsPerObservation(path: .plainGreedy, inputs: inputs, outputs: outputs,
                                                                   batch: b, seconds: seconds, seed: 1)
            let blas = PolicyThroughput.nanosecondsPerObservation(path: .blasGreedy, inputs: inputs, outputs: outputs,
                                                                  batch: b, seconds: seconds, seed: 1)
            print(String(format: "  %6d   %10.2f   %9.2f   %11.2f", b, plain, blas, blas / plain))
        }
    }
}
