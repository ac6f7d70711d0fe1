"""Remote images in answers: links until the person allows them, then shown inline.

The app's loader fetches only https; loopback HTTPS needs certificates, so these tests
widen its policy to http and serve the image from the loopback test server.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument, QTextImageFormat

from desktop.ui.views.rich_text import RichText
from tests.support.qt_images import png
from tests.support.settings_files import write_settings
from tests.support.sse_server import default_stream, raw_response

BROKEN = "http://127.0.0.1:1/broken.png"  # nothing listens there


def answer_widget(parley):
    """The answer's widget, once there is an answer."""
    transcript = parley.window.chat_view.transcript
    ids = transcript.message_ids()
    return transcript.message_widget(ids[-1]) if len(ids) == 2 else None


def image_names(document: QTextDocument) -> list[str]:
    names = []
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fmt = iterator.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(QTextImageFormat(fmt).name())
            iterator += 1
        block = block.next()
    return names


def start(driver, sse_server, tmp_path, *, remote_images: bool):
    write_settings(tmp_path, sse_server.base_url)
    if remote_images:
        path = tmp_path / "settings.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["appearance"] = {"load_remote_images": True}
        path.write_text(json.dumps(data), encoding="utf-8")
    parley = driver.start(tmp_path)
    parley.images.allowed_schemes = frozenset({"http", "https"})
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)
    parley.errors.errorRaised.connect(errors.append)
    return parley, errors


def ask(driver, parley, sse_server, answer: str) -> None:
    sse_server.enqueue(default_stream(answer))

    async def body() -> None:
        assert parley.chat_vm.submit("show me")
        await driver.until(lambda: not parley.chat_vm.busy and answer_widget(parley) is not None)

    driver.run(body())


def test_with_remote_images_off_images_stay_links_and_nothing_is_fetched(
    driver, sse_server, tmp_path
):
    parley, errors = start(driver, sse_server, tmp_path, remote_images=False)
    chart = f"{sse_server.url}/chart.png"
    ask(driver, parley, sse_server, f"Here: ![chart]({chart})")
    driver.run(driver.until(lambda: "🖼 chart" in answer_widget(parley).body.toPlainText()))

    body = answer_widget(parley).body
    assert f'href="{chart}"' in body.toHtml()
    assert image_names(body.document()) == []
    assert [r.method for r in sse_server.requests] == ["POST"]  # the chat request only
    assert parley.images.requests_made == 0
    assert errors == []


def test_with_remote_images_on_an_image_loads_inline_and_a_broken_one_stays_a_link(
    driver, sse_server, tmp_path
):
    parley, errors = start(driver, sse_server, tmp_path, remote_images=True)
    chart = f"{sse_server.url}/chart.png"
    sse_server.enqueue(default_stream(f"Here: ![chart]({chart}) and ![broken]({BROKEN})"))
    sse_server.enqueue(raw_response(png(40, 30), headers={"Content-Type": "image/png"}))

    async def body() -> None:
        assert parley.chat_vm.submit("show me")
        await driver.until(
            lambda: (
                answer_widget(parley) is not None
                and image_names(answer_widget(parley).body.document()) == [chart]
            )
        )
        await parley.tasks.drain()  # the broken one has failed by now too

    driver.run(body())
    widget = answer_widget(parley)
    document = widget.body.document()
    image = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(chart))
    assert (image.width(), image.height()) == (40, 30)
    assert widget.body.heightForWidth(400) > 30
    assert f'href="{BROKEN}"' in widget.body.toHtml()  # still the link
    assert "🖼 broken" in widget.body.toPlainText()
    assert [r.path for r in sse_server.requests if r.method == "GET"] == ["/chart.png"]
    assert errors == []


def test_turning_remote_images_off_shows_links_again(driver, sse_server, tmp_path):
    parley, _errors = start(driver, sse_server, tmp_path, remote_images=True)
    chart = f"{sse_server.url}/chart.png"
    sse_server.enqueue(default_stream(f"![chart]({chart})"))
    sse_server.enqueue(raw_response(png(), headers={"Content-Type": "image/png"}))

    async def body() -> None:
        assert parley.chat_vm.submit("show me")
        await driver.until(
            lambda: (
                answer_widget(parley) is not None
                and image_names(answer_widget(parley).body.document()) == [chart]
            )
        )
        parley.settings_vm.set_load_remote_images(False)
        await driver.until(lambda: image_names(answer_widget(parley).body.document()) == [])

    driver.run(body())
    assert f'href="{chart}"' in answer_widget(parley).body.toHtml()


def test_the_setting_toggles_in_the_settings_window_and_persists(driver, tmp_path):
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    appearance = parley.window._settings_dialog.appearance
    assert not appearance.remote_images.isChecked()
    appearance.remote_images.setChecked(True)
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["appearance"]["load_remote_images"] is True
    driver.close(parley)

    parley = driver.start(tmp_path)
    parley.window.show_settings()
    appearance = parley.window._settings_dialog.appearance
    assert appearance.remote_images.isChecked()
    appearance.remote_images.setChecked(False)
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert "load_remote_images" not in saved["appearance"]


def test_an_inline_image_fits_the_column_and_is_fitted_again_when_it_narrows(qapp):
    wide = QImage(500, 100, QImage.Format.Format_RGB32)
    wide.fill(QColor("teal"))
    loaded = {"https://example.com/wide.png": wide}
    text = RichText()
    text.set_image_source(lambda url: loaded.get(url.toString()))
    text.set_wrap_width(600)
    text.set_html(
        '<p>a</p><p><img src="https://example.com/wide.png" /></p>'
        '<p><img src="https://example.com/unknown.png" /></p>'
    )

    def shown(url: str) -> QImage:
        return text.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(url))

    text.heightForWidth(600)
    assert shown("https://example.com/wide.png").width() == 500
    text.heightForWidth(300)
    margins = round(text.document().documentMargin() * 2)
    assert shown("https://example.com/wide.png").width() == 300 - margins
    # Not loaded: a blank pixel, never nothing (Qt would then try it as a local file).
    assert shown("https://example.com/unknown.png").size().toTuple() == (1, 1)
