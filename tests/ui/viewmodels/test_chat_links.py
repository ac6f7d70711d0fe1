"""Links in answers: web and mail links go to the system, everything else is refused."""

from __future__ import annotations

from PySide6.QtGui import QDesktopServices, QGuiApplication

from tests.support.url_catcher import UrlCatcher


def test_only_web_and_mail_links_are_opened(driver, tmp_path):
    parley = driver.start(tmp_path)
    catcher = UrlCatcher()
    schemes = ("http", "https", "mailto", "file", "javascript", "ftp")
    for scheme in schemes:
        QDesktopServices.setUrlHandler(scheme, catcher, "catch")
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)
    try:
        for url in ("https://example.org/a", "mailto:me@example.org"):
            parley.chat_vm.activate_link(url, "")
        for url in ("file:///etc/passwd", "javascript:alert(1)", "ftp://host/x"):
            parley.chat_vm.activate_link(url, "")
    finally:
        for scheme in schemes:
            QDesktopServices.unsetUrlHandler(scheme)
    opened = [url.toString() for url in catcher.urls]
    assert opened == ["https://example.org/a", "mailto:me@example.org"]
    assert len(errors) == 3 and "file:///etc/passwd" in errors[0]


def test_the_copy_link_of_a_code_block_copies_that_block(driver, tmp_path):
    parley = driver.start(tmp_path)
    markdown = "Two blocks:\n\n```python\nfirst()\n```\n\n```sh\necho second\n```\n"
    parley.chat_vm.activate_link("parley-copy:1", markdown)
    assert QGuiApplication.clipboard().text() == "echo second"
    parley.chat_vm.activate_link("parley-copy:0", markdown)
    assert QGuiApplication.clipboard().text() == "first()"
