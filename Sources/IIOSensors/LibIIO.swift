import CIIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libiio's functions, found with `dlopen` and `dlsym` when a sensor's buffer is first opened.
///
/// shaked does not link libiio. Linking would map it, and what only it needs (libxml2, ICU, avahi,
/// dbus, libusb, zstd: 1.4 MiB resident), into every process from its start, although the daemon
/// idles with the sensor closed and polled reading never calls libiio. systemd treats its optional
/// libraries the same way (`dlopen_many_sym_or_warn`). The library is loaded at most once per
/// process and never closed; a failed load is an ``IIOError`` and is tried again on the next open,
/// so installing the package mends a running daemon. Each function's type is iio.h's own
/// (`shaked_iio_*_fn` in the CIIO shim).
struct LibIIO: Sendable {
    /// The file loaded: libiio 0.x's ABI, which Debian's `libiio0` package provides.
    static let soname = "libiio.so.0"

    /// `iio_create_local_context`: a context over this machine's IIO devices.
    let createLocalContext: shaked_iio_create_local_context_fn
    /// `iio_context_set_timeout`: the timeout of the context's blocking operations.
    let contextSetTimeout: shaked_iio_context_set_timeout_fn
    /// `iio_context_find_device`: a device by id, name or label.
    let contextFindDevice: shaked_iio_context_find_device_fn
    /// `iio_context_destroy`: frees a context and its devices.
    let contextDestroy: shaked_iio_context_destroy_fn
    /// `iio_device_is_trigger`: whether a device is a trigger.
    let deviceIsTrigger: shaked_iio_device_is_trigger_fn
    /// `iio_device_set_trigger`: writes a device's `trigger/current_trigger`.
    let deviceSetTrigger: shaked_iio_device_set_trigger_fn
    /// `iio_device_get_channels_count`: how many channels a device has.
    let deviceGetChannelsCount: shaked_iio_device_get_channels_count_fn
    /// `iio_device_get_channel`: a device's channel by index.
    let deviceGetChannel: shaked_iio_device_get_channel_fn
    /// `iio_device_set_kernel_buffers_count`: how many watermarks of scans the kernel's buffer holds
    /// (libiio writes `buffer/length` as that many times the scans asked for; 4 unless set).
    let deviceSetKernelBuffersCount: shaked_iio_device_set_kernel_buffers_count_fn
    /// `iio_device_create_buffer`: a buffer on a device, which enables the device's buffer.
    let deviceCreateBuffer: shaked_iio_device_create_buffer_fn
    /// `iio_channel_is_scan_element`: whether a channel is in the device's scans.
    let channelIsScanElement: shaked_iio_channel_is_scan_element_fn
    /// `iio_channel_is_output`: whether a channel is an output.
    let channelIsOutput: shaked_iio_channel_is_output_fn
    /// `iio_channel_get_id`: a channel's id (`accel_x`).
    let channelGetID: shaked_iio_channel_get_id_fn
    /// `iio_channel_enable`: puts a channel in the scans of the next buffer.
    let channelEnable: shaked_iio_channel_enable_fn
    /// `iio_channel_disable`: leaves a channel out of the scans of the next buffer.
    let channelDisable: shaked_iio_channel_disable_fn
    /// `iio_buffer_set_blocking_mode`: whether a refill waits for data.
    let bufferSetBlockingMode: shaked_iio_buffer_set_blocking_mode_fn
    /// `iio_buffer_get_poll_fd`: the descriptor that becomes readable when the watermark is reached.
    let bufferGetPollFD: shaked_iio_buffer_get_poll_fd_fn
    /// `iio_buffer_step`: the distance between scans in the buffer.
    let bufferStep: shaked_iio_buffer_step_fn
    /// `iio_buffer_destroy`: frees a buffer, which disables the device's buffer.
    let bufferDestroy: shaked_iio_buffer_destroy_fn

    /// The library, loaded by whichever thread asks first; nil until a load has succeeded.
    private static let loaded = Mutex<LibIIO?>(nil)

    /// The process's libiio, loading ``soname`` on the first call (and after a failed one).
    static func shared() throws(IIOError) -> LibIIO {
        try loaded.withLock { (library: inout LibIIO?) throws(IIOError) -> LibIIO in
            if let library { return library }
            let loadedNow = try load(path: soname)
            library = loadedNow
            return loadedNow
        }
    }

    /// Loads the library at `path` (a file name is looked up as `ld.so` would) and finds every function.
    ///
    /// The handle is never closed: the functions stay valid for the life of the process.
    static func load(path: String) throws(IIOError) -> LibIIO {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw IIOError(
                .missingLibrary, call: "dlopen", path: path,
                "cannot load libiio, which reading the sensor's buffer needs (\(dynamicLinkerError())); "
                    + "install the libiio0 package")
        }
        let library = Library(handle: handle, path: path)
        return LibIIO(
            createLocalContext: try library.function("iio_create_local_context"),
            contextSetTimeout: try library.function("iio_context_set_timeout"),
            contextFindDevice: try library.function("iio_context_find_device"),
            contextDestroy: try library.function("iio_context_destroy"),
            deviceIsTrigger: try library.function("iio_device_is_trigger"),
            deviceSetTrigger: try library.function("iio_device_set_trigger"),
            deviceGetChannelsCount: try library.function("iio_device_get_channels_count"),
            deviceGetChannel: try library.function("iio_device_get_channel"),
            deviceSetKernelBuffersCount: try library.function("iio_device_set_kernel_buffers_count"),
            deviceCreateBuffer: try library.function("iio_device_create_buffer"),
            channelIsScanElement: try library.function("iio_channel_is_scan_element"),
            channelIsOutput: try library.function("iio_channel_is_output"),
            channelGetID: try library.function("iio_channel_get_id"),
            channelEnable: try library.function("iio_channel_enable"),
            channelDisable: try library.function("iio_channel_disable"),
            bufferSetBlockingMode: try library.function("iio_buffer_set_blocking_mode"),
            bufferGetPollFD: try library.function("iio_buffer_get_poll_fd"),
            bufferStep: try library.function("iio_buffer_step"),
            bufferDestroy: try library.function("iio_buffer_destroy"))
    }
}

/// A library `dlopen` returned, for looking its functions up.
private struct Library {
    /// The handle, which is never closed.
    let handle: UnsafeMutableRawPointer
    /// The name or path it was loaded by, for error messages.
    let path: String

    /// The function called `name`, as the pointer type the caller expects (the CIIO shim's `shaked_NAME_fn`).
    func function<Function>(_ name: String) throws(IIOError) -> Function {
        _ = dlerror()
        guard let address = dlsym(handle, name) else {
            throw IIOError(
                .missingLibrary, call: "dlsym", path: path,
                "libiio has no function \(name) (\(dynamicLinkerError())); install the libiio0 package, 0.24 or later")
        }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// `dlerror`'s text for the last failed `dlopen` or `dlsym` on this thread.
private func dynamicLinkerError() -> String {
    guard let text = dlerror() else { return "no reason given" }
    return String(cString: text)
}
