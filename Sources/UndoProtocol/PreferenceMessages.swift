/// The person's own Shake to Undo settings, as `GetPreferences` and `SetPreferences` carry them.
public struct Preferences: Sendable, Hashable, Codable {
    /// Whether a shake asks for an undo at all; while off, the sensor is not read for this user.
    public var shakeToUndo: Bool
    /// How firm a shake must be: `low`, `medium` or `high` (``FieldRule/sensitivityLevels``).
    public var sensitivity: String
    /// Whether the session's agent may stand in for apps that don't take part (`StandIn`).
    public var standIn: Bool

    /// Creates preferences.
    public init(shakeToUndo: Bool, sensitivity: String, standIn: Bool = true) {
        self.shakeToUndo = shakeToUndo
        self.sensitivity = sensitivity
        self.standIn = standIn
    }
}

/// The reply of `GetPreferences` and of `SetPreferences`: the caller's preferences in force.
public struct PreferencesReply: Sendable, Hashable, Codable {
    /// The preferences.
    public var preferences: Preferences
    /// Creates a reply.
    public init(preferences: Preferences) { self.preferences = preferences }
}

/// `SetPreferences(shakeToUndo, sensitivity, standIn)`: a nil field stays as it is.
public struct SetPreferencesParameters: Sendable, Hashable, Codable {
    /// Turns Shake to Undo on or off.
    public var shakeToUndo: Bool?
    /// `low`, `medium` or `high`.
    public var sensitivity: String?
    /// Lets the agent stand in for apps that don't take part, or not.
    public var standIn: Bool?
    /// Creates the parameters.
    public init(shakeToUndo: Bool? = nil, sensitivity: String? = nil, standIn: Bool? = nil) {
        self.shakeToUndo = shakeToUndo
        self.sensitivity = sensitivity
        self.standIn = standIn
    }
}

extension SetPreferencesParameters: CheckedParameters {
    public func check() throws(VarlinkError) {
        try FieldRule.sensitivity.check(sensitivity, field: "sensitivity")
    }
}

extension VarlinkError {
    /// `SetPreferences`: the change is in force but could not be written to the state directory.
    public static func notSaved(_ reason: String) -> Self { .init("io.shaked.Undo.NotSaved", ["reason": reason]) }
}
