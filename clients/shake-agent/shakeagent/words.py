"""The words of a prompt in the person's language, as io.shaked.Undo's rules want them ("Undo
Typing", "실행 취소 입력"), and the result of a stand-in's undo ("Removed “world”")."""

import os

# The prefixes and labels of Sources/UndoProtocol/Prompt.swift (PromptLanguage).
WORDS = {
    "en": {"undo": "Undo", "redo": "Redo", "cancel": "Cancel",
           "removed": "Removed “%s”", "restored": "Restored “%s”", "unchanged": "The text did not change"},
    "ko": {"undo": "실행 취소", "redo": "다시 실행", "cancel": "취소",
           "removed": "“%s” 제거됨", "restored": "“%s” 복원됨", "unchanged": "텍스트가 바뀌지 않았습니다"},
}
# What iOS calls a text field's undo steps, per language.
ACTION_NAMES = {"en": {}, "ko": {"Typing": "입력", "Paste": "붙여넣기", "Delete": "삭제"}}
QUOTE_LIMIT = 24  # characters of the changed text quoted in a result


def language():
    """"ko" or "en", from LC_ALL, LC_MESSAGES or LANG (the first one set), as ShakeClient decides."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


def compose(operation, action, lang, also_offer=False):
    """The stand-in's prompt as AnswerIntent takes it: Cancel leftmost, then the operation (the
    default), then the other one when both are possible."""
    words = WORDS[lang]
    actions = [{"role": "cancel", "label": words["cancel"], "destructive": False, "preferred": False},
               {"role": operation, "label": words[operation], "destructive": False, "preferred": True}]
    if also_offer:
        other = "redo" if operation == "undo" else "undo"
        actions.append({"role": other, "label": words[other], "destructive": False, "preferred": False})
    return {"title": words[operation] + " " + ACTION_NAMES[lang].get(action, action), "actions": actions}


def result(before, after, lang):
    """What an undo or redo changed in a field's text, as a short sentence; the quoted text is cut
    to QUOTE_LIMIT characters and made one line (the daemon refuses control characters)."""
    words = WORDS[lang]
    if before == after:
        return words["unchanged"]
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end_b, end_a = len(before), len(after)
    while end_b > start and end_a > start and before[end_b - 1] == after[end_a - 1]:
        end_b, end_a = end_b - 1, end_a - 1
    removed, added = before[start:end_b], after[start:end_a]
    text, key = (added, "restored") if len(added) >= len(removed) else (removed, "removed")
    return words[key] % quote(text)


def quote(text):
    text = " ".join(text.split()) or "…"
    text = "".join(c for c in text if c.isprintable())
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 1] + "…"
