// Qt Notes' one window: a text area whose undo is Qt's own, a status line, and the undo prompt as a
// Kirigami dialog: the title, Cancel on the left, the action on the right and the default.
import QtQuick
import QtQuick.Controls as QQC2
import QtQuick.Layouts
import org.kde.kirigami as Kirigami

Kirigami.ApplicationWindow {
    id: window
    title: "Qt Notes"
    width: 360
    height: 640
    onActiveChanged: notes.activeChanged(active)

    pageStack.initialPage: Kirigami.Page {
        title: "Notes"
        ColumnLayout {
            anchors.fill: parent
            QQC2.Label {
                Layout.fillWidth: true
                visible: text.length > 0
                text: notes.status
            }
            QQC2.TextArea {
                id: editor
                Layout.fillWidth: true
                Layout.fillHeight: true
                focus: true
                wrapMode: TextEdit.Wrap
                Accessible.name: "Note"
                onTextChanged: notes.edited(length)
            }
        }
    }

    Kirigami.PromptDialog {
        id: prompt
        property string intent
        property var actions: []
        standardButtons: Kirigami.Dialog.NoButton
        customFooterActions: actions.map(a => action.createObject(prompt, {role: a.role, text: a.label}))
        onRejected: choose("cancel")
        function choose(role) {
            if (intent.length > 0) notes.chosen(intent, role)
            intent = ""
            close()
            editor.forceActiveFocus()
        }
    }
    Component {
        id: action
        Kirigami.Action {
            property string role
            onTriggered: prompt.choose(role)
        }
    }

    Connections {
        target: notes
        function onPromptRequested(title, actions) {
            prompt.title = title
            prompt.intent = actions[0].intent
            prompt.actions = actions
            prompt.open()
        }
        function onPromptClosed() {
            prompt.intent = ""
            prompt.close()
        }
        function onPerformRequested(operation) {
            const before = editor.text
            if (operation === "undo") editor.undo(); else editor.redo()
            notes.performed(before, editor.text, editor.length)
        }
    }
}
