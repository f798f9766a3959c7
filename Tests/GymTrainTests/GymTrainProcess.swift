import Foundation

/// Runs the built `gym-train` executable (a sibling of the test bundle in
/// the build folder) from the package root, capturing its output.
struct GymTrainProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (.build/<config>/gym-train).
    static var executable: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        let sibling = dir.appendingPathComponent("gym-train")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
        return packageRoot.appendingPathComponent(".build/debug/gym-train")
    }

    /// Runs `gym-train arguments` with `environment` added to this process's.
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "1"   // no progress lines
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let errData = ReadBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryFolder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gym-train-tests-\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0 ... .max))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

final class ReadBox: @unchecked Sendable {
    var data = Data()
}
