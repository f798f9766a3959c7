#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The status every ABI function returns (0 = success). The message of a
/// failure is the calling thread's last error (``LastError``).
enum ABIStatus: Int32, CaseIterable {
    case ok = 0
    /// An argument is wrong (null pointer, index out of range, bad size).
    case invalidArgument = 1
    /// The handle is not a live environment (never created, or destroyed).
    case badHandle = 2
    /// A caller buffer is shorter than needed (the needed size is reported).
    case bufferTooSmall = 3
    /// The create config is malformed or out of range.
    case badConfig = 4
    /// A snapshot is truncated, corrupt, of another game or config.
    case badSnapshot = 5
    /// An action is outside the game's action range.
    case badAction = 6
    /// A required buffer is not bound.
    case notReady = 7
    /// Memory the call needs cannot be allocated (nothing was changed).
    case outOfMemory = 8
    /// An agent the session seats (the opponent) could not act: it faulted
    /// (an external agent exited, timed out, replied badly).
    case agentFault = 9
}

extension ABIStatus {
    /// The status's name as `pbg_library_info` reports it (Python's
    /// `STATUS_NAMES` are read from there).
    var name: String {
        switch self {
        case .ok: "ok"
        case .invalidArgument: "invalid argument"
        case .badHandle: "bad handle"
        case .bufferTooSmall: "buffer too small"
        case .badConfig: "bad config"
        case .badSnapshot: "bad snapshot"
        case .badAction: "bad action"
        case .notReady: "not ready"
        case .outOfMemory: "out of memory"
        case .agentFault: "agent fault"
        }
    }
}

/// A failure: its status and one line naming the problem.
struct ABIError: Error {
    var status: ABIStatus
    var message: String

    init(_ status: ABIStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// Each thread's last error text (a C caller reads it after a non-zero
/// status; Python's ctypes may call from any thread).
enum LastError {
    final class Box {
        var text: [UInt8] = []
    }

    static let key: pthread_key_t = {
        var k = pthread_key_t()
        _ = pthread_key_create(&k) { p in
            // Runs at thread exit: release the thread's box.
            #if canImport(Darwin)
            Unmanaged<Box>.fromOpaque(p).release()
            #else
            if let p { Unmanaged<Box>.fromOpaque(p).release() }
            #endif
        }
        return k
    }()

    static var box: Box {
        if let p = pthread_getspecific(key) { return Unmanaged<Box>.fromOpaque(p).takeUnretainedValue() }
        let b = Box()
        _ = pthread_setspecific(key, Unmanaged.passRetained(b).toOpaque())
        return b
    }

    static func set(_ message: String) { box.text = Array(message.utf8) }
    static func clear() { box.text.removeAll(keepingCapacity: true) }
    static var bytes: [UInt8] { box.text }
}

/// Runs an ABI call: success returns 0; a thrown ``ABIError`` becomes its
/// status with its message stored as the thread's last error.
@inline(__always)
func abiCall(_ body: () throws(ABIError) -> Void) -> Int32 {
    do {
        try body()
        return ABIStatus.ok.rawValue
    } catch {
        LastError.set(error.message)
        return error.status.rawValue
    }
}
