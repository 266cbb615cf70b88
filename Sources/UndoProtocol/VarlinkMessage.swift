/// The part of a call every receiver reads first, before it knows the parameters' type.
public struct VarlinkCallHeader: Decodable, Sendable {
    /// The fully qualified method.
    public var method: String
    /// The caller wants a stream of replies.
    public var more: Bool?
    /// The caller wants no reply.
    public var oneway: Bool?
    /// The caller wants to upgrade the connection to another protocol (shaked refuses).
    public var upgrade: Bool?
}

/// A method or reply without parameters: `()`.
public struct NoParameters: Codable, Sendable, Hashable {
    /// Creates the empty parameter set.
    public init() {}
}

/// A varlink error reply: its qualified name and its fields, which are all strings in the
/// interfaces shaked serves.
public struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The qualified error name, such as `io.shaked.Undo.PromptRejected`.
    public var name: String
    /// The error's fields, such as `rule` and `detail`.
    public var parameters: [String: String]

    /// Creates an error.
    public init(_ name: String, _ parameters: [String: String] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// `io.shaked.Undo.PromptRejected(rule: title-prefix, detail: ...)`.
    public var description: String {
        let fields = parameters.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return fields.isEmpty ? name : "\(name)(\(fields))"
    }
}

extension VarlinkError {
    /// `org.varlink.service.InterfaceNotFound`: the interface isn't served here.
    public static func interfaceNotFound(_ interface: String) -> Self {
        .init("org.varlink.service.InterfaceNotFound", ["interface": interface])
    }
    /// `org.varlink.service.MethodNotFound`: the interface has no such method.
    public static func methodNotFound(_ method: String) -> Self {
        .init("org.varlink.service.MethodNotFound", ["method": method])
    }
    /// `org.varlink.service.InvalidParameter`: a parameter is missing, of the wrong type, or the
    /// message isn't a varlink call at all (then the parameter is named `message`).
    public static func invalidParameter(_ parameter: String) -> Self {
        .init("org.varlink.service.InvalidParameter", ["parameter": parameter])
    }
    /// `org.varlink.service.ExpectedMore`: a streaming method was called without `more`.
    public static let expectedMore = Self("org.varlink.service.ExpectedMore")
}
