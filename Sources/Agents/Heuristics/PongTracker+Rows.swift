import Gym

extension PongTracker: TrackerRules {
    /// Rows eight at a time: each block's entries 0, 4, 5, 6, 7 gathered
    /// from its rows into lanes, the aim (``aim(ownX:ballX:ballY:vx:vy:)``,
    /// which keeps no state) taken in eight lanes, then the steering
    /// (``steer(_:own:target:incoming:halfPaddle:deadZone:)``) row by row,
    /// each game through its columns; a skill that keeps no state
    /// (``PongLaneTracker/plain(_:)``) moves in the lanes. The same moves as ``decide(_:_:)`` row by row, bit for bit
    /// (the lanes are its operations lane by lane). A last block of fewer
    /// rows leaves its other lanes at earlier (or zero) entries, whose aims
    /// are never used.
    /// - Returns: the rows whose moves were taken in lanes (every row for a
    ///   skill without state, else none).
    @discardableResult
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int) -> Int {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 5 * 8) { entries in
            guard let e = entries.baseAddress else { return 0 }
            entries.initialize(repeating: 0)
            return act(rows, steering, entries: e)
        }
    }

    /// ``act(_:_:_:)`` with its scratch: five columns of eight entries at `entries`.
    @inline(__always)
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, entries e: UnsafeMutablePointer<Float>) -> Int {
        typealias L = SIMD8<Float>
        let plain = PongLaneTracker.plain(skill), deadZone = field.deadZone, halfPaddle = halfPaddle
        var k = 0, inLanes = 0
        while k < rows.count {
            let m = Swift.min(8, rows.count &- k)
            for j in 0 ..< m {
                let o = rows.observations + rows.game(k &+ j) &* rows.stride
                e[j] = o[0]; e[8 &+ j] = o[4]; e[16 &+ j] = o[5]; e[24 &+ j] = o[6]; e[32 &+ j] = o[7]
            }
            let aim = self.aim(ownX: L(loading: e), ballX: L(loading: e + 8), ballY: L(loading: e + 16),
                               vx: L(loading: e + 24), vy: L(loading: e + 32))
            if plain {
                let moves = Self.actions(TrackerSteering.direction(toward: aim.target, from: aim.own, deadZone: deadZone))
                for j in 0 ..< m { rows.setAction(k &+ j, moves[j]) }
                inLanes &+= m
            } else {
                for j in 0 ..< m {
                    var cursor = steering.cursor(rows.game(k &+ j))
                    let direction = Self.steer(&cursor, own: aim.own[j], target: aim.target[j],
                                               incoming: LaneFlag(aim.incoming[j]), halfPaddle: halfPaddle,
                                               deadZone: deadZone)
                    rows.setAction(k &+ j, Int32(Self.action(TrackerSteering.move(direction))))
                }
            }
            k &+= m
        }
        return inLanes
    }
}
