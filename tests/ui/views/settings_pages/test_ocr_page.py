"""Settings → OCR through the real window: vision models to choose from, the local
engine's status, and the choice saved."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.models import ModelRef
from desktop.engine.ocr.local_engine import LocalOcrEngine
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.viewmodels.ocr_settings import OcrSettingsModel
from desktop.ui.views.settings_pages.ocr_page import OcrPage
from tests.support.settings_files import saved_settings, write_settings


def items(page: OcrPage) -> list[str]:
    return [page.picker.itemText(i) for i in range(page.picker.count())]


def test_choosing_a_vision_model_for_ocr_is_saved_and_shown_again(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url, models=("test-model", "gpt-4o"))
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.ocr
    assert dialog.title_of(page) == "OCR"
    # test-model cannot see images, so only gpt-4o is offered.
    assert items(page) == ["None — use the local engine", "gpt-4o — Local"]
    assert page.picker.currentIndex() == 0
    assert page.local_status.text() == "Local OCR engine: installed"
    assert page.summary.text() == "Images are read by the local engine, on this computer."

    page.picker.setFocus()
    QTest.keyClick(page.picker, Qt.Key.Key_Down)
    assert saved_settings(tmp_path)["ocr_model"] == "local/gpt-4o"
    assert dialog.bar.detail.text() == "OCR model changed"
    assert page.summary.text() == "Images are read by gpt-4o."

    driver.close(parley)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.ocr
    assert page.picker.currentText() == "gpt-4o — Local"

    QTest.keyClick(page.picker, Qt.Key.Key_Up)
    assert "ocr_model" not in saved_settings(tmp_path)


def test_without_the_local_engine_the_page_says_how_to_install_it(
    qtbot, memory_keyring, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url, models=("test-model", "gpt-4o"))
    service = SettingsService(tmp_path / "settings.json", SecretStore())
    try:
        model = OcrSettingsModel(service, LocalOcrEngine(modules=("parley_no_such_module",)))
        page = OcrPage(model)
        qtbot.addWidget(page)
        assert (
            page.local_status.text()
            == "Local OCR engine: not installed — pip install 'parley[ocr]'"
        )
        assert page.summary.text().startswith("No OCR is available: images cannot be sent")

        # A chosen model that no longer counts as seeing stays listed, marked, and chosen.
        service.save(replace(service.settings, ocr_model=ModelRef("local", "test-model")))
        assert items(page)[-1] == "test-model — Local (cannot see images)"
        assert page.picker.currentIndex() == 2
        assert page.summary.text() == "Images are read by test-model."

        service.save(service.settings.without_provider("local"))
        assert items(page) == ["None — use the local engine"]
        assert page.picker.currentIndex() == 0
    finally:
        asyncio.run(service.aclose())
