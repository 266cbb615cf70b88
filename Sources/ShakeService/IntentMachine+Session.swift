extension IntentMachine {
    /// Why the sensor should not be read now, or nil when a shake could make an intent: the one
    /// decision behind ``wantsSensor``, `GetStatus`'s `sensorOff` and the journal's "sensor off".
    ///
    /// A locked or idle session comes first: then nobody is in front of any app, whatever is focused.
    public var sensorOffReason: SensorOffReason? {
        switch session {
        case .locked: return .sessionLocked
        case .idle: return .sessionIdle
        case .unknown, .inUse: break
        }
        guard let context = currentContext else { return .noContext }
        return preferences(uid: context.uid).shakeToUndo ? nil : .shakeToUndoOff
    }

    /// logind's hints about the seat's active session changed. While it is locked or idle the
    /// sensor is off and a shake counts for nothing; a prompt open when the screen locks is
    /// cancelled (`focusLost`: its app is no longer in front), unless the app is already performing.
    public mutating func sessionChanged(_ presence: SessionPresence, now: ContinuousClock.Instant) -> [IntentAction] {
        session = presence
        guard presence == .locked, let open, !open.isPerforming else { return [] }
        return cancel(reason: .focusLost, now: now)
    }
}

/// Whether a person is in front of the seat's active session, from logind's `LockedHint` and `IdleHint`.
public enum SessionPresence: String, Sendable, Equatable {
    /// logind can't say (it is unreachable, or the seat has no active session): shakes are decided
    /// without it, as by the apps alone.
    case unknown
    /// The session is unlocked and in use.
    case inUse = "in use"
    /// The person has left the session idle (`IdleHint`), such as a screen that dimmed and blanked.
    case idle
    /// The session's screen is locked (`LockedHint`); it wins over idle.
    case locked

    /// The presence logind's hints of a session give: locked wins over idle, and neither is in use.
    public init(locked: Bool, idle: Bool) {
        self = locked ? .locked : idle ? .idle : .inUse
    }
}

/// Why the sensor is off, as `GetStatus` (`sensorOff`), `shakectl status` and the journal say it.
public enum SensorOffReason: String, Sendable, Equatable, CaseIterable {
    /// The seat's active session is locked.
    case sessionLocked = "the session is locked"
    /// The seat's active session is idle.
    case sessionIdle = "the session is idle"
    /// No app in the current context has something to undo or redo.
    case noContext = "no app can use a shake"
    /// The user of the app in context has Shake to Undo off.
    case shakeToUndoOff = "Shake to Undo is off"

    /// The detail of a shake's `ignored` outcome for a locked or idle session, nil for the others.
    var shakeIgnoredDetail: String? {
        switch self {
        case .sessionLocked: "session-locked"
        case .sessionIdle: "session-idle"
        case .noContext, .shakeToUndoOff: nil
        }
    }
}

/// Whether the sensor should be read, and if not why: what ``UndoCoordinator/sensorDemand`` carries.
public enum SensorDemand: Sendable, Equatable {
    /// An app in the current context can use a shake.
    case on
    /// Nothing can use a shake now, for this reason.
    case off(SensorOffReason)

    /// Whether the sensor should be read.
    public var wanted: Bool { self == .on }
}
