// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "Gym"),
        // Agents, training, and the one parallel runner.
        .target(name: "Agents", dependencies: ["Gym", "CBLAS"]),
        // Counts heap allocations (a malloc replacement forwarding to glibc's);
        // linked only into gym-train (for `bench`) and the tests.
        .target(name: "MallocCounter"),
        // The C ABI over Gym and Agents (`pbg_*` functions, status codes,
        // handles from a registry); every input is validated, none traps.
        .target(name: "PBGymC", dependencies: ["Gym", "Agents"]),
        .executableTarget(name: "gym-train", dependencies: [
            "Gym", "Agents", "MallocCounter",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "GymTests", dependencies: ["Gym", "MallocCounter"]),
        .testTarget(name: "AgentsTests", dependencies: ["Agents", "Gym", "MallocCounter"]),
        .testTarget(name: "GymTrainTests", dependencies: ["gym-train", "Gym"]),
    ]
)
