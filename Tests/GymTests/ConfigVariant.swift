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

    /// The two ends of `field`'s range as its table states them (`"2"`,
    /// `"0.25"`: JSON numbers), lower first; `["false", "true"]` for a
    /// `Bool` field; nil for a field with no numeric range (lists, layouts).
    static func rangeEnds(_ field: ConfigField<Self>) -> [String]? {
        if field.allowed == "true / false" { return ["false", "true"] }
        let parts = field.allowed.replacingOccurrences(of: " (integer)", with: "").components(separatedBy: " ... ")
        guard parts.count == 2, Double(parts[0]) != nil, Double(parts[1]) != nil else { return nil }
        return parts
    }

    /// This config with each key of `highest` at the upper end of its range
    /// and each key of `lowest` at the lower end, written through the
    /// fields' own range checks (relations between fields are not checked
    /// here). A key that is not a field with a numeric range fails the
    /// calling test and is left as it was.
    func atRangeEnds(highest: [String] = [], lowest: [String] = []) -> Self {
        var config = self
        for (keys, end) in [(lowest, 0), (highest, 1)] {
            for key in keys {
                guard let field = Self.fields.first(where: { $0.key == key }), let ends = Self.rangeEnds(field),
                      let value = try? JSONValue.parse(ends[end]) else {
                    Issue.record("\(Self.gameName): \(key) is not a key with a numeric range")
                    continue
                }
                do { try field.write(&config, value, "range end") } catch {
                    Issue.record("\(Self.gameName): \(key) = \(ends[end]): \(error)")
                }
            }
        }
        return config
    }
}
