"""Settings → Assistants: the list on the left (add, duplicate, delete, make default),
the selected assistant's form on the right, saved as it is changed.

Every change is saved at once (a prompt after a pause in typing or when the cursor
leaves it, a name when it is finished); a change the settings file would refuse is said
beside its field and not saved. The form is redrawn from the settings only where the
saved assistant changed since the form last showed it (an Undo in the window), so a
save never disturbs what is being typed elsewhere in the form.
"""

from __future__ import annotations

from dataclasses import fields, replace

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.assistants import MAX_STARTERS, MIN_THRESHOLD, Assistant, RetrievalMode
from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.memory import MemoryMode
from desktop.ui.viewmodels.assistants import AssistantsModel
from desktop.ui.views.flow_layout import FlowLayout
from desktop.ui.views.labels import PlainLabel, plain_form_labels
from desktop.ui.views.record_list import Record, RecordList
from desktop.ui.views.settings_pages.autosave import (
    FieldError,
    PauseCommit,
    save_number_on_pause,
    save_text_on_pause,
)
from desktop.ui.views.settings_pages.providers_page import set_tone
from desktop.ui.views.settings_pages.tool_checklist import ToolChecklist

LIST_WIDTH = 220  # px: the assistants' names, beside the form


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
        self._shown: Assistant | None = None  # the assistant as the form last showed it
        self._loading = False  # the form is being filled, not changed by the person
        self._flushing = False  # saving the previous assistant's last edit, while switching
        self._models = model.model_choices()

        self.list = RecordList(self)
        self.list.setObjectName("LibraryList")  # drawn as the other pages' lists
        self.list.setMaximumWidth(LIST_WIDTH)
        self.list.set_placeholder(
            self.tr(
                "Add an assistant for each kind of work: its own prompt, model, tools "
                "and documents."
            ),
            fixed_rows=1,  # the built-in one
        )
        self.list.setWordWrap(True)
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self._add)
        self.duplicate_button = QPushButton(self.tr("Duplicate"), self)
        self.duplicate_button.clicked.connect(lambda: self.select(model.duplicate(self._selected)))
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.clicked.connect(lambda: model.delete(self._selected))
        self.default_button = QPushButton(self.tr("Make default"), self)
        self.default_button.setToolTip(self.tr("New conversations talk to this assistant"))
        self.default_button.clicked.connect(lambda: model.set_default(self._selected))

        self.name = QLineEdit(self)
        self.name_error = FieldError(self)
        self.icon = QLineEdit(self)
        self.icon.setMaxLength(4)
        self.icon.setPlaceholderText("🙂")
        self.icon.setMaximumWidth(80)
        self.system_prompt = QPlainTextEdit(self)
        self.system_prompt.setPlaceholderText(self.tr("How the assistant should behave"))
        self.system_prompt.setFixedHeight(130)  # a long prompt scrolls; the form stays in view
        # What a new chat with it offers to send with one click (see empty_chat.py).
        self.starters = QPlainTextEdit(self)
        self.starters.setObjectName("StartersEdit")
        self.starters.setPlaceholderText(
            self.tr("One per line, e.g. “Quiz me on this week's vocabulary”")
        )
        self.starters.setToolTip(
            self.tr("Up to %1 messages a new chat offers to send with one click").replace(
                "%1", str(MAX_STARTERS)
            )
        )
        self.starters.setFixedHeight(76)
        self.default_model = QComboBox(self)
        # As wide as a usual model name, not as the longest: the form fits the window.
        self.default_model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.default_model.setMinimumContentsLength(24)
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
        # (Under the prompt it speaks of, and short: the form fits a narrow window.)
        self.allow_override = QCheckBox(self.tr("A chat may use its own prompt instead"), self)
        self.allow_override.setToolTip(
            self.tr("A conversation may replace the system prompt with its own")
        )
        self.tool_checklist = ToolChecklist(self)
        # (its parts, as tests reach them)
        self.all_tools, self.tools = self.tool_checklist.all_tools, self.tool_checklist.list
        self.all_tools_note = self.tool_checklist.all_note
        # The libraries it may search and cite: a box each, wrapping onto more lines.
        self.libraries = QWidget(self)
        self.libraries.setObjectName("AssistantLibraries")
        self._library_flow = FlowLayout(self.libraries, spacing=12)
        self.library_boxes: dict[str, QCheckBox] = {}
        self._library_choices: list[tuple[str, str]] = []
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
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)

        # --- saving as the person goes ------------------------------------------------
        self.name.editingFinished.connect(self._save_typed)
        self.icon.editingFinished.connect(self._save_typed)
        for combo in (self.default_model, self.effort, self.memory, self.retrieval):
            combo.currentIndexChanged.connect(self._on_changed)
        for box in (self.allow_override, self.past_chats, self.global_memories):
            box.toggled.connect(self._on_changed)
        self.tool_checklist.changed.connect(self._on_changed)
        self.pauses: tuple[PauseCommit, ...] = (
            save_text_on_pause(self.system_prompt, self._save_typed),
            save_text_on_pause(self.starters, self._save_typed),
            *(
                save_number_on_pause(spin, self._save_typed)
                for spin in (self.temperature, self.top_p, self.max_tokens, self.threshold)
            ),
        )

        buttons = QGridLayout()  # two by two: the list is narrow
        buttons.addWidget(self.add_button, 0, 0)
        buttons.addWidget(self.duplicate_button, 0, 1)
        buttons.addWidget(self.delete_button, 1, 0)
        buttons.addWidget(self.default_button, 1, 1)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        left.addLayout(buttons)

        name_row = QHBoxLayout()
        name_row.addWidget(self.icon)
        name_row.addWidget(self.name, 1)
        name_column = QVBoxLayout()
        name_column.setSpacing(2)
        name_column.addLayout(name_row)
        name_column.addWidget(self.name_error)
        form = QFormLayout()
        form.addRow(self.tr("Icon and name"), name_column)
        prompt_column = QVBoxLayout()
        prompt_column.setSpacing(4)
        prompt_column.addWidget(self.system_prompt)
        prompt_column.addWidget(self.allow_override)
        form.addRow(self.tr("System prompt"), prompt_column)
        form.addRow(self.tr("Conversation starters"), self.starters)
        form.addRow(self.tr("Default model"), self.default_model)
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Top-p"), self.top_p)
        form.addRow(self.tr("Max output tokens"), self.max_tokens)
        form.addRow(self.tr("Reasoning effort"), self.effort)
        form.addRow(self.tr("Summarise history above"), self.threshold)
        form.addRow(self.tr("Tools"), self.tool_checklist)
        knowledge_column = QVBoxLayout()
        knowledge_column.addWidget(self.libraries)
        knowledge_column.addWidget(self.libraries_hint)
        form.addRow(self.tr("Knowledge"), knowledge_column)
        form.addRow(self.tr("Search documents"), self.retrieval)
        form.addRow("", self.past_chats)
        form.addRow(self.tr("Memories"), self.memory)
        form.addRow("", self.global_memories)
        plain_form_labels(form)
        body = QWidget(self)
        body.setObjectName("AssistantFormBody")
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 12, 0)
        body_layout.addLayout(form)
        body_layout.addStretch(1)
        # The form scrolls on its own: the list beside it stays in view.
        self.form_area = QScrollArea(self)
        self.form_area.setObjectName("AssistantForm")
        self.form_area.setWidgetResizable(True)
        self.form_area.setFrameShape(QFrame.Shape.NoFrame)
        self.form_area.setWidget(body)
        right = QVBoxLayout()
        right.addWidget(self.form_area, 1)
        right.addWidget(self.status)

        layout = QHBoxLayout(self)
        layout.addLayout(left)
        layout.addSpacing(6)
        layout.addLayout(right, 1)

        model.changed.connect(self.reload)
        model.saved.connect(self._on_saved)
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        model.invalid.connect(self._on_invalid)
        self.reload()

    # --- list ---------------------------------------------------------------------

    def reload(self) -> None:
        """Redraw the list (keeping the selection) and the form where the saved
        assistant changed."""
        self._models = self._model.model_choices()
        assistants = self._model.assistants()
        records = []
        for assistant in assistants:
            label = assistant.label
            if self._model.is_default(assistant.id):
                label += "  " + self.tr("(default)")
            records.append(Record(assistant.id, label))
        if self._flushing:  # the list has moved on; the form is about to follow it
            self.list.set_records(records, self.list.current_id())
            return
        if not any(a.id == self._selected for a in assistants):
            self._selected = ""  # deleted
        keep = self._selected or assistants[0].id
        self.list.set_records(records, keep)
        self._show(keep)

    def select(self, assistant_id: str) -> None:
        if assistant_id and self.list.row_of(assistant_id) >= 0:
            self.list.setCurrentRow(self.list.row_of(assistant_id))
            self._show(assistant_id)  # (no signal when it was current already)

    def _on_current_changed(self, current: QListWidgetItem | None, *_: object) -> None:
        if current is not None:
            self._show(self.list.current_id())

    def _add(self) -> None:
        """A new assistant, saved at once, with its name ready to be typed over."""
        self.select(self._model.add())
        self.name.setFocus()
        self.name.selectAll()

    # --- form ---------------------------------------------------------------------

    def _show(self, assistant_id: str) -> None:
        """Fill the form with the assistant; for the one shown already, only the
        fields its saved version changed (and the choices offered)."""
        assistant = self._model.assistant(assistant_id)
        switching = assistant_id != self._selected or self._shown is None
        if switching:
            self._flushing = True
            try:  # what waited for a pause in typing is the previous one's
                for pause in self.pauses:
                    pause.flush()
            finally:
                self._flushing = False
            changed = {f.name for f in fields(Assistant)}
        else:
            assert self._shown is not None
            changed = {
                f.name
                for f in fields(Assistant)
                if getattr(assistant, f.name) != getattr(self._shown, f.name)
            }
        self._selected = assistant_id
        self._loading = True
        try:
            self._fill(assistant, changed)
        finally:
            self._loading = False
        if switching:
            for pause in self.pauses:
                pause.cancel()  # the form's own filling is no change of the person's
            self.name_error.clear_error()
            set_tone(self.status, "")
        self._shown = assistant
        self.delete_button.setEnabled(self._model.can_delete(assistant_id))
        self.default_button.setEnabled(not self._model.is_default(assistant_id))

    def _fill(self, assistant: Assistant, changed: set[str]) -> None:
        # (A text already as saved is left alone: its cursor stays where it is.)
        if "name" in changed and self.name.text() != assistant.name:
            self.name.setText(assistant.name)
        if "icon" in changed and self.icon.text() != assistant.icon:
            self.icon.setText(assistant.icon)
        prompt = assistant.system_prompt
        if "system_prompt" in changed and self.system_prompt.toPlainText() != prompt:
            self.system_prompt.setPlainText(prompt)
        if "starters" in changed and _starters(self.starters.toPlainText()) != assistant.starters:
            self.starters.setPlainText("\n".join(assistant.starters))
        self._fill_models(assistant)
        if "temperature" in changed:
            self.temperature.setValue(
                assistant.temperature
                if assistant.temperature is not None
                else self.temperature.minimum()
            )
        if "top_p" in changed:
            self.top_p.setValue(
                assistant.top_p if assistant.top_p is not None else self.top_p.minimum()
            )
        if "max_output_tokens" in changed:
            self.max_tokens.setValue(assistant.max_output_tokens or 0)
        if "reasoning_effort" in changed:
            self.effort.setCurrentIndex(max(0, self.effort.findData(assistant.reasoning_effort)))
        if "context_threshold" in changed:
            self.threshold.setValue(assistant.context_threshold)
        if "allow_prompt_override" in changed:
            self.allow_override.setChecked(assistant.allow_prompt_override)
        self.tool_checklist.show_tools(
            self._model.tool_names(), assistant.allowed_tools, tick="allowed_tools" in changed
        )
        self._fill_libraries(assistant, "libraries" in changed)
        if "retrieval" in changed:
            self.retrieval.setCurrentIndex(
                max(0, self.retrieval.findData(assistant.retrieval.value))
            )
        if "past_chats" in changed:
            self.past_chats.setChecked(assistant.past_chats)
        if "memory" in changed:
            self.memory.setCurrentIndex(max(0, self.memory.findData(assistant.memory.value)))
        if "global_memories" in changed:
            self.global_memories.setChecked(assistant.global_memories)
        self._memory_chosen()

    def _fill_models(self, assistant: Assistant) -> None:
        """The configured models offered (they may have changed), the saved one chosen."""
        labels = [c.label for c in self._models]
        if labels != [self.default_model.itemText(i) for i in range(self.default_model.count())]:
            self.default_model.clear()
            self.default_model.addItems(labels)
        refs = [c.ref for c in self._models]
        self.default_model.setCurrentIndex(refs.index(assistant.default_model))

    def _fill_libraries(self, assistant: Assistant, changed: bool) -> None:
        choices = self._model.library_choices()
        if choices != self._library_choices:
            self._library_choices = choices
            for box in self.library_boxes.values():
                box.deleteLater()
            self.library_boxes = {}
            for library_id, name in choices:
                box = QCheckBox(name, self.libraries)
                box.toggled.connect(self._on_changed)
                self.library_boxes[library_id] = box
            self._library_flow.place(list(self.library_boxes.values()))
            changed = True
        if changed:
            for library_id, box in self.library_boxes.items():
                box.setChecked(library_id in assistant.libraries)
        self.libraries.setVisible(bool(self.library_boxes))
        self.libraries_hint.setVisible(not self.library_boxes)
        self.retrieval.setEnabled(bool(self.library_boxes))

    def form_assistant(self) -> Assistant:
        """The assistant as the form shows it now."""
        # Starting from the saved one keeps what this form does not show.
        return replace(
            self._model.assistant(self._selected),
            name=self.name.text().strip(),
            icon=self.icon.text().strip(),
            system_prompt=self.system_prompt.toPlainText(),
            starters=_starters(self.starters.toPlainText()),
            default_model=self._models[self.default_model.currentIndex()].ref,
            temperature=_spin_value(self.temperature),
            top_p=_spin_value(self.top_p),
            max_output_tokens=self.max_tokens.value() or None,
            reasoning_effort=self.effort.currentData(),
            allowed_tools=self.tool_checklist.allowed(),
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

    # --- saving -------------------------------------------------------------------

    def _on_changed(self, *_: object) -> None:
        if not self._loading:
            self.save()

    def save(self, *, coalesce: bool = False) -> None:
        """Save the form as it shows the assistant now (nothing when nothing changed).
        `coalesce`: typing, whose quick saves Undo takes back as one."""
        if not self._selected or self._loading:
            return
        self.name_error.clear_error()  # said again if it still holds
        self._model.save(self.form_assistant(), coalesce=coalesce)

    def _save_typed(self) -> None:
        self.save(coalesce=True)

    def _on_saved(self, _assistant_id: str) -> None:
        self.name_error.clear_error()
        set_tone(self.status, self.tr("Saved."), "ok")

    def _on_invalid(self, field: str, sentence: str) -> None:
        if field == "name":
            self.name_error.say(sentence)
            set_tone(self.status, "")
        else:
            set_tone(self.status, sentence, "error")


def _starters(text: str) -> tuple[str, ...]:
    """The starters typed one per line (blank lines left out)."""
    return tuple(line.strip() for line in text.splitlines() if line.strip())
