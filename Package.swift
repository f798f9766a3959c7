// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pong-breakout-gym",
    products: [
        .library(name: "Gym", targets: ["Gym"]),
        .library(name: "Agents", targets: ["Agents"]),
        .executable(name: "gym-train", targets: ["gym-train"]),
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
        .executableTarget(name: "gym-train", dependencies: [
            "Gym", "Agents",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "GymTests", dependencies: ["Gym"]),
        .testTarget(name: "AgentsTests", dependencies: ["Agents", "Gym"]),
        .testTarget(name: "GymTrainTests", dependencies: ["gym-train"]),
    ]
)
