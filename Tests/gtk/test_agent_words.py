"""The agent's naming and wording, with no display: what it calls a change in a field it follows
(iOS's "Typing", "Delete", "Paste"), how it keeps that across the app's own undo and redo, the
prompt it composes, and the result it reports.

Run with the agent's folder on the import path, as scripts/test.sh does:
  PYTHONPATH=clients/shake-agent PYTHON -m unittest discover -s Tests/gtk -p test_agent_words.py
"""

import unittest

from shakeagent import words
from shakeagent.edit_history import EditHistory


class EditHistoryTest(unittest.TestCase):
    def typed(self, history, text):
        for _ in text:
            history.record(True, 1)

    def test_names_a_run_of_typing_a_run_of_deleting_and_a_paste(self):
        history = EditHistory()
        self.assertIsNone(history.undo_name, "nothing yet: nothing to undo, the sensor stays off")
        self.typed(history, "hello")
        self.assertEqual((history.undo_name, len(history.undo_steps)), ("Typing", 1), "one run, one step")
        history.record(False, 1)
        history.record(False, 1)
        self.assertEqual((history.undo_name, len(history.undo_steps)), ("Delete", 2))
        history.record(True, 11)
        self.assertEqual(history.undo_name, "Paste")
        history.record(True, 11)
        self.assertEqual(len(history.undo_steps), 4, "two pastes are two steps")

    def test_follows_the_apps_undo_a_word_at_a_time_and_its_redo(self):
        history = EditHistory()
        self.typed(history, "hello world")
        history.undone(6)  # GTK undid " world"
        self.assertEqual((history.undo_name, history.redo_name), ("Typing", "Typing"), "\"hello\" is left")
        history.undone(5)
        self.assertEqual((history.undo_name, history.redo_name), (None, "Typing"))
        history.redone(5)
        self.assertEqual((history.undo_name, history.redo_name), ("Typing", "Typing"))
        history.record(True, 1)
        self.assertIsNone(history.redo_name, "a new change ends what could be redone")

    def test_an_undo_that_changed_nothing_changes_no_name(self):
        history = EditHistory()
        self.typed(history, "hi")
        history.undone(0)
        self.assertEqual((history.undo_name, history.redo_name), ("Typing", None))


class WordsTest(unittest.TestCase):
    def test_the_prompt_follows_the_guidelines(self):
        self.assertEqual(words.compose("undo", "Typing", "en"), {
            "title": "Undo Typing",
            "actions": [{"role": "cancel", "label": "Cancel", "destructive": False, "preferred": False},
                        {"role": "undo", "label": "Undo", "destructive": False, "preferred": True}]})
        both = words.compose("undo", "Delete", "en", also_offer=True)
        self.assertEqual([a["label"] for a in both["actions"]], ["Cancel", "Undo", "Redo"])
        self.assertEqual(words.compose("redo", "Paste", "ko")["title"], "다시 실행 붙여넣기")
        self.assertEqual(words.compose("undo", "Typing", "ko")["title"], "실행 취소 입력")

    def test_the_result_says_what_changed_or_that_nothing_did(self):
        self.assertEqual(words.result("hello world", "hello", "en"), "Removed “world”")
        self.assertEqual(words.result("hello", "hello world", "en"), "Restored “world”")
        self.assertEqual(words.result("buy milk", "buy milk", "en"), "The text did not change")
        self.assertEqual(words.result("a", "ab", "ko"), "“b” 복원됨")

    def test_the_result_is_short_and_one_line(self):
        long = "x" * 100
        summary = words.result("", long, "en")
        self.assertEqual(summary, "Restored “" + "x" * 23 + "…”")
        self.assertEqual(words.result("a\nb\tc\x1b", "", "en"), "Removed “a b c”", "no control characters")


class AppIdTest(unittest.TestCase):
    def test_accessible_names_become_checked_app_ids(self):
        from shakeagent.stand_in import app_id
        self.assertEqual(app_id("gnome-text-editor"), "org.shaked.StandIn.gnome-text-editor")
        self.assertEqual(app_id("3D Editor"), "org.shaked.StandIn._3D_Editor")
        self.assertEqual(app_id("Ed.it\u202e"), "org.shaked.StandIn.Ed_it_")
        self.assertEqual(app_id(""), "org.shaked.StandIn.app")


if __name__ == "__main__":
    unittest.main()
