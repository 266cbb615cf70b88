import Synchronization

/// Which reading loop of this process has which accelerometer open, so that a new reader opens
/// a device only once the previous one has closed it.
///
/// A driver gives its buffer to one reader at a time: a second open gets `EBUSY`, and a late
/// close disables the buffer under the new reader's feet. When a consumer stops and another
/// starts at once (an app loses focus and the next one takes it), the old loop may still be
/// tearing down. So a loop claims a device (by sysfs path) before opening it and releases the
/// claim only after its reader is gone (buffer disabled, libiio context destroyed); a loop
/// that finds the device claimed waits, asleep in `poll`, and is nudged when it is released.
enum DeviceClaims {
    private struct State {
        /// Device sysfs path → the loop that has it open.
        var holders: [String: ObjectIdentifier] = [:]
        /// Device sysfs path → loops waiting for it.
        var waiting: [String: [LoopControl]] = [:]
    }

    private static let state = Mutex(State())

    /// Claims `syspath` for `loop`; false (and `loop` is nudged on release) when another loop has it.
    static func claim(_ syspath: String, for loop: LoopControl) -> Bool {
        state.withLock { state in
            let me = ObjectIdentifier(loop)
            guard let holder = state.holders[syspath], holder != me else {
                state.holders[syspath] = me
                return true
            }
            if !(state.waiting[syspath] ?? []).contains(where: { $0 === loop }) {
                state.waiting[syspath, default: []].append(loop)
            }
            return false
        }
    }

    /// Releases `syspath` if `loop` holds it, nudging the loops that wait for it.
    static func release(_ syspath: String, by loop: LoopControl) {
        let waiters: [LoopControl] = state.withLock { state in
            guard state.holders[syspath] == ObjectIdentifier(loop) else { return [] }
            state.holders[syspath] = nil
            return state.waiting.removeValue(forKey: syspath) ?? []
        }
        for waiter in waiters { waiter.nudge() }
    }

    /// Forgets everything about `loop` (it has ended): its claims are released, its waits dropped.
    static func forget(_ loop: LoopControl) {
        let held: [String] = state.withLock { state in
            for key in state.waiting.keys { state.waiting[key]?.removeAll { $0 === loop } }
            state.waiting = state.waiting.filter { !$0.value.isEmpty }
            return state.holders.filter { $0.value == ObjectIdentifier(loop) }.map(\.key)
        }
        for syspath in held { release(syspath, by: loop) }
    }

    /// Whether some loop holds `syspath` (for tests).
    static func isClaimed(_ syspath: String) -> Bool {
        state.withLock { $0.holders[syspath] != nil }
    }
}
