// The agent's prompt on Plasma: a Kirigami alert in the shell's own theme (Breeze on Plasma Mobile),
// with its fonts and colours. The title, then the buttons as the daemon checked them: Cancel on the
// left, the action on the right and the default (Enter), Esc for Cancel.
import QtQuick
import QtQuick.Controls as QQC2
import QtQuick.Layouts
import org.kde.kirigami as Kirigami

QQC2.ApplicationWindow {
    id: window
    title: prompt.title
    visible: true
    // An alert, not a page: its size is fixed, so that a shell that maximizes windows (Plasma Mobile)
    // leaves it at its size over the app, centred.
    // An alert: no title bar (the heading says it), the shell's colours, a frame of its own.
    flags: Qt.Dialog | Qt.FramelessWindowHint
    width: Math.min(Kirigami.Units.gridUnit * 20, Screen.width - 2 * Kirigami.Units.largeSpacing)
    height: layout.implicitHeight + 2 * Kirigami.Units.largeSpacing
    color: Kirigami.Theme.backgroundColor
    Rectangle {
        anchors.fill: parent
        color: "transparent"
        border.color: Kirigami.ColorUtils.linearInterpolation(Kirigami.Theme.backgroundColor,
                                                              Kirigami.Theme.textColor, 0.2)
    }
    onActiveChanged: prompt.activeChanged(active)

    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: Kirigami.Units.largeSpacing
        spacing: Kirigami.Units.largeSpacing

        Kirigami.Heading {
            Layout.fillWidth: true
            text: prompt.title
            level: 2
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            Accessible.role: Accessible.Heading
        }
        QQC2.Label {
            Layout.fillWidth: true
            visible: prompt.message.length > 0
            text: prompt.message
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Kirigami.Units.largeSpacing
            Repeater {
                model: prompt.actions
                QQC2.Button {
                    required property var modelData
                    Layout.fillWidth: true
                    text: modelData.label
                    Accessible.name: modelData.label
                    highlighted: modelData.preferred
                    palette.buttonText: modelData.destructive ? Kirigami.Theme.negativeTextColor
                                                              : Kirigami.Theme.textColor
                    onClicked: prompt.choose(modelData.role)
                }
            }
        }
    }
    Shortcut { sequences: [StandardKey.Cancel]; onActivated: prompt.choose("cancel") }
    Shortcut { sequences: ["Return", "Enter"]; onActivated: prompt.choose(prompt.preferred) }
}
