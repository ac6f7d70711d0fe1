"""Settings → Usage & models: the utility model picker and the price table, saved as
they change (a price row once both its prices are typed)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.usage_settings import CURRENCY, PRICES, PriceRow, UsageSettingsModel
from desktop.ui.views.labels import PlainLabel, form_hint, plain_form_labels
from desktop.ui.views.settings_pages.autosave import FieldError

MODEL, INPUT, OUTPUT, REASONING = range(4)


def _price_text(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


class UsagePage(QWidget):
    def __init__(self, model: UsageSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._rows: list[PriceRow] = []
        self._editing = False
        intro = PlainLabel(
            self.tr(
                "Titles for new chats and follow-up suggestions are written in the "
                "background by the utility model. A small, fast model keeps them cheap."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.utility = QComboBox(self)
        self.utility.setObjectName("UtilityModelPicker")
        self.utility.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.utility.activated.connect(model.choose_utility)
        self.currency = QLineEdit(self)
        self.currency.setObjectName("CurrencyEdit")
        self.currency.setMaxLength(3)
        self.currency.setMaximumWidth(80)
        self.currency.editingFinished.connect(lambda: model.set_currency(self.currency.text()))
        self.currency_problem = FieldError(self)
        self.titles = QCheckBox(self.tr("Name new chats from their first answer"), self)
        self.titles.toggled.connect(model.set_auto_titles)
        self.suggestions = QCheckBox(self.tr("Suggest follow-up questions"), self)
        self.suggestions.toggled.connect(model.set_suggestions)
        form = QFormLayout()
        form.addRow(self.tr("Utility model"), self.utility)
        form.addRow("", self.titles)
        form.addRow("", self.suggestions)
        currency_row = QHBoxLayout()
        currency_row.addWidget(self.currency)
        currency_row.addWidget(self.currency_problem, 1)
        form.addRow(self.tr("Currency"), currency_row)
        plain_form_labels(form)

        prices_hint = PlainLabel(
            self.tr(
                "Prices per million tokens. Leave a row empty for no cost; reasoning "
                "tokens cost the output price unless you give them their own."
            ),
            self,
        )
        prices_hint.setWordWrap(True)
        prices_hint.setObjectName("FormHint")
        self.table = QTableWidget(0, 4, self)
        self.table.setObjectName("PriceTable")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Model"),
                self.tr("Input / 1M"),
                self.tr("Output / 1M"),
                self.tr("Reasoning / 1M"),
            ]
        )
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(MODEL, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(160)
        self.table.itemChanged.connect(self._on_item_changed)
        self.no_models = form_hint(
            self.tr("No models yet: add a provider, and its models are listed here to price."),
            self,
        )
        self.no_models.setObjectName("EmptyListNote")
        self.price_problem = FieldError(self)
        self.problems = {CURRENCY: self.currency_problem, PRICES: self.price_problem}

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addSpacing(8)
        layout.addWidget(prices_hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.no_models)
        layout.addWidget(self.price_problem)

        model.changed.connect(self.load)
        model.problemChanged.connect(self._show_problem)
        self.load()

    def load(self) -> None:
        if self._editing:  # saved from inside a cell's change: rebuild after it
            QTimer.singleShot(0, self, self.load)
            return
        self.utility.blockSignals(True)
        self.table.blockSignals(True)
        try:
            self.utility.clear()
            self.utility.addItems([c.label for c in self._model.utility_choices()])
            self.utility.setCurrentIndex(self._model.utility_index())
            self.currency.setText(self._model.currency())
            titles, suggestions = self._model.after_answer()
            for box, on in ((self.titles, titles), (self.suggestions, suggestions)):
                box.blockSignals(True)
                box.setChecked(on)
                box.blockSignals(False)
            self._rows = self._model.rows()
            self.table.setRowCount(len(self._rows))
            for row, entry in enumerate(self._rows):
                name = QTableWidgetItem(entry.label)
                name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, MODEL, name)
                price = entry.price
                values = (
                    (price.input, price.output, price.reasoning) if price else (None, None, None)
                )
                for column, value in zip((INPUT, OUTPUT, REASONING), values, strict=True):
                    self.table.setItem(row, column, QTableWidgetItem(_price_text(value)))
        finally:
            self.utility.blockSignals(False)
            self.table.blockSignals(False)
        self.table.setVisible(bool(self._rows))
        self.no_models.setVisible(not self._rows)

    def _show_problem(self, field: str, problem: str) -> None:
        label = self.problems.get(field)
        if label is not None:
            label.say(problem)

    def _cell(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text() if item is not None else ""

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        row = item.row()
        if not 0 <= row < len(self._rows) or item.column() == MODEL:
            return
        texts = [self._cell(row, c) for c in (INPUT, OUTPUT, REASONING)]
        complete = bool(texts[0].strip()) == bool(texts[1].strip())
        if complete:  # wait for the other price of a half-typed row
            self._editing = True
            try:
                self._model.set_price(self._rows[row].ref, *texts)
            finally:
                self._editing = False
