import Foundation

/// A saved game: the full state (generators included) plus the config it
/// belongs to, with a format version. Restoring it and stepping on is
/// bit-identical to never having stopped.
public struct Snapshot<State: SnapshotState, Config>: Codable, Sendable where State.Config == Config {
    /// The snapshot format this build writes and reads.
    public static var currentVersion: Int { 1 }

    public var formatVersion: Int
    public var game: String
    public var config: Config
    public var state: State

    public init(config: Config, state: State) {
        formatVersion = Self.currentVersion
        game = Config.gameName
        self.config = config
        self.state = state
    }

    /// Encodes as JSON (floats in shortest round-trip form, so decoding is exact).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes and checks a snapshot: the config is range-checked, then every
    /// field of the state against the game's invariants under that config
    /// (``SnapshotState/checkInvariants(_:)``), so no decoded game can step
    /// into a state its rules never reach.
    /// - Throws: ``SnapshotError`` when the data is not a snapshot, is from a
    ///   newer format, is for another game, or holds an impossible state.
    public static func decode(_ data: Data) throws(SnapshotError) -> Self {
        let header: SnapshotHeader
        do { header = try JSONDecoder().decode(SnapshotHeader.self, from: data) } catch {
            throw .corrupt("not a snapshot (\(SnapshotError.describe(error)))")
        }
        if header.formatVersion > currentVersion || header.formatVersion < 1 {
            throw .unsupportedVersion(found: header.formatVersion, supported: currentVersion)
        }
        if header.game != Config.gameName { throw .wrongGame(found: header.game, expected: Config.gameName) }
        let snapshot: Self
        do { snapshot = try JSONDecoder().decode(Self.self, from: data) } catch {
            if case let DecodingError.dataCorrupted(context) = error, context.codingPath.isEmpty {
                throw .corrupt(locateBadValue(data))
            }
            throw .corrupt(SnapshotError.describe(error))
        }
        do { try snapshot.config.validate(source: "snapshot config") } catch { throw .corrupt(error.description) }
        try snapshot.state.checkInvariants(snapshot.config)
        return snapshot
    }
}

/// A game's full state as snapshots hold it, with the game's invariants:
/// what every state its rules can reach under a config satisfies.
///
/// Each game states its invariants once, beside its state
/// (`<Game>State+Invariants.swift`); every path that turns outside data
/// into a game (``Snapshot/decode(_:)``, the batches' `restore`, the single
/// games' `init(restoring:)`) checks them, so a forged or damaged state is
/// refused with the field, its value and what is allowed, instead of
/// reaching arithmetic that would trap on it.
public protocol SnapshotState: Codable, Sendable {
    associatedtype Config: GameConfig & Codable
    /// A state of `config` (its episode seeded 0): the shape of a valid one.
    static func initial(_ config: Config) -> Self
    /// Throws ``SnapshotError/impossible(field:value:allowed:)`` for the
    /// first field (in declaration order) no game under `config` can reach.
    func checkInvariants(_ config: Config) throws(SnapshotError)
}

/// Throws ``SnapshotError/impossible(field:value:allowed:)`` unless `ok`.
@inline(__always)
func require(_ ok: Bool, _ field: @autoclosure () -> String, _ value: @autoclosure () -> Any,
             allowed: @autoclosure () -> String) throws(SnapshotError) {
    if !ok { throw .impossible(field: field(), value: "\(value())", allowed: allowed()) }
}

extension Snapshot {
    /// Where a snapshot that JSONDecoder calls corrupt without saying where
    /// (a number that does not fit its field's type, e.g. 3601 for a
    /// `UInt8`, is reported so) goes wrong: the first field of the state
    /// (a leaf of the document: a number, a list, a flag) whose value, put
    /// into a valid snapshot of the same config, makes it undecodable.
    /// Runs only on that error path (one trial decoding per field).
    static func locateBadValue(_ data: Data) -> String {
        let doc: JSONValue
        do { doc = try JSONValue.parse(String(decoding: data, as: UTF8.self)) } catch { return "not valid JSON (\(error))" }
        guard let config = try? JSONDecoder().decode(ConfigPart<Config>.self, from: data).config,
              let valid = try? Self(config: config, state: State.initial(config)).encoded(),
              let template = try? JSONValue.parse(String(decoding: valid, as: UTF8.self)) else {
            return "bad value at config"
        }
        for path in template.leafPaths(under: ["state"]) {
            let trial = template.replacing(path, with: doc.value(at: path) ?? .null)
            if (try? JSONDecoder().decode(Self.self, from: Data(trial.serialized(pretty: false).utf8))) == nil {
                return "bad value at \(path.joined(separator: ".")) (\(doc.value(at: path)?.serialized(pretty: false) ?? "missing") does not fit the field's type)"
            }
        }
        return "not valid JSON"
    }
}

/// The config of a snapshot alone.
private struct ConfigPart<Config: Decodable>: Decodable {
    var config: Config
}

extension JSONValue {
    /// The value at `path` (object keys), or nil.
    fileprivate func value(at path: [String]) -> JSONValue? {
        var v: JSONValue? = self
        for key in path { v = v?[key] }
        return v
    }

    /// Every path below `prefix` that ends at a value that is not an object.
    fileprivate func leafPaths(under prefix: [String]) -> [[String]] {
        guard case let .object(members)? = value(at: prefix) else { return [prefix] }
        return members.flatMap { leafPathsBelow(prefix + [$0.0], $0.1) }
    }

    private func leafPathsBelow(_ path: [String], _ v: JSONValue) -> [[String]] {
        guard case let .object(members) = v else { return [path] }
        return members.flatMap { leafPathsBelow(path + [$0.0], $0.1) }
    }

    /// This document with the value at `path` replaced by `new`.
    fileprivate func replacing(_ path: [String], with new: JSONValue) -> JSONValue {
        guard let key = path.first else { return new }
        guard case let .object(members) = self else { return self }
        return .object(members.map { $0.0 == key ? ($0.0, $0.1.replacing(Array(path.dropFirst()), with: new)) : $0 })
    }
}

/// The fields every snapshot format version starts with.
struct SnapshotHeader: Decodable {
    var formatVersion: Int
    var game: String
}

/// Why a snapshot could not be restored.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    case corrupt(String)
    case unsupportedVersion(found: Int, supported: Int)
    case wrongGame(found: String, expected: String)
    /// A field holds a value no game under the snapshot's config can reach
    /// (`field` is its JSON path, e.g. `state.core.score`).
    case impossible(field: String, value: String, allowed: String)

    public var description: String {
        switch self {
        case let .corrupt(why): "corrupt snapshot: \(why)"
        case let .impossible(field, value, allowed):
            "corrupt snapshot: \(field) = \(value) is impossible in this game; allowed: \(allowed)"
        case let .unsupportedVersion(found, supported):
            "snapshot format version \(found) is not supported (this build reads version \(supported))"
        case let .wrongGame(found, expected): "snapshot is of game \"\(found)\", expected \"\(expected)\""
        }
    }

    /// A decoding error as one short phrase (the missing field, or where a
    /// value is bad), for the one-line messages of anything read from JSON.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, ctx):
            "missing field \"\((ctx.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
        case let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx):
            "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case let DecodingError.dataCorrupted(ctx):
            ctx.codingPath.isEmpty ? "not valid JSON" : "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
