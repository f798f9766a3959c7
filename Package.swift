// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The CPU that release builds generate code for, from `PBGYM_TARGET_CPU`:
/// `host` (the default) builds for this machine the way PufferLib's C builds
/// with `-march=native`: on x86-64 Linux, the first LLVM CPU in
/// ``hostTargets`` whose features this machine's `/proc/cpuinfo` lists
/// (`icelake-server`, `skylake-avx512` or `haswell`), elsewhere the
/// toolchain's default; `portable` is always the toolchain's default (for
/// binaries and wheels that other machines run, `make wheel`); any other
/// value is an LLVM CPU name (`haswell` for a build valgrind can run: it
/// has no AVX-512). The choice changes speed only, never a result: Swift does
/// not contract `a * b + c` into a fused multiply-add, so every floating-point
/// operation rounds the same on every CPU, and the release build's outputs are
/// pinned against golden values recorded by the portable build
/// (python/tests/test_golden.py).
func releaseTargetCPU() -> String? {
    let choice = ProcessInfo.processInfo.environment["PBGYM_TARGET_CPU"] ?? "host"
    switch choice {
    case "portable": return nil
    case "host": break
    default: return choice
    }
    #if os(Linux) && arch(x86_64)
    guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let flagsLine = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return nil }
    let flags = Set(flagsLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }).map(String.init))
    return hostTargets.first { $0.flags.isSubset(of: flags) }?.cpu
    #else
    return nil
    #endif
}

/// LLVM CPUs for `host` builds, newest first, each with the `/proc/cpuinfo`
/// flags of the features it assumes that the games' code can use: AVX-512
/// gives eight games' lanes 32 vector registers instead of 16, mask
/// registers for selects, and 64-bit lane conversions.
let hostTargets: [(cpu: String, flags: Set<String>)] = {
    let haswell: Set = ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "popcnt"]
    let skylakeAVX512 = haswell.union(["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"])
    let icelakeServer = skylakeAVX512.union(["avx512ifma", "avx512vbmi", "avx512_vbmi2", "avx512_vnni",
                                             "avx512_bitalg", "avx512_vpopcntdq", "gfni", "vaes", "vpclmulqdq"])
    return [("icelake-server", icelakeServer), ("skylake-avx512", skylakeAVX512), ("haswell", haswell)]
}()

/// Settings of every target: the release build's target CPU (see above).
let hostCPU: [SwiftSetting] = releaseTargetCPU().map {
    [.unsafeFlags(["-target-cpu", $0], .when(configuration: .release))]
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
        .target(name: "Agents", dependencies: ["Gym", "CBLAS"], swiftSettings: hostCPU),
        // Counts heap allocations (a malloc replacement forwarding to glibc's);
        // linked only into gym-train (for `bench`) and the tests.
        .target(name: "MallocCounter"),
        // The C ABI over Gym and Agents (`pbg_*` functions, status codes,
        // handles from a registry); every input is validated, none traps.
        .target(name: "PBGymC", dependencies: ["Gym", "Agents"], swiftSettings: hostCPU),
        .executableTarget(name: "gym-train", dependencies: [
            "Gym", "Agents", "MallocCounter",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: hostCPU),
        .testTarget(name: "GymTests", dependencies: ["Gym", "MallocCounter"]),
        .testTarget(name: "AgentsTests", dependencies: ["Agents", "Gym", "MallocCounter"]),
        .testTarget(name: "GymTrainTests", dependencies: ["gym-train", "Gym"]),
    ]
)
