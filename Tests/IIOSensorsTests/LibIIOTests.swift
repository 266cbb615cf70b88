import Glibc
import Testing

@testable import IIOSensors

/// libiio loaded with dlopen: every function found, once per process, and clear errors when it cannot be.
@Suite struct LibIIOTests {
    @Test func loadsTheLibraryAndFindsEveryFunction() throws {
        let iio = try LibIIO.load(path: LibIIO.soname)
        // Each field holds the function it is named for, as the loaded library resolves it.
        let functions: [(String, UnsafeRawPointer)] = [
            ("iio_create_local_context", address(iio.createLocalContext)),
            ("iio_context_set_timeout", address(iio.contextSetTimeout)),
            ("iio_context_find_device", address(iio.contextFindDevice)),
            ("iio_context_destroy", address(iio.contextDestroy)),
            ("iio_device_is_trigger", address(iio.deviceIsTrigger)),
            ("iio_device_set_trigger", address(iio.deviceSetTrigger)),
            ("iio_device_get_channels_count", address(iio.deviceGetChannelsCount)),
            ("iio_device_get_channel", address(iio.deviceGetChannel)),
            ("iio_device_set_kernel_buffers_count", address(iio.deviceSetKernelBuffersCount)),
            ("iio_device_create_buffer", address(iio.deviceCreateBuffer)),
            ("iio_channel_is_scan_element", address(iio.channelIsScanElement)),
            ("iio_channel_is_output", address(iio.channelIsOutput)),
            ("iio_channel_get_id", address(iio.channelGetID)),
            ("iio_channel_enable", address(iio.channelEnable)),
            ("iio_channel_disable", address(iio.channelDisable)),
            ("iio_buffer_set_blocking_mode", address(iio.bufferSetBlockingMode)),
            ("iio_buffer_get_poll_fd", address(iio.bufferGetPollFD)),
            ("iio_buffer_step", address(iio.bufferStep)),
            ("iio_buffer_destroy", address(iio.bufferDestroy)),
        ]
        #expect(functions.count == Mirror(reflecting: iio).children.count, "a function of LibIIO is not listed here")
        #expect(Set(functions.map(\.1)).count == functions.count)
        let handle = try #require(dlopen(LibIIO.soname, RTLD_NOW | RTLD_NOLOAD))
        for (name, function) in functions {
            #expect(dlsym(handle, name).map(UnsafeRawPointer.init) == function, "\(name)")
        }
    }

    @Test func sharedLoadsOnceForTheProcess() throws {
        let first = try LibIIO.shared()
        let second = try LibIIO.shared()
        #expect(address(first.bufferDestroy) == address(second.bufferDestroy))
        #expect(address(first.createLocalContext) == address(second.createLocalContext))
        // Loaded, and still loaded: the handle is never closed.
        #expect(dlopen(LibIIO.soname, RTLD_NOW | RTLD_NOLOAD) != nil)
    }

    @Test func aMissingLibraryIsAClearError() {
        let error = #expect(throws: IIOError.self) { try LibIIO.load(path: "libiio-missing.so.0") }
        #expect(error?.code == .missingLibrary)
        #expect(error?.call == "dlopen" && error?.path == "libiio-missing.so.0")
        let text = error?.description ?? ""
        // dlerror's reason, and what to do.
        #expect(text.contains("libiio-missing.so.0: cannot open shared object file"), "\(text)")
        #expect(text.contains("install the libiio0 package"), "\(text)")
    }

    @Test func aLibraryWithoutTheFunctionsIsAClearError() {
        // libudev is loaded in this process already, and has none of libiio's functions.
        let error = #expect(throws: IIOError.self) { try LibIIO.load(path: "libudev.so.1") }
        #expect(error?.code == .missingLibrary)
        #expect(error?.call == "dlsym" && error?.path == "libudev.so.1")
        let text = error?.description ?? ""
        #expect(text.contains("has no function iio_create_local_context"), "\(text)")
        #expect(text.contains("undefined symbol: iio_create_local_context"), "\(text)")
        #expect(text.contains("install the libiio0 package"), "\(text)")
    }
}

/// A C function pointer's address.
private func address<Function>(_ function: Function) -> UnsafeRawPointer {
    unsafeBitCast(function, to: UnsafeRawPointer.self)
}
