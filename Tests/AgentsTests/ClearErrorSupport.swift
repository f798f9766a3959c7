import Testing

/// Expects `decode` to fail on `input` with one clear line: it starts with
/// the source's name (`prefix`), contains `fragment` and has no line break.
func expectOneClearError(_ input: String, prefix: String, fragment: String, _ decode: () throws -> Void) {
    do {
        try decode()
        Issue.record("decoded: \(input)")
    } catch {
        let text = String(describing: error)
        #expect(text.contains(fragment), "\(input): \(text)")
        #expect(text.hasPrefix(prefix), "\(input): \(text)")
        #expect(!text.contains("\n"), "\(input): \(text)")
    }
}
