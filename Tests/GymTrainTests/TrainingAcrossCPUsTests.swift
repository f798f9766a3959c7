import Foundation
import Testing
import Agents

/// Training gives the same bytes whichever kernels OpenBLAS picks for the
/// CPU. OpenBLAS reads `OPENBLAS_CORETYPE` when it loads, so each kernel
/// family runs in its own `gym-train` process; run.json's `blas` line says
/// which family the process really used, and the test requires at least
/// three different ones (the older, unslicing products gave three different
/// policies from Prescott, Haswell and SkylakeX kernels in this test).
@Suite(.serialized) struct TrainingAcrossCPUsTests {
    /// Kernel families of OpenBLAS 0.3's x86-64 `DYNAMIC_ARCH` builds, oldest
    /// first; a family the CPU cannot run falls back to one it can, which
    /// the `blas` line shows.
    static let coreTypes = ["Prescott", "Nehalem", "Sandybridge", "Haswell", "Zen", "SkylakeX", "Cooperlake"]

    static let trainers: [(name: String, arguments: [String])] = [
        ("es", ["--config", "Configs/train.json", "--iterations", "4", "--population", "8",
                "--episode-steps", "400", "--eval-interval", "4", "--eval-episodes", "2", "--eval-steps", "400"]),
        ("reinforce", ["--config", "Configs/train-breakout.json", "--trainer", "reinforce", "--iterations", "3",
                       "--episode-steps", "500", "--eval-interval", "3", "--eval-episodes", "2", "--eval-steps", "300"]),
    ]

    @Test(arguments: trainers.map(\.name))
    func sameWeightsWithEveryOpenBLASKernel(trainer: String) throws {
        let arguments = try #require(Self.trainers.first { $0.name == trainer }).arguments
        let root = GymTrainProcess.temporaryFolder("blas-\(trainer)")
        defer { try? FileManager.default.removeItem(at: root) }
        var used: [String: String] = [:]       // kernel family really used → its run's folder
        var reference: (core: String, files: [String: Data])?
        for core in Self.coreTypes {
            let out = root.appendingPathComponent(core).path
            let result = try GymTrainProcess.run(["train"] + arguments + ["--workers", "2", "--out", out],
                                                 environment: ["OPENBLAS_CORETYPE": core])
            #expect(result.status == 0, "\(core): \(result.stderr)")
            guard result.status == 0 else { continue }
            let kernel = try Self.kernelFamily(runJSON: out + "/run.json")
            used[kernel] = core
            let files = try Self.results(in: out)
            if let reference {
                for (name, bytes) in files {
                    #expect(reference.files[name] == bytes,
                            "\(trainer): \(name) differs between OPENBLAS_CORETYPE=\(reference.core) and \(core)")
                }
                #expect(Set(files.keys) == Set(reference.files.keys))
            } else {
                reference = (core, files)
            }
        }
        #expect(used.count >= 3, "only these kernel families ran: \(used.keys.sorted())")
    }

    /// The kernel family named by run.json's `blas` line (OpenBLAS's build
    /// line, "OpenBLAS 0.3.21 … DYNAMIC_ARCH NO_AFFINITY <family> MAX_THREADS=64").
    static func kernelFamily(runJSON path: String) throws -> String {
        let run = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(run.split(separator: "\n").first { $0.contains("\"blas\"") })
        let words = line.split(separator: " ")
        let threads = try #require(words.lastIndex { $0.hasPrefix("MAX_THREADS") }, "no MAX_THREADS in \(line)")
        return String(words[threads - 1])
    }

    /// The run's policies (final, best, every kept iteration), byte for
    /// byte, and checkpoint.json with its wall-clock seconds (the one field
    /// that is a measurement) set to zero.
    static func results(in folder: String) throws -> [String: Data] {
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder + "/checkpoints").map { "checkpoints/" + $0 }
        var files: [String: Data] = [:]
        for name in ["policy.json", "best.json"] + kept {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        var checkpoint = try Checkpoint.load(path: folder + "/checkpoint.json")
        checkpoint.training?.wallSeconds = 0
        files["checkpoint.json"] = Data(try checkpoint.encoded().utf8)
        return files
    }
}
