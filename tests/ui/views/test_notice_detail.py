"""A notice with detail (what OCR read) offers "Show text", which opens that text."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from desktop.ui.viewmodels.message_item import Notice
from desktop.ui.views.notice_detail import NoticeDetailDialog, notice_index, notices_html
from tests.support.settings_files import write_settings
from tests.support.transcript import message


@pytest.fixture
def app(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    return driver.start(tmp_path)


def test_only_notices_with_detail_get_a_link_and_text_is_escaped():
    html = notices_html((Notice("a <b> & c"), Notice("read with OCR", "text")), "Show text")
    first, second = html.split("<br>")
    assert first == "a &lt;b&gt; &amp; c"
    assert second.endswith('<a href="notice:1">Show text</a>')
    assert notice_index("notice:1") == 1
    assert notice_index("https://example.com") is None and notice_index("notice:x") is None


def test_show_text_opens_the_transcription_without_blocking(app):
    item = message(
        "a1",
        notices=(
            Notice("The model asked for a tool."),
            Notice("1 image was read with OCR — local engine", "scan.png\nTotal: 42.50 EUR"),
        ),
    )
    app.chat_vm.transcript.messagesReset.emit([item])
    widget = app.window.chat_view.transcript.message_widget("a1")
    assert "Show text" in widget.notices.text()
    widget.notices.linkActivated.emit("notice:1")
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, NoticeDetailDialog)]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert dialog.isVisible() and not dialog.isModal()
    assert dialog.text.toPlainText() == "scan.png\nTotal: 42.50 EUR"
    assert dialog.text.isReadOnly()
    dialog.close()
