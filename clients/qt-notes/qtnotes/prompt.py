"""The undo prompt's words, composed by io.shaked.Undo's rules as every client composes them ("Undo
Typing", Cancel first, "실행 취소 입력" in Korean): the same as clients/gtk-notes/shakenotes/prompt.py."""

import os

# The prefixes and labels of Sources/UndoProtocol/Prompt.swift (PromptLanguage).
WORDS = {
    "en": {"undo": "Undo", "redo": "Redo", "cancel": "Cancel"},
    "ko": {"undo": "실행 취소", "redo": "다시 실행", "cancel": "취소"},
}
ACTION_NAMES = {"en": {}, "ko": {"Typing": "입력", "Paste": "붙여넣기", "Delete": "삭제"}}


def language():
    """"ko" or "en", from LC_ALL, LC_MESSAGES or LANG (the first one set), as ShakeClient decides."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


def compose(operation, action, lang, also_offer=False):
    """The prompt for an intent, as AnswerIntent takes it: Cancel leftmost, then the operation, then
    the other one when the app can do both."""
    words = WORDS[lang]
    actions = [{"role": "cancel", "label": words["cancel"], "destructive": False, "preferred": False},
               {"role": operation, "label": words[operation], "destructive": False, "preferred": True}]
    if also_offer:
        other = "redo" if operation == "undo" else "undo"
        actions.append({"role": other, "label": words[other], "destructive": False, "preferred": False})
    return {"title": words[operation] + " " + ACTION_NAMES[lang].get(action, action), "actions": actions}
