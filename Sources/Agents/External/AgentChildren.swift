#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every external agent process alive, so that no exit of the gym leaves one
/// running: a normal exit or an error (`exit`, through ``installExitGuards()``'s
/// `atexit` handler) and SIGINT, SIGTERM, SIGHUP (its signal handlers) kill
/// them all with SIGKILL. An agent also sees its standard input close when
/// the gym dies of a signal that cannot be caught (SIGKILL), and the clients
/// of docs/agents.md exit then.
public enum AgentChildren {
    /// Most children alive at once (a slot of the table each).
    static let capacity = 4096
    /// The table of live child process ids (0: a free slot), read by the
    /// signal handlers without a lock (async-signal-safe: loads and `kill` only).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()
    static let lock = NSLock()
    nonisolated(unsafe) static var guardsInstalled = false

    /// Records `pid` (the caller holds ``lock``); false when the table is full.
    static func addLocked(_ pid: pid_t) -> Bool {
        for k in 0 ..< capacity where table[k] == 0 {
            table[k] = pid
            return true
        }
        return false
    }

    static func remove(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        for k in 0 ..< capacity where table[k] == pid { table[k] = 0 }
    }

    /// SIGKILLs every live child (safe inside a signal handler).
    public static func killAll() {
        for k in 0 ..< capacity where table[k] > 0 { kill(table[k], SIGKILL) }
    }

    /// Installs, once: an `atexit` handler and SIGINT, SIGTERM and SIGHUP
    /// handlers that kill every child (the signal handlers then restore the
    /// default action and raise the signal again, so the gym still dies of
    /// it); and ignores SIGPIPE (a write to an agent that exited fails with
    /// EPIPE instead of killing the gym). A program that later sets its own
    /// SIGINT/SIGTERM handling calls ``killAll()`` on its own exits.
    public static func installExitGuards() {
        lock.lock()
        defer { lock.unlock() }
        guard !guardsInstalled else { return }
        guardsInstalled = true
        _ = table
        signal(SIGPIPE, SIG_IGN)
        atexit { AgentChildren.killAll() }
        // A parent may have started the gym with these blocked (they would
        // then never arrive); threads made from now on inherit this mask.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                AgentChildren.killAll()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
