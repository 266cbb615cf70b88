// An app that takes part in shake to undo and does nothing else, for scripts/bench-daemon:
// it measures what linking ShakeClient costs every app (memory, start to subscribed).
//
// It subscribes to the daemon at $SHAKED_SOCKET (else /run/shaked/io.shaked.Undo) with
// ShakeClient, publishes "Typing" as its undo action, prints `connected` on stdout once the
// daemon has accepted the subscription, and then waits until it is killed.

import ShakeClient

#if canImport(Glibc)
    import Glibc
#endif

/// One line on stdout, written at once (the benchmark waits for it).
func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

let client = ShakeClient(app: "org.shaked.IdleApp", name: "Idle App", focused: false)
client.setActions(undo: "Typing", redo: nil)
let session = Task { await client.run() }
for await event in client.events {
    switch event {
    case .connected:
        say("connected")
    case .disconnected(let reason, _):
        say("disconnected: \(reason)")
    case .shakeUnavailable(let reason):
        say(reason)
    case .shakeAvailable:
        say("shake to undo available")
    case .prompt, .perform, .cancelled, .failed:
        break
    }
}
session.cancel()
