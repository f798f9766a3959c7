import Gym

extension AgentSpec {
    /// What a match record keeps of an external agent beside its spec text:
    /// `{"name": display name, "file": the agent file as given (null inline),
    /// "sha256": the file's SHA-256 in hex, as `sha256sum FILE` prints it
    /// (null inline)}`; nil for a built-in agent, whose records stay as they were.
    public var programRecord: JSONValue? {
        guard case let .process(file) = kind else { return nil }
        return .object([("name", .string(displayName)), ("file", file.path.map { .string($0) } ?? .null),
                        ("sha256", file.sha256.map { .string($0) } ?? .null)])
    }
}
