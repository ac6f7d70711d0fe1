"""The composer's context meter: "12k / 128k", coloured as the context fills up."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from desktop.ui.viewmodels.context_meter import ContextMeterModel


class ContextMeter(QLabel):
    def __init__(self, model: ContextMeterModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ContextMeter")
        self._model = model
        model.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        reading = self._model.reading()
        self.setText(reading.text)
        self.setToolTip(reading.tooltip)
        if self.property("level") != reading.level.value:
            self.setProperty("level", reading.level.value)  # qss: [level="high"]
            self.style().unpolish(self)
            self.style().polish(self)
