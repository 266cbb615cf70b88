import ShakeDetection
import UndoProtocol

/// One user's Shake to Undo settings, as the daemon keeps them (``PreferenceFile`` on disk).
public struct UserPreferences: Sendable, Hashable {
    /// Whether a shake asks for an undo at all. Off: the sensor is not read while this user's app is in context.
    public var shakeToUndo: Bool
    /// The user's own sensitivity; nil follows the configured `detector.sensitivity`.
    public var sensitivity: Sensitivity?
    /// Whether the session's agent may stand in for this user's apps that don't take part (on by
    /// default, as shake to undo works in every text field on iOS).
    public var standIn: Bool

    /// Creates preferences; the defaults are Shake to Undo on, at the configured sensitivity, in
    /// apps that don't take part too.
    public init(shakeToUndo: Bool = true, sensitivity: Sensitivity? = nil, standIn: Bool = true) {
        self.shakeToUndo = shakeToUndo
        self.sensitivity = sensitivity
        self.standIn = standIn
    }

    /// Whether these are the defaults, which need no entry in the file.
    public var isDefault: Bool { self == UserPreferences() }

    /// These preferences with a `SetPreferences` call's fields applied (its fields already checked).
    public func applying(_ change: SetPreferencesParameters) -> UserPreferences {
        var result = self
        if let shakeToUndo = change.shakeToUndo { result.shakeToUndo = shakeToUndo }
        if let level = change.sensitivity.flatMap(Sensitivity.init(rawValue:)) { result.sensitivity = level }
        if let standIn = change.standIn { result.standIn = standIn }
        return result
    }

    /// As the wire carries them, with the configured sensitivity filled in when the user chose none.
    public func wire(defaultSensitivity: Sensitivity) -> Preferences {
        Preferences(
            shakeToUndo: shakeToUndo, sensitivity: (sensitivity ?? defaultSensitivity).rawValue, standIn: standIn)
    }
}

extension IntentMachine {
    /// A user's preferences (the defaults when they set none).
    public func preferences(uid: UInt32) -> UserPreferences { preferences[uid] ?? UserPreferences() }

    /// Records a user's preferences; the defaults need no entry. The owner updates the sensor demand
    /// after this, since ``wantsSensor`` follows the current context's user.
    public mutating func setPreferences(_ new: UserPreferences, uid: UInt32) {
        preferences[uid] = new.isDefault ? nil : new
    }

    /// Replaces every user's preferences (read from the file at start).
    public mutating func loadPreferences(_ all: [UInt32: UserPreferences]) {
        preferences = all.filter { !$0.value.isDefault }
    }

    /// The sensitivity of the current context's user, when they chose one.
    public var contextSensitivity: Sensitivity? { currentContext.flatMap { preferences(uid: $0.uid).sensitivity } }

    /// Whether the current context's user has Shake to Undo on (false with no context).
    var contextWantsShakes: Bool { currentContext.map { preferences(uid: $0.uid).shakeToUndo } ?? false }
}
