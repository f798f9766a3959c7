import Testing
@testable import Gym

extension GameConfig {
    /// This config with `change` applied: a named test variant written as
    /// one row of a table (a preset and what the test changes in it).
    func with(_ change: (inout Self) -> Void) -> Self {
        var config = self
        change(&config)
        return config
    }

    /// This config with each key of `highest` at the upper end of its range
    /// and each key of `lowest` at the lower end, written through the
    /// fields' own range checks (relations between fields are not checked
    /// here). A key that is not a field with a range fails the
    /// calling test and is left as it was.
    func atRangeEnds(highest: [String] = [], lowest: [String] = []) -> Self {
        var config = self
        for (keys, end) in [(lowest, 0), (highest, 1)] {
            for key in keys {
                guard let field = Self.fields.first(where: { $0.key == key }), let ends = field.ends else {
                    Issue.record("\(Self.gameName): \(key) is not a key with a range")
                    continue
                }
                let value = end == 0 ? ends.lower : ends.upper
                do { try field.write(&config, value, "range end") } catch {
                    Issue.record("\(Self.gameName): \(key) = \(value.serialized()): \(error)")
                }
            }
        }
        return config
    }
}
