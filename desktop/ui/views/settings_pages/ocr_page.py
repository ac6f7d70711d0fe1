"""Settings → OCR: the model that reads images for models without vision, and the
local engine's status."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QVBoxLayout, QWidget

from desktop.ui.viewmodels.ocr_settings import OcrSettingsModel
from desktop.ui.views.labels import PlainLabel, plain_form_labels
from desktop.ui.views.settings_pages.providers_page import set_tone


class OcrPage(QWidget):
    def __init__(self, model: OcrSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        intro = PlainLabel(
            self.tr(
                "When you send images to a model that cannot see them, Parley first reads "
                "the text in them and sends that instead. Choose a model with vision to do "
                "the reading, or leave it to the local engine, which works offline and "
                "keeps the images on this computer."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.picker = QComboBox(self)
        self.picker.setObjectName("OcrModelPicker")
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.picker.activated.connect(model.choose)
        picker_hint = PlainLabel(
            self.tr("Only models that can see images are listed."),
            self,
        )
        picker_hint.setObjectName("FormHint")
        self.local_status = PlainLabel("", self)
        self.local_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = PlainLabel("", self)
        self.summary.setWordWrap(True)

        picker_column = QVBoxLayout()
        picker_column.setSpacing(2)
        picker_column.addWidget(self.picker, 0, Qt.AlignmentFlag.AlignLeft)
        picker_column.addWidget(picker_hint)
        form = QFormLayout()
        form.addRow(self.tr("OCR model"), picker_column)
        plain_form_labels(form)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addSpacing(8)
        layout.addWidget(self.local_status)
        layout.addWidget(self.summary)
        layout.addStretch(1)

        model.changed.connect(self.load)
        self.load()

    def load(self) -> None:
        self.picker.blockSignals(True)
        try:
            self.picker.clear()
            for choice in self._model.choices():
                self.picker.addItem(choice.label)
            self.picker.setCurrentIndex(self._model.current_index())
        finally:
            self.picker.blockSignals(False)
        installed = self._model.local_installed
        set_tone(self.local_status, self._model.local_status(), "ok" if installed else "")
        self.summary.setText(self._model.summary())
