import ArgumentParser
import ShakeClient
import UndoProtocol

/// `shakectl demo`: a terminal notes app that takes part in shake to undo.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A terminal notes app with shake to undo: type, delete, bold, then shake to undo.",
        discussion: """
            A small notes app built on ShakeClient and UndoStack, the way any app takes part in \
            shake to undo. Start the daemon with synthetic motion first, then the demo beside it:

              shaked --socket /tmp/shaked.sock --demo &
              shakectl demo --socket /tmp/shaked.sock

            Keys (also shown at the bottom of the screen):
              text, Enter    type a line and add it (undo: "Undo Typing")
              ↑ / ↓          select a line
              Ctrl-D, Del    delete the selected line ("Undo Delete")
              Ctrl-B         make the selected line bold, or plain again ("Undo Bold")
              Ctrl-Z, Ctrl-Y undo and redo at once, without a prompt
              Ctrl-S, F5     shake the device (the daemon plays a synthetic shake)
              Ctrl-C, Ctrl-Q quit

            A recognized shake makes the daemon send this app an intent; the app answers with the \
            prompt it shows, drawn as an alert over the notes: the title ("Undo Typing"), Cancel \
            on the left and the action on the right (Redo as well when there is something to \
            redo). Choose with ←/→ or Tab and press Enter; Esc cancels. The change is performed \
            through the undo stack, the changed line is highlighted, and the summary sent to the \
            daemon shows in the status line. The top right corner shows whether the app is \
            connected to the daemon; it reconnects by itself when the daemon restarts.

            Prompts are composed in the language of LC_ALL, LC_MESSAGES or LANG (English or Korean).
            """
    )

    @OptionGroup var daemon: SocketOptions

    func run() async throws {
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        await NotesApp(socket: daemon.path, terminal: terminal).run()
    }
}
