"""Appearance: language, theme, text size, and whether remote images load inside answers,
each saved and applied as it is chosen."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QSpinBox, QWidget

from desktop.core.settings import MAX_FONT_SIZE, MIN_FONT_SIZE
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.labels import PlainLabel, plain_form_labels

SYSTEM_SIZE = MIN_FONT_SIZE - 1  # below the smallest allowed size: the system's size


class AppearancePage(QWidget):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = QComboBox(self)
        self.language.setObjectName("Language")
        self.language.addItem(self.tr("Follow the system"), "system")
        # Each language in its own words: whoever cannot read the current one finds theirs.
        self.language.addItem("English", "en")
        self.language.addItem("简体中文", "zh_CN")
        note = self.tr("Parley changes language when it next starts.")
        self.language_note = PlainLabel(note, self)
        self.language_note.setObjectName("FormHint")
        self.language_note.setWordWrap(True)
        self.theme = QComboBox(self)
        self.theme.addItem(self.tr("Follow the system"), "system")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        self.font_size = QSpinBox(self)
        self.font_size.setRange(SYSTEM_SIZE, MAX_FONT_SIZE)  # the minimum reads "System"
        self.font_size.setSpecialValueText(self.tr("System"))
        self.font_size.setSuffix(self.tr(" pt"))
        self.remote_images = QCheckBox(self.tr("Load remote images"), self)
        self.remote_images.setObjectName("RemoteImages")
        self.remote_images.setToolTip(
            self.tr(
                "Show images that answers link to (https only) inside the message. "
                "Fetching an image tells its server your address; while off, images "
                "are links."
            )
        )
        self._vm = vm
        self.load()
        self.language.currentIndexChanged.connect(self._on_language)
        self.theme.currentIndexChanged.connect(
            lambda _: vm.set_theme(self.theme.currentData(), undoable=True)
        )
        self.font_size.valueChanged.connect(self._on_font_size)
        self.remote_images.toggled.connect(lambda on: vm.set_load_remote_images(on, undoable=True))
        vm.appearanceChanged.connect(self.load)
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", self.language_note)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Text size"), self.font_size)
        form.addRow(self.tr("Images"), self.remote_images)
        plain_form_labels(form)

    def load(self) -> None:
        """The saved choices into the page (at start, and after Undo)."""
        vm = self._vm
        widgets = (self.language, self.theme, self.font_size, self.remote_images)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            self.language.setCurrentIndex(max(0, self.language.findData(vm.language)))
            self.theme.setCurrentIndex(max(0, self.theme.findData(vm.theme)))
            self.font_size.setValue(vm.font_size or SYSTEM_SIZE)
            self.remote_images.setChecked(vm.loadRemoteImages)
        finally:
            for widget in widgets:
                widget.blockSignals(False)
        self.language_note.setVisible(vm.language_waits_for_restart)

    def _on_language(self, _: int) -> None:
        self._vm.set_language(self.language.currentData(), undoable=True)
        self.language_note.setVisible(self._vm.language_waits_for_restart)

    def _on_font_size(self, points: int) -> None:
        self._vm.set_font_size(0 if points == SYSTEM_SIZE else points, undoable=True)
