import CPULevel
import Foundation

/// The portable `gym-train` hands the process to a build tuned for this CPU
/// when one was built beside it (`make release`, `pip install`):
/// `gym-train-x86-64-v4` or `gym-train-x86-64-v3` in the same folder, the
/// newest whose x86-64 level the CPU runs (``pbg_cpu_level()``: CPUID, so an
/// emulated or older CPU is never handed a build it cannot run). Results
/// never depend on the choice (every build rounds every operation the same;
/// the golden tests pin it), only speed does.
enum TunedBuild {
    /// Whether this executable was built for a chosen CPU (`PBGYM_TARGET_CPU`).
    static var isTuned: Bool {
        #if PBGYM_TUNED
        return true
        #else
        return false
        #endif
    }

    /// Replaces this process by the tuned build (same arguments, same
    /// environment), or returns when there is none to run: a tuned build
    /// itself, no sibling, or a CPU below x86-64-v3.
    static func handOver() {
        #if !PBGYM_TUNED && os(Linux)
        let level = Int(pbg_cpu_level())
        guard level >= 3, let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return }
        for candidate in stride(from: level, through: 3, by: -1) {
            let path = executable + "-x86-64-v\(candidate)"
            if access(path, X_OK) == 0 {
                execv(path, CommandLine.unsafeArgv)   // returns only if it failed: run the portable build
            }
        }
        #endif
    }
}
