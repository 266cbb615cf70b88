"""The undo prompt: a title composed in the person's language, as io.shaked.Undo's rules want
("Undo Typing", "실행 취소 입력"), and the Adw.MessageDialog that shows it."""

import os

from gi.repository import Adw

# The prefixes and labels of Sources/UndoProtocol/Prompt.swift (PromptLanguage).
WORDS = {
    "en": {"undo": "Undo", "redo": "Redo", "cancel": "Cancel"},
    "ko": {"undo": "실행 취소", "redo": "다시 실행", "cancel": "취소"},
}
MINOR_WORDS = {"a", "an", "and", "as", "at", "but", "by", "for", "in", "of", "on", "or", "the", "to", "via"}

# What the app calls its undo steps, per language.
ACTION_NAMES = {
    "en": {},
    "ko": {"Typing": "입력", "Paste": "붙여넣기", "Cut": "잘라내기", "Delete": "삭제", "Bold": "굵게",
           "Change": "변경"},
}


def language():
    """"ko" or "en", from LC_ALL, LC_MESSAGES or LANG (the first one set), as ShakeClient decides."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


def action_name(name, lang):
    return ACTION_NAMES[lang].get(name, name)


def title_case(name, lang):
    if lang != "en":
        return name
    words = name.split()
    return " ".join(
        w.lower() if 0 < i < len(words) - 1 and w.lower() in MINOR_WORDS else w[:1].upper() + w[1:]
        for i, w in enumerate(words))


def compose(operation, action, lang, also_offer=None):
    """The prompt for an intent, as AnswerIntent takes it: Cancel leftmost, then the operation,
    then the other one when the app can do both (undo then redo)."""
    words = WORDS[lang]
    actions = [{"role": "cancel", "label": words["cancel"], "destructive": False, "preferred": False},
               {"role": operation, "label": words[operation], "destructive": False, "preferred": True}]
    if also_offer:
        other = "redo" if operation == "undo" else "undo"
        actions.append({"role": other, "label": words[other], "destructive": False, "preferred": False})
    return {"title": words[operation] + " " + title_case(action, lang), "actions": actions}


def dialog(parent, prompt):
    """An Adw.MessageDialog for a prompt; its responses are the roles ("cancel", "undo", "redo")."""
    # Screen readers name the dialog by its heading.
    dialog = Adw.MessageDialog(transient_for=parent, modal=True, heading=prompt["title"])
    for action in prompt["actions"]:
        dialog.add_response(action["role"], action["label"])
        if action["role"] != "cancel":
            appearance = Adw.ResponseAppearance.DESTRUCTIVE if action["destructive"] \
                else Adw.ResponseAppearance.SUGGESTED
            dialog.set_response_appearance(action["role"], appearance)
        if action["preferred"]:
            dialog.set_default_response(action["role"])
    dialog.set_close_response("cancel")
    return dialog

