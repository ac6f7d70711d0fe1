"""What a selection copies: the text as it came, without the soft breaks added for layout.

The views put zero-width spaces into long runs so that Qt's layout stays linear; a copy
leaves out exactly those and keeps every zero-width space the text itself had, however
the run is made (emoji take two UTF-16 units in Qt's positions, one in Python's).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QGuiApplication, QTextCursor

from desktop.render import render_markdown
from desktop.ui.views.plain_text_view import PlainTextView
from desktop.ui.views.rich_text import RichText
from tests.support.paths import ROOT

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
RUNS = {
    "digits": "7" * 5_000,
    "emoji": FAMILY * 700,
    "flags": "\U0001f1eb\U0001f1f7" * 1_500,
    "accented": "e\u0301" * 2_500,
}
REAL = "keep\u200bthis "  # a zero-width space of the text itself


def copied(view) -> str:
    view.selectAll()
    view.copy()
    return QGuiApplication.clipboard().text()


def soft_breaks(document) -> int:
    return document.toPlainText().count("\u200b") - REAL.count("\u200b")


@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
def test_a_plain_text_view_copies_the_text_as_it_came(qtbot, run: str) -> None:
    text = f"{REAL}{run}\n{run} end{REAL}"
    view = PlainTextView(text)
    qtbot.addWidget(view)
    assert soft_breaks(view.document()) >= 4  # the runs did get soft breaks
    assert copied(view) == text


@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
@pytest.mark.parametrize("growing", [False, True], ids=["set", "streamed"])
def test_a_message_copies_its_text_as_it_came(qtbot, run: str, growing: bool) -> None:
    text = f"{REAL}{run}\n\n`{run}`{REAL}\n"
    view = RichText()
    qtbot.addWidget(view)
    view.set_html(render_markdown(text), growing=growing)
    assert soft_breaks(view.document()) >= 4
    assert copied(view) == f"{REAL}{run}\n{run}{REAL}"


def test_part_of_a_run_copies_without_the_breaks_inside_it(qtbot) -> None:
    run = RUNS["emoji"]
    view = PlainTextView(f"{REAL}{run}")
    qtbot.addWidget(view)
    document = view.document()
    cursor = QTextCursor(document)
    cursor.setPosition(len(REAL.encode("utf-16-le")) // 2)
    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    view.copy()
    assert QGuiApplication.clipboard().text() == run


COPY_AND_QUIT = """
from PySide6.QtWidgets import QApplication
from desktop.ui.views.plain_text_view import PlainTextView
app = QApplication([])
view = PlainTextView("7" * 5_000)
view.selectAll()
view.copy()
assert app.clipboard().text() == "7" * 5_000
"""


def test_the_app_exits_cleanly_after_copying_without_soft_breaks() -> None:
    # The data Qt made for the clipboard is Qt's: replacing it crashed Python at exit.
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    root = ROOT
    done = subprocess.run(
        [sys.executable, "-c", COPY_AND_QUIT], cwd=root, env=environment, timeout=120
    )
    assert done.returncode == 0
