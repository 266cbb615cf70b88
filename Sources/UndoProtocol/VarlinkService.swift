/// The `org.varlink.service` interface every varlink service implements.
public enum VarlinkServiceInterface {
    /// `org.varlink.service`.
    public static let name = "org.varlink.service"

    /// Its definition, as the varlink specification gives it.
    public static let description = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()
        """
}

/// The reply of `org.varlink.service.GetInfo`.
public struct GetInfoReply: Sendable, Hashable, Codable {
    /// Who makes the service.
    public var vendor: String
    /// The product.
    public var product: String
    /// Its version.
    public var version: String
    /// Where to read about it.
    public var url: String
    /// The interfaces it serves.
    public var interfaces: [String]
    /// Creates a reply.
    public init(vendor: String, product: String, version: String, url: String, interfaces: [String]) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        self.interfaces = interfaces
    }
}

/// `org.varlink.service.GetInterfaceDescription(interface)`.
public struct InterfaceDescriptionParameters: Sendable, Hashable, Codable {
    /// The interface asked about.
    public var interface: String
    /// Creates the parameters.
    public init(interface: String) { self.interface = interface }
}

/// The reply of `GetInterfaceDescription`.
public struct InterfaceDescriptionReply: Sendable, Hashable, Codable {
    /// The interface definition text.
    public var description: String
    /// Creates a reply.
    public init(description: String) { self.description = description }
}
