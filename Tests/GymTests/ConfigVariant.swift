@testable import Gym

extension GameConfig {
    /// This config with `change` applied: a named test variant written as
    /// one row of a table (a preset and what the test changes in it).
    func with(_ change: (inout Self) -> Void) -> Self {
        var config = self
        change(&config)
        return config
    }
}
