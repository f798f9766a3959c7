import Foundation

/// A progress line on stderr while long work runs, only when stderr is a
/// terminal (silent in pipes, files and CI). Safe to tick from workers.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let label: String
    private let enabled: Bool
    private var done = 0
    private var lastDraw = Date.distantPast
    private let start = Date()

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
    }

    /// Marks one unit done.
    func tick() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let eta = fraction > 0 ? elapsed / fraction - elapsed : 0
        let line = String(format: "\r%@ %d/%d (%.0f%%) %.1fs elapsed, ~%.1fs left ", label, done, total,
                          fraction * 100, elapsed, eta)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Sets an explicit status (for work that is not counted in units).
    func status(_ text: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data("\r\(label) \(text)\u{1B}[K".utf8))
    }

    /// Clears the line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
