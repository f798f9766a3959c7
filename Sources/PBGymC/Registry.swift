import Synchronization

/// The live environments, by handle. A handle is a number, never a pointer:
/// a stale or made-up handle is found missing and answered with an error,
/// instead of being dereferenced.
enum Registry {
    struct Table {
        var sessions: [UInt64: Session] = [:]
        /// Handles are never reused within a process (a stale one stays stale).
        var next: UInt64 = 1
    }

    static let table = Mutex(Table())

    static func add(_ session: Session) -> UInt64 {
        table.withLock { t in
            let h = t.next
            t.next += 1
            t.sessions[h] = session
            return h
        }
    }

    static func remove(_ handle: UInt64) throws(ABIError) {
        let removed = table.withLock { t in t.sessions.removeValue(forKey: handle) }
        guard removed != nil else { throw stale(handle) }
    }

    /// Runs `body` on the session of `handle`, holding the session's lock
    /// (two threads calling into one environment take turns).
    static func with<R>(_ handle: UInt64, _ body: (Session) throws(ABIError) -> R) throws(ABIError) -> R {
        guard let s = table.withLock({ t in t.sessions[handle] }) else { throw stale(handle) }
        return try s.lock.withLock { _ throws(ABIError) -> R in try body(s) }
    }

    static func stale(_ handle: UInt64) -> ABIError {
        ABIError(.badHandle, "handle \(handle) is not a live environment (never created, or already closed)")
    }
}
