import Foundation

/// A saved game: the full state (generators included) plus the config it
/// belongs to, with a format version. Restoring it and stepping on is
/// bit-identical to never having stopped.
public struct Snapshot<State: Codable & Sendable, Config: GameConfig & Codable>: Codable, Sendable {
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

    /// Decodes and checks a snapshot.
    /// - Throws: ``SnapshotError`` when the data is not a snapshot, is from a
    ///   newer format, or is for another game; the config is range-checked.
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
            throw .corrupt(SnapshotError.describe(error))
        }
        do { try snapshot.config.validate(source: "snapshot config") } catch { throw .corrupt(error.description) }
        return snapshot
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

    public var description: String {
        switch self {
        case let .corrupt(why): "corrupt snapshot: \(why)"
        case let .unsupportedVersion(found, supported):
            "snapshot format version \(found) is not supported (this build reads version \(supported))"
        case let .wrongGame(found, expected): "snapshot is of game \"\(found)\", expected \"\(expected)\""
        }
    }

    /// A decoding error as one short phrase (the missing field, or where a
    /// value is bad), for the one-line messages of anything read from JSON.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, _): "missing field \"\(key.stringValue)\""
        case let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx):
            "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case let DecodingError.dataCorrupted(ctx):
            ctx.codingPath.isEmpty ? "not valid JSON" : "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
