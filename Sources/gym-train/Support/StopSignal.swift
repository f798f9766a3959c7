import Agents
import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a flag that long work polls between units
/// (a training iteration), so it can stop cleanly: finish the unit, write
/// its files, and exit with a message. A second signal, more than a second
/// after the first, exits at once (every file is written whole, so nothing
/// is left half-written); one within a second is taken as the same signal
/// delivered twice (e.g. to the process and to its process group, as
/// `timeout` does).
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var receivedAt = DispatchTime.now()
    private var sources: [DispatchSourceSignal] = []
    /// Signalled once by the first signal (see ``waitForSignal()``).
    private let arrived = DispatchSemaphore(value: 0)

    /// Installs the handlers (until ``uninstall()``).
    /// - Parameter onFirst: called (from a Dispatch queue) when the first
    ///   signal arrives, e.g. to print "stopping after this iteration".
    init(onFirst: @escaping @Sendable (Int32) -> Void = { _ in }) {
        for sig in [SIGINT, SIGTERM] {
            Foundation.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global(qos: .userInitiated))
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.lock.lock()
                let first = self.received == nil
                let now = DispatchTime.now()
                let repeated = !first && now.uptimeNanoseconds - self.receivedAt.uptimeNanoseconds < 1_000_000_000
                if first { self.received = sig; self.receivedAt = now }
                self.lock.unlock()
                if first {
                    onFirst(sig)
                    self.arrived.signal()
                } else if !repeated {
                    FileHandleOutput.standardError("gym-train: second signal, exiting now")
                    AgentChildren.killAll()
                    _exit(128 + sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, if any.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Blocks until the first signal has arrived (at once if it has).
    func waitForSignal() {
        arrived.wait()
        arrived.signal()
    }

    /// Restores the default handlers.
    func uninstall() {
        for s in sources { s.cancel() }
        sources = []
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
    }

    static func name(_ sig: Int32) -> String { sig == SIGINT ? "SIGINT" : (sig == SIGTERM ? "SIGTERM" : "signal \(sig)") }
}
