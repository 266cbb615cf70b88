import CIIO

#if canImport(Glibc)
    import Glibc
#endif

/// An owning libiio local context (`struct iio_context *`), destroyed in `deinit`.
///
/// The context is a snapshot of `/sys/bus/iio/devices` taken at creation: after a hotplug,
/// make a new one. The first context in the process loads libiio (``LibIIO``).
struct IIOContext: ~Copyable {
    /// The C handle.
    let pointer: OpaquePointer
    /// libiio's functions, for this context and everything made from it.
    let iio: LibIIO

    /// Creates a context over the local IIO devices, with a timeout for blocking operations.
    init(timeoutMilliseconds: UInt32) throws(IIOError) {
        let iio = try LibIIO.shared()
        let context = try checkPointer("iio_create_local_context", path: "/sys/bus/iio/devices") {
            iio.createLocalContext()
        }
        do throws(IIOError) {
            _ = try checkNegativeErrno("iio_context_set_timeout") {
                iio.contextSetTimeout(context, timeoutMilliseconds)
            }
        } catch {
            iio.contextDestroy(context)
            throw error
        }
        pointer = context
        self.iio = iio
    }

    deinit { iio.contextDestroy(pointer) }

    /// The device with this id (`iio:device0`), name or label.
    func device(_ id: String) throws(IIOError) -> OpaquePointer {
        guard let device = iio.contextFindDevice(pointer, id) else {
            throw IIOError(
                .deviceGone, call: "iio_context_find_device", path: id,
                "libiio does not see this device; it may have just been removed")
        }
        return device
    }

    /// The trigger device with this name, if the context has one.
    func trigger(named name: String) -> OpaquePointer? {
        guard let device = iio.contextFindDevice(pointer, name), iio.deviceIsTrigger(device) else { return nil }
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
    /// libiio's functions (the context's).
    let iio: LibIIO

    /// Creates a non-blocking buffer of `samples` scans on `device`, with its channels already enabled.
    init(iio: LibIIO, device: OpaquePointer, samples: Int, path: String) throws(IIOError) {
        let buffer = try checkPointer("iio_device_create_buffer", path: path) {
            iio.deviceCreateBuffer(device, samples, false)
        }
        do throws(IIOError) {
            _ = try checkNegativeErrno("iio_buffer_set_blocking_mode", path: path) {
                iio.bufferSetBlockingMode(buffer, false)
            }
            pollFD =
                try checkNegativeErrno("iio_buffer_get_poll_fd", path: path) { iio.bufferGetPollFD(buffer) } ?? -1
        } catch {
            iio.bufferDestroy(buffer)
            throw error
        }
        pointer = buffer
        self.iio = iio
    }

    deinit { iio.bufferDestroy(pointer) }

    /// The distance between scans, as libiio computed it.
    var step: Int { iio.bufferStep(pointer) }
}
