#if canImport(Glibc)
    import Glibc
#endif

/// A problem reading an accelerometer: what went wrong, where, and what to do about it.
///
/// Every failure of libiio (and of loading it), libudev or a system call surfaces as one of
/// these, naming the C call and the file or device involved, so nothing is lost between the
/// kernel and a log line.
public struct IIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problems, for callers that branch on them.
    public enum Code: String, Sendable, Hashable {
        /// No IIO device with x, y and z acceleration channels exists (or none matches the selector).
        case noAccelerometer
        /// The process may not read or write the device node or its sysfs attributes.
        case permissionDenied
        /// The device went away while it was being used (unplugged, driver unbound).
        case deviceGone
        /// A sysfs attribute holds something that cannot be parsed (scale, type, mount matrix...).
        case malformedAttribute
        /// A read returned less than one would expect (partial scan, empty attribute).
        case shortRead
        /// The buffer delivered nothing within the allowed time.
        case timedOut
        /// Any other failure of a C call, named in the message.
        case systemCallFailed
        /// The configuration asks for something impossible (a mode the device lacks, a bad rate).
        case badConfiguration
        /// libiio, which buffered reading loads when it first opens a sensor, is missing or lacks a function.
        case missingLibrary
        /// Another process holds the device (its node open, or its buffer enabled while the driver refuses raw reads).
        case busy
        /// Another process changed how the device is shared (enabled or disabled its buffer): the reader
        /// is replaced at once by the one that fits now.
        case sharingChanged
    }

    /// What kind of problem this is.
    public var code: Code
    /// The C function that failed, when one did.
    public var call: String?
    /// The file, device node or sysfs path involved, when one is.
    public var path: String?
    /// The errno value behind the failure, when there is one.
    public var errno: Int32?
    /// What is wrong and what to do about it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, call: String? = nil, path: String? = nil, errno: Int32? = nil, _ message: String) {
        self.code = code
        self.call = call
        self.path = path
        self.errno = errno
        self.message = message
    }

    /// `path: message (call: strerror)`, one line for logs and terminals.
    public var description: String {
        var text = ""
        if let path { text += "\(path): " }
        text += message
        if let call {
            text += " (\(call)"
            if let errno { text += ": \(errnoDescription(errno))" }
            text += ")"
        }
        return text
    }
}

/// The udev rule that grants the `shaked` group access to IIO devices, named in permission errors.
public let udevRuleName = "systemd/60-shaked.rules"
/// The group that may read accelerometers once the udev rule is installed.
public let sensorGroupName = "shaked"

extension IIOError {
    /// Classifies a failed C call by its errno, with a message that says what to do.
    static func fromErrno(_ err: Int32, call: String, path: String?) -> IIOError {
        switch err {
        case EACCES, EPERM:
            return IIOError(
                .permissionDenied, call: call, path: path, errno: err,
                "permission denied; install the udev rule \(udevRuleName) (it gives the group "
                    + "\(sensorGroupName) read and write access to /dev/iio:device* and the IIO sysfs "
                    + "attributes) and run as a member of \(sensorGroupName), or as root")
        case ENODEV, ENXIO, ESHUTDOWN, EIO, ENOENT:
            return IIOError(
                .deviceGone, call: call, path: path, errno: err,
                "the device went away; it is used again as soon as it comes back")
        case EBUSY:
            return IIOError(.busy, call: call, path: path, errno: err, "the device is in use by another process")
        case ETIMEDOUT:
            return IIOError(.timedOut, call: call, path: path, errno: err, "the device did not answer in time")
        default:
            return IIOError(.systemCallFailed, call: call, path: path, errno: err, "\(call) failed")
        }
    }

    /// An attribute whose text cannot be used, quoting it.
    static func malformed(_ path: String, _ value: String, expected: String) -> IIOError {
        let shown = value.count > 60 ? String(value.prefix(60)) + "..." : value
        return IIOError(
            .malformedAttribute, path: path,
            "malformed value \"\(shown)\": expected \(expected); check the driver, or override it in the configuration")
    }
}

/// `strerror` text for an errno value.
func errnoDescription(_ err: Int32) -> String {
    guard let text = strerror(err) else { return "errno \(err)" }
    return String(cString: text)
}
