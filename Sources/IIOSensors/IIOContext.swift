import CIIO

#if canImport(Glibc)
    import Glibc
#endif

/// An owning libiio local context (`struct iio_context *`), destroyed in `deinit`.
///
/// The context is a snapshot of `/sys/bus/iio/devices` taken at creation: after a hotplug,
/// make a new one.
struct IIOContext: ~Copyable {
    /// The C handle.
    let pointer: OpaquePointer

    /// Creates a context over the local IIO devices, with a timeout for blocking operations.
    init(timeoutMilliseconds: UInt32) throws(IIOError) {
        let context = try checkPointer("iio_create_local_context", path: "/sys/bus/iio/devices") {
            iio_create_local_context()
        }
        do throws(IIOError) {
            _ = try checkNegativeErrno("iio_context_set_timeout") {
                iio_context_set_timeout(context, timeoutMilliseconds)
            }
        } catch {
            iio_context_destroy(context)
            throw error
        }
        pointer = context
    }

    deinit { iio_context_destroy(pointer) }

    /// The device with this id (`iio:device0`), name or label.
    func device(_ id: String) throws(IIOError) -> OpaquePointer {
        guard let device = iio_context_find_device(pointer, id) else {
            throw IIOError(
                .deviceGone, call: "iio_context_find_device", path: id,
                "libiio does not see this device; it may have just been removed")
        }
        return device
    }

    /// The trigger device with this name, if the context has one.
    func trigger(named name: String) -> OpaquePointer? {
        guard let device = iio_context_find_device(pointer, name), iio_device_is_trigger(device) else { return nil }
        return device
    }
}

/// An owning libiio buffer (`struct iio_buffer *`): creating it enables the device's buffer,
/// destroying it (in `deinit`) disables it.
struct IIOBuffer: ~Copyable {
    /// The C handle.
    let pointer: OpaquePointer
    /// The descriptor that becomes readable when the watermark is reached.
    let pollFD: Int32

    /// Creates a non-blocking buffer of `samples` scans on `device`, with its channels already enabled.
    init(device: OpaquePointer, samples: Int, path: String) throws(IIOError) {
        let buffer = try checkPointer("iio_device_create_buffer", path: path) {
            iio_device_create_buffer(device, samples, false)
        }
        do throws(IIOError) {
            _ = try checkNegativeErrno("iio_buffer_set_blocking_mode", path: path) {
                iio_buffer_set_blocking_mode(buffer, false)
            }
            pollFD =
                try checkNegativeErrno("iio_buffer_get_poll_fd", path: path) { iio_buffer_get_poll_fd(buffer) } ?? -1
        } catch {
            iio_buffer_destroy(buffer)
            throw error
        }
        pointer = buffer
    }

    deinit { iio_buffer_destroy(pointer) }

    /// The distance between scans, as libiio computed it.
    var step: Int { iio_buffer_step(pointer) }
}
