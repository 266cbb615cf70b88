/* shake-agent-keys: sends the focused window one key chord through KWin's fake input protocol
 * (org_kde_kwin_fake_input), which is how the agent sends an app its own undo key under KWin, which
 * offers no virtual keyboard protocol to ordinary clients.
 *
 *   shake-agent-keys undo     Ctrl+Z
 *   shake-agent-keys redo     Ctrl+Shift+Z
 *   shake-agent-keys type T   types T: lower-case letters, digits and spaces (for tests and scripts)
 *
 * KWin offers the protocol only to a client whose executable an installed .desktop file names in
 * Exec= with X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input (org.shaked.AgentKeys.desktop, read
 * through the KService cache). Without it the global is not there, and this says so and exits 2.
 * Exit status: 0 sent, 1 usage or no Wayland display, 2 the protocol is not offered. */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

#include "fake-input-client-protocol.h"

static struct org_kde_kwin_fake_input *fake_input;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
    (void)data;
    if (strcmp(interface, org_kde_kwin_fake_input_interface.name) == 0 && version >= 4)
        fake_input = wl_registry_bind(registry, name, &org_kde_kwin_fake_input_interface, 4);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

/* The evdev key code of a lower-case letter, digit or space on a US layout, or 0. */
static uint32_t key_code(char c) {
    static const char letters[] = "qwertyuiop\0\0\0\0asdfghjkl\0\0\0\0\0zxcvbnm";
    if (c == ' ')
        return KEY_SPACE;
    if (c == '0')
        return KEY_0;
    if (c >= '1' && c <= '9')
        return KEY_1 + (uint32_t)(c - '1');
    for (size_t i = 0; c >= 'a' && c <= 'z' && i < sizeof letters - 1; i++)
        if (letters[i] == c)
            return KEY_Q + (uint32_t)i;
    return 0;
}

int main(int argc, char **argv) {
    static const uint32_t undo[] = {KEY_LEFTCTRL, KEY_Z}, redo[] = {KEY_LEFTCTRL, KEY_LEFTSHIFT, KEY_Z};
    const uint32_t *keys = NULL;
    size_t count = 0;
    const char *text = NULL;
    if (argc == 3 && strcmp(argv[1], "type") == 0) {
        text = argv[2];
        for (const char *c = text; *c; c++)
            if (key_code(*c) == 0) {
                fprintf(stderr, "shake-agent-keys: type takes lower-case letters, digits and spaces only\n");
                return 1;
            }
    } else if (argc == 2 && strcmp(argv[1], "undo") == 0)
        keys = undo, count = sizeof undo / sizeof *undo;
    else if (argc == 2 && strcmp(argv[1], "redo") == 0)
        keys = redo, count = sizeof redo / sizeof *redo;
    else {
        fprintf(stderr, "usage: shake-agent-keys undo|redo|type TEXT\n");
        return 1;
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) {
        fprintf(stderr, "shake-agent-keys: no Wayland display (WAYLAND_DISPLAY)\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (fake_input == NULL) {
        fprintf(stderr, "shake-agent-keys: the compositor offers no org_kde_kwin_fake_input (version 4) to this "
                        "program: under KWin, install org.shaked.AgentKeys.desktop naming it and run kbuildsycoca6\n");
        wl_display_disconnect(display);
        return 2;
    }
    org_kde_kwin_fake_input_authenticate(fake_input, "shake-agent", "Sends the app its own undo key after a shake");
    int status = 0;
    for (size_t i = 0; i < count; i++)
        org_kde_kwin_fake_input_keyboard_key(fake_input, keys[i], WL_KEYBOARD_KEY_STATE_PRESSED);
    for (size_t i = count; i-- > 0;)
        org_kde_kwin_fake_input_keyboard_key(fake_input, keys[i], WL_KEYBOARD_KEY_STATE_RELEASED);
    /* One key at a time, each answered, as a person types: the app sees every one. */
    for (const char *c = text; c && *c && status == 0; c++) {
        org_kde_kwin_fake_input_keyboard_key(fake_input, key_code(*c), WL_KEYBOARD_KEY_STATE_PRESSED);
        org_kde_kwin_fake_input_keyboard_key(fake_input, key_code(*c), WL_KEYBOARD_KEY_STATE_RELEASED);
        status = wl_display_roundtrip(display) < 0 ? 1 : 0;
    }
    if (status == 0)
        status = wl_display_roundtrip(display) < 0 ? 1 : 0;
    org_kde_kwin_fake_input_destroy(fake_input);
    wl_display_disconnect(display);
    return status;
}
