import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Runs the built `gym-train` with a pseudo-terminal as its standard input,
/// output and error (100 × 40 cells), so `play` sees a TTY. The test writes
/// keys to the terminal's master side and reads everything the program
/// draws. Waiting (for the program to enter raw mode, for it to exit) polls
/// with a generous deadline that only guards against a hung test; no test
/// depends on how long anything takes.
final class PseudoTerminal: @unchecked Sendable {
    let process = Process()
    let master: Int32
    private let lock = NSLock()
    private var collected = Data()
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `gym-train arguments` on a new pseudo-terminal, with `environment` added to the test's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        var m: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&m, &slave, nil, nil, &size) == 0 else {
            throw PseudoTerminalError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        master = m
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = CLI.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        close(slave)
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n > 0 {
                    lock.lock(); collected.append(contentsOf: buffer[0 ..< n]); lock.unlock()
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    break   // EIO: every slave descriptor is closed (the program ended)
                }
            }
            readerDone.signal()
        }
    }

    deinit { close(master) }

    /// Everything the program wrote so far, as text.
    var output: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Waits until the output contains `marker` (false if the program ended or the guard deadline passed first).
    @discardableResult
    func waitFor(_ marker: String) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if output.contains(marker) { return true }
            if !process.isRunning, output.contains(marker) == false {
                // Give the reader the program's last bytes.
                _ = readerDone.wait(timeout: .now() + 5)
                return output.contains(marker)
            }
            usleep(2000)
        }
        return false
    }

    /// Waits until the game is drawn in raw mode (keys sent before would be flushed).
    func waitUntilPlaying() {
        #expect(waitFor("\u{1B}[?1049h"), "play never entered raw mode; output: \(output.suffix(400))")
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else if errno != EINTR && errno != EAGAIN { return }
        }
    }

    /// Waits for the program to end; returns its exit status (kills it and fails past the guard deadline).
    func finish() -> Int32 {
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(2000) }
        if process.isRunning {
            // SIGKILL: a program started with signals blocked would never see SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            Issue.record("play did not end; output: \(output.suffix(400))")
        }
        process.waitUntilExit()
        _ = readerDone.wait(timeout: .now() + 10)
        return process.terminationStatus
    }
}

struct PseudoTerminalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
