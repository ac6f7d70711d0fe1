"""Settings → Assistants: the list on the left (add, duplicate, delete, make default),
the selected assistant's form on the right, saved with its Save button."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.assistants import MIN_THRESHOLD, Assistant, RetrievalMode
from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.memory import MemoryMode
from desktop.ui.viewmodels.assistants import AssistantsModel
from desktop.ui.views.flow_layout import FlowLayout
from desktop.ui.views.labels import PlainLabel, plain_form_labels
from desktop.ui.views.settings_pages.providers_page import set_tone

_ID_ROLE = Qt.ItemDataRole.UserRole


def _optional_spin(low: float, high: float, step: float, unset: str) -> QDoubleSpinBox:
    """A spin box whose lowest value, one step below `low`, reads as "not set"."""
    spin = QDoubleSpinBox()
    spin.setDecimals(2)
    spin.setSingleStep(step)
    spin.setRange(low - step, high)
    spin.setSpecialValueText(unset)
    return spin


def _spin_value(spin: QDoubleSpinBox) -> float | None:
    return None if spin.value() <= spin.minimum() else round(spin.value(), 2)


class AssistantsPage(QWidget):
    def __init__(self, model: AssistantsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._selected = ""
        self._models = model.model_choices()

        self.list = QListWidget(self)
        self.list.setObjectName("AssistantList")
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(lambda: self.select(model.add()))
        self.duplicate_button = QPushButton(self.tr("Duplicate"), self)
        self.duplicate_button.clicked.connect(lambda: self.select(model.duplicate(self._selected)))
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.clicked.connect(lambda: model.delete(self._selected))
        self.default_button = QPushButton(self.tr("Make default"), self)
        self.default_button.setToolTip(self.tr("New conversations talk to this assistant"))
        self.default_button.clicked.connect(lambda: model.set_default(self._selected))

        self.name = QLineEdit(self)
        self.icon = QLineEdit(self)
        self.icon.setMaxLength(4)
        self.icon.setPlaceholderText("🙂")
        self.icon.setMaximumWidth(80)
        self.system_prompt = QPlainTextEdit(self)
        self.system_prompt.setPlaceholderText(self.tr("How the assistant should behave"))
        self.default_model = QComboBox(self)
        self.default_model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        model_default = self.tr("Model's default")
        self.temperature = _optional_spin(0.0, 2.0, 0.05, model_default)
        self.top_p = _optional_spin(0.0, 1.0, 0.05, model_default)
        self.max_tokens = QSpinBox(self)
        self.max_tokens.setRange(0, 10_000_000)
        self.max_tokens.setSingleStep(256)
        self.max_tokens.setSpecialValueText(model_default)
        self.effort = QComboBox(self)
        self.effort.addItem(self.tr("The chat's choice"), None)
        names = {
            "off": self.tr("Off"),
            "low": self.tr("Low"),
            "medium": self.tr("Medium"),
            "high": self.tr("High"),
            "max": self.tr("Maximum"),
        }
        for effort in REASONING_EFFORTS:
            self.effort.addItem(names[effort], effort)
        self.threshold = QSpinBox(self)
        self.threshold.setRange(MIN_THRESHOLD, 10_000_000)
        self.threshold.setSingleStep(1000)
        self.threshold.setSuffix(self.tr(" tokens"))
        self.allow_override = QCheckBox(
            self.tr("A conversation may replace the system prompt with its own"), self
        )
        self.all_tools = QCheckBox(self.tr("All tools"), self)
        self.tools = QListWidget(self)
        self.all_tools.toggled.connect(lambda on: self.tools.setEnabled(not on))
        self.tools.setObjectName("AssistantTools")
        self.tools.setMaximumHeight(140)
        # The libraries it may search and cite: a box each, wrapping onto more lines.
        self.libraries = QWidget(self)
        self.libraries.setObjectName("AssistantLibraries")
        self._library_flow = FlowLayout(self.libraries, spacing=12)
        self.library_boxes: dict[str, QCheckBox] = {}
        self.libraries_hint = PlainLabel(self.tr("Add libraries in Settings → Knowledge"), self)
        self.libraries_hint.setObjectName("FormHint")
        self.past_chats = QCheckBox(self.tr("May search your earlier chats"), self)
        self.past_chats.setToolTip(
            self.tr(
                "A model that can call tools may look through your other chats with this "
                "assistant's answers, and cite them. The chat you are in is left out."
            )
        )
        # What its answers know of what the person asked it to remember.
        self.memory = QComboBox(self)
        self.memory.setObjectName("AssistantMemory")
        for memory_mode, text in (
            (MemoryMode.OFF, self.tr("Off")),
            (MemoryMode.ALL, self.tr("All its memories, in every answer")),
            (MemoryMode.RETRIEVE, self.tr("The memories that fit each message")),
        ):
            self.memory.addItem(text, memory_mode.value)
        self.global_memories = QCheckBox(self.tr("Also memories kept for all assistants"), self)
        self.memory.currentIndexChanged.connect(self._memory_chosen)
        # When its answers search them.
        self.retrieval = QComboBox(self)
        self.retrieval.setObjectName("AssistantRetrieval")
        for mode, text in (
            (RetrievalMode.AUTO, self.tr("When the model needs them, if it can call tools")),
            (RetrievalMode.PRE_RETRIEVE, self.tr("Before every answer")),
            (RetrievalMode.TOOL_ONLY, self.tr("Only when the model asks (tool calling)")),
        ):
            self.retrieval.addItem(text, mode.value)
        self.retrieval.setToolTip(
            self.tr(
                "A model that can call tools searches your documents when it needs to, so "
                "it starts answering at once. Before every answer: the best passages for "
                "your message are found first and given to any model."
            )
        )
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)

        buttons = QHBoxLayout()
        for button in (
            self.add_button,
            self.duplicate_button,
            self.delete_button,
            self.default_button,
        ):
            buttons.addWidget(button)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        left.addLayout(buttons)

        name_row = QHBoxLayout()
        name_row.addWidget(self.icon)
        name_row.addWidget(self.name, 1)
        form = QFormLayout()
        form.addRow(self.tr("Icon and name"), name_row)
        form.addRow(self.tr("System prompt"), self.system_prompt)
        form.addRow(self.tr("Default model"), self.default_model)
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Top-p"), self.top_p)
        form.addRow(self.tr("Max output tokens"), self.max_tokens)
        form.addRow(self.tr("Reasoning effort"), self.effort)
        form.addRow(self.tr("Summarise history above"), self.threshold)
        form.addRow("", self.allow_override)
        tools_column = QVBoxLayout()
        tools_column.addWidget(self.all_tools)
        tools_column.addWidget(self.tools)
        form.addRow(self.tr("Tools"), tools_column)
        knowledge_column = QVBoxLayout()
        knowledge_column.addWidget(self.libraries)
        knowledge_column.addWidget(self.libraries_hint)
        form.addRow(self.tr("Knowledge"), knowledge_column)
        form.addRow(self.tr("Search documents"), self.retrieval)
        form.addRow("", self.past_chats)
        form.addRow(self.tr("Memories"), self.memory)
        form.addRow("", self.global_memories)
        plain_form_labels(form)
        right = QVBoxLayout()
        right.addLayout(form, 1)
        save_row = QHBoxLayout()
        save_row.addWidget(self.status, 1)
        save_row.addWidget(self.save_button)
        right.addLayout(save_row)

        layout = QHBoxLayout(self)
        layout.addLayout(left, 2)
        layout.addLayout(right, 5)

        model.changed.connect(self.reload)
        model.saved.connect(lambda _id: set_tone(self.status, self.tr("Saved."), "ok"))
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        self.reload()

    # --- list ---------------------------------------------------------------------

    def reload(self) -> None:
        """Redraw the list (keeping the selection) and the form's choices."""
        self._models = self._model.model_choices()
        keep = self._selected
        self.list.blockSignals(True)
        try:
            self.list.clear()
            for assistant in self._model.assistants():
                label = assistant.label
                if self._model.is_default(assistant.id):
                    label += "  " + self.tr("(default)")
                item = QListWidgetItem(label, self.list)
                item.setData(_ID_ROLE, assistant.id)
        finally:
            self.list.blockSignals(False)
        self._selected = ""
        self.select(keep or self._model.assistants()[0].id)

    def select(self, assistant_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(_ID_ROLE) == assistant_id:
                self.list.setCurrentRow(row)
                if self._selected != assistant_id:  # already current: no signal came
                    self._show(assistant_id)
                return
        if self.list.count():
            self.list.setCurrentRow(0)
            self._show(self.list.item(0).data(_ID_ROLE))

    def _on_current_changed(self, current: QListWidgetItem | None, *_: object) -> None:
        if current is not None:
            self._show(current.data(_ID_ROLE))

    # --- form ---------------------------------------------------------------------

    def _show(self, assistant_id: str) -> None:
        self._selected = assistant_id
        assistant = self._model.assistant(assistant_id)
        self.name.setText(assistant.name)
        self.icon.setText(assistant.icon)
        self.system_prompt.setPlainText(assistant.system_prompt)
        self.default_model.clear()
        for choice in self._models:
            self.default_model.addItem(choice.label)
        refs = [c.ref for c in self._models]
        self.default_model.setCurrentIndex(refs.index(assistant.default_model))
        self.temperature.setValue(
            assistant.temperature
            if assistant.temperature is not None
            else self.temperature.minimum()
        )
        self.top_p.setValue(
            assistant.top_p if assistant.top_p is not None else self.top_p.minimum()
        )
        self.max_tokens.setValue(assistant.max_output_tokens or 0)
        self.effort.setCurrentIndex(max(0, self.effort.findData(assistant.reasoning_effort)))
        self.threshold.setValue(assistant.context_threshold)
        self.allow_override.setChecked(assistant.allow_prompt_override)
        self.tools.clear()
        chosen = set(assistant.allowed_tools or ())
        for name in self._model.tool_names():
            item = QListWidgetItem(name, self.tools)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
        for box in self.library_boxes.values():
            box.deleteLater()
        self.library_boxes = {}
        for library_id, name in self._model.library_choices():
            box = QCheckBox(name, self.libraries)
            box.setChecked(library_id in assistant.libraries)
            self.library_boxes[library_id] = box
        self._library_flow.place(list(self.library_boxes.values()))
        self.libraries.setVisible(bool(self.library_boxes))
        self.libraries_hint.setVisible(not self.library_boxes)
        self.retrieval.setCurrentIndex(max(0, self.retrieval.findData(assistant.retrieval.value)))
        self.retrieval.setEnabled(bool(self.library_boxes))
        self.past_chats.setChecked(assistant.past_chats)
        self.memory.setCurrentIndex(max(0, self.memory.findData(assistant.memory.value)))
        self.global_memories.setChecked(assistant.global_memories)
        self._memory_chosen()
        self.all_tools.setChecked(assistant.allowed_tools is None)
        self.tools.setEnabled(assistant.allowed_tools is not None)
        self.delete_button.setEnabled(self._model.can_delete(assistant_id))
        self.default_button.setEnabled(not self._model.is_default(assistant_id))
        set_tone(self.status, "")

    def form_assistant(self) -> Assistant:
        """The assistant as the form shows it now."""
        tools: tuple[str, ...] | None = None
        if not self.all_tools.isChecked():
            tools = tuple(
                self.tools.item(row).text()
                for row in range(self.tools.count())
                if self.tools.item(row).checkState() == Qt.CheckState.Checked
            )
        return Assistant(
            id=self._selected,
            name=self.name.text().strip(),
            icon=self.icon.text().strip(),
            system_prompt=self.system_prompt.toPlainText(),
            default_model=self._models[self.default_model.currentIndex()].ref,
            temperature=_spin_value(self.temperature),
            top_p=_spin_value(self.top_p),
            max_output_tokens=self.max_tokens.value() or None,
            reasoning_effort=self.effort.currentData(),
            allowed_tools=tools,
            allow_prompt_override=self.allow_override.isChecked(),
            context_threshold=self.threshold.value(),
            libraries=tuple(i for i, box in self.library_boxes.items() if box.isChecked()),
            retrieval=RetrievalMode(self.retrieval.currentData()),
            past_chats=self.past_chats.isChecked(),
            memory=MemoryMode(self.memory.currentData()),
            global_memories=self.global_memories.isChecked(),
        )

    def _memory_chosen(self) -> None:
        self.global_memories.setEnabled(self.memory.currentData() != MemoryMode.OFF.value)

    def save(self) -> None:
        if self._selected:
            self._model.save(self.form_assistant())
