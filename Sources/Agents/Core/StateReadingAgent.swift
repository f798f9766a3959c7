/// A batched agent that reads its games' state from the caller's vector
/// (``AgentContext/vector``) instead of the observation rows: the caller
/// need not write the rows of the seats it alone holds
/// (``VectorStepOutput/observedRows``), and its actions are those it would
/// make on the rows the vector would write, bit for bit.
///
/// ``BatchAgent/act(_:)`` ignores the rows' observations (their games'
/// state must be the vector's current one); ``act(observationRows:)`` acts
/// on the rows instead, for a caller replaying observations the vector no
/// longer holds (a restored C ABI session's opponent history).
public protocol StateReadingAgent: BatchAgent {
    /// ``BatchAgent/act(_:)`` on the rows' observations.
    func act(observationRows rows: AgentRows)
}

extension BatchAgent {
    /// Whether the agent reads the observation rows of the seats it holds
    /// (false for a ``StateReadingAgent``).
    public var readsObservations: Bool { !(self is any StateReadingAgent) }
}
