// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The LLVM CPU of each x86-64 level (Swift's `-target-cpu` takes CPU names,
/// not levels). Each CPU's features beyond its level (AES, PCLMUL, RDRND,
/// CLWB, …) are ones code generation never emits unasked, so the build runs
/// on every CPU of the level.
let levelCPUs = ["x86-64-v3": "haswell", "x86-64-v4": "skylake-avx512"]

/// The CPU that release builds generate code for, from `PBGYM_TARGET_CPU`:
/// unset or `portable` is the toolchain's default (baseline x86-64: every
/// binary and library that `swift build`, `make` and `pip` build runs on any
/// x86-64 CPU); `x86-64-v3` and `x86-64-v4` are the microarchitecture levels
/// of the tuned builds made beside the portable ones (``levelCPUs``), which
/// the portable build hands over to at load time where `pbg_cpu_level()`
/// (CPUID) says the CPU runs them; any other value is an LLVM CPU name
/// (`haswell` for a build valgrind can run). The choice changes speed only,
/// never a result: Swift does not contract `a * b + c` into a fused
/// multiply-add, so every floating-point operation rounds the same on every
/// CPU (the golden tests pin the tuned builds against the portable one).
let targetCPU: String? = {
    let choice = ProcessInfo.processInfo.environment["PBGYM_TARGET_CPU"] ?? "portable"
    return choice == "portable" || choice.isEmpty ? nil : levelCPUs[choice] ?? choice
}()

/// Settings of every Swift target: a tuned release build's CPU, and
/// `PBGYM_TUNED` so that such a build never hands over again.
let hostCPU: [SwiftSetting] = targetCPU.map {
    [.unsafeFlags(["-target-cpu", $0], .when(configuration: .release)), .define("PBGYM_TUNED")]
} ?? []

let package = Package(
    name: "pong-breakout-gym",
    // Synchronization's Atomic (the batch runners' chunk counter) needs macOS 15;
    // Linux has no such floor.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Gym", targets: ["Gym"]),
        .library(name: "Agents", targets: ["Agents"]),
        .executable(name: "gym-train", targets: ["gym-train"]),
        // The C ABI the Python package loads (libpbgym.so); see python/.
        .library(name: "pbgym", type: .dynamic, targets: ["PBGymC"]),
        // The CPU-level probe Python asks before it picks a tuned libpbgym (C only).
        .library(name: "pbgym-cpu", type: .dynamic, targets: ["CPULevel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // OpenBLAS's CBLAS interface (libopenblas-dev); see PLATFORM.md.
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas",
                       providers: [.apt(["libopenblas-dev"])]),
        // Pure game environments: no printing, no threads, no process exit.
        .target(name: "Gym", swiftSettings: hostCPU),
        // Agents, training, and the one parallel runner.
        .target(name: "Agents", dependencies: ["Gym", "CBLAS", "AgentSpawn"], swiftSettings: hostCPU),
        // How a library inside another program's process (libpbgym in
        // Python) starts external agents: fork/exec from a thread of its own,
        // tied to the host's life, no signal handler installed (C: the code
        // between fork and exec must be async-signal-safe).
        .target(name: "AgentSpawn"),
        // Counts heap allocations (a malloc replacement forwarding to glibc's);
        // linked only into gym-train (for `bench`) and the tests.
        .target(name: "MallocCounter"),
        // The x86-64 level of this CPU (CPUID), for choosing a tuned build at load time.
        .target(name: "CPULevel"),
        // The C ABI over Gym and Agents (`pbg_*` functions, status codes,
        // handles from a registry); every input is validated, none traps.
        .target(name: "PBGymC", dependencies: ["Gym", "Agents"], swiftSettings: hostCPU),
        .executableTarget(name: "gym-train", dependencies: [
            "Gym", "Agents", "MallocCounter", "CPULevel",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: hostCPU),
        .testTarget(name: "GymTests", dependencies: ["Gym", "MallocCounter"]),
        .testTarget(name: "AgentsTests", dependencies: ["Agents", "Gym", "MallocCounter"]),
        .testTarget(name: "GymTrainTests", dependencies: ["gym-train", "Gym"]),
        // The C ABI called in-process, against the Swift batches it glues.
        .testTarget(name: "PBGymCTests", dependencies: ["PBGymC", "Gym"]),
    ]
)
