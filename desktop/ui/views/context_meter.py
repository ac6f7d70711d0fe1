"""The composer's context meter: "12k / 128k", coloured as the context fills up."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.context_meter import ContextMeterModel
from desktop.ui.views.elided import ElidedLabel


class ContextMeter(ElidedLabel):
    def __init__(self, model: ContextMeterModel, parent: QWidget | None = None) -> None:
        super().__init__("", parent, shortest="000k / 000k")  # its width, whatever it says
        self.setObjectName("ContextMeter")
        self._model = model
        model.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        reading = self._model.reading()
        self.setText(reading.text)
        self.setToolTip(tooltip(reading.tooltip))  # names the model
        if self.property("level") != reading.level.value:
            self.setProperty("level", reading.level.value)  # qss: [level="high"]
            self.style().unpolish(self)
            self.style().polish(self)
