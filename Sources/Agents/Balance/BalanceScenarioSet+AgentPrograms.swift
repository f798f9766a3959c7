extension BalanceScenarioSet {
    /// This set with every external agent allowed to start its program (the
    /// person opted in, e.g. `--allow-agent-programs`; a scenario file's
    /// agents are read from a file, so they are not allowed by default).
    public func allowingAgentPrograms() -> BalanceScenarioSet {
        var set = self
        for k in set.scenarios.indices {
            set.scenarios[k].a = set.scenarios[k].a.allowingStart()
            set.scenarios[k].b = set.scenarios[k].b?.allowingStart()
        }
        return set
    }
}
