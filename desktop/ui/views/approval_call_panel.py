"""One waiting call in the approval dialog: what allowing it does, the tool and its
risk, the arguments as written on request, and the four answers.

What allowing it does comes first and is made by the view-model (`approval_preview`):
the panel lays out its words, the box of the command, change or address, and the
folder. The arguments as written are laid out only when opened (they may be long);
Copy all and Save as file… give them exactly as the model wrote them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.models import Decision
from desktop.engine.tools.approval import PendingCall
from desktop.ui.icons import set_icon
from desktop.ui.viewmodels.approvals import ApprovalsViewModel, CallView
from desktop.ui.viewmodels.visible_text import breakable
from desktop.ui.views.approval_preview_box import PreviewBox, RiskBadge
from desktop.ui.views.cut_bar import CutBar
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.plain_text_view import PlainTextView

ARGUMENT_LINES = 10  # the arguments as written, when opened


def wrapped(text: str, parent: QWidget, name: str = "") -> PlainLabel:
    label = PlainLabel(text, parent)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


class ArgumentsView(PlainTextView):
    """The arguments as written: about `ARGUMENT_LINES` tall, never widening the dialog."""

    def sizeHint(self) -> QSize:
        lines = ARGUMENT_LINES * self.fontMetrics().lineSpacing()
        return QSize(200, lines + 2 * self.frameWidth() + 8)


class CallPanel(QFrame):
    """One call: what will happen, the tool and its risk, the arguments as written on
    request, and the four answers. Arguments too long to lay out show their start and
    end, with Copy all and Save as file… for all of them."""

    def __init__(
        self,
        vm: ApprovalsViewModel,
        message_id: str,
        call: PendingCall,
        parent: QWidget,
        *,
        framed: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ApprovalCall")
        self.setFrameShape(QFrame.Shape.StyledPanel if framed else QFrame.Shape.NoFrame)
        self._vm = vm
        self._message_id = message_id
        self.call = call
        self.view = view = vm.view(message_id, call)
        self._decided = False

        # What will happen.
        self.heading = wrapped("", self, "ApprovalHeading")
        heading_font = QFont(self.heading.font())
        heading_font.setBold(True)
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.15)
        self.heading.setFont(heading_font)
        self.target = wrapped("", self, "ApprovalTarget")
        target_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        target_font.setBold(True)
        self.target.setFont(target_font)
        self.target.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = PreviewBox(self)
        self.where = wrapped("", self, "ApprovalWhere")
        self.note = wrapped("", self, "MetaLabel")
        self.others = wrapped("", self, "MetaLabel")

        # The tool, its source and its risk.
        self.title = wrapped("", self, "ApprovalTool")
        title_font = QFont(self.title.font())
        title_font.setBold(True)
        self.title.setFont(title_font)
        self.facts = wrapped("", self, "MetaLabel")
        self.badge = RiskBadge(self)
        tool_row = QHBoxLayout()
        tool_row.setSpacing(8)
        tool_row.addWidget(self.title)
        tool_row.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignVCenter)
        tool_row.addWidget(self.facts, 1)
        self.description = wrapped("", self, "MetaLabel")

        # The arguments as written, on request.
        self.arguments_toggle = QToolButton(self)
        self.arguments_toggle.setObjectName("ArgumentsToggle")
        self.arguments_toggle.setCheckable(True)
        self.arguments_toggle.setAutoRaise(True)
        self.arguments_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.arguments_toggle, "chevron-right", size=12)
        self.arguments_toggle.setText(self.tr("Arguments as written"))
        self.arguments_toggle.toggled.connect(self._show_arguments)
        self.arguments = ArgumentsView("", self)
        self.arguments.setObjectName("ApprovalArguments")
        self.arguments.setAccessibleName(self.arguments_toggle.text())
        # Long values wrap instead of running off to the side; a long call scrolls.
        self.arguments.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.arguments.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.arguments.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.arguments.hide()
        self._arguments_shown = False  # laid out the first time they are opened
        self.cut_bar = CutBar(self)
        self.cut_bar.copyClicked.connect(self._copy_arguments)
        self.cut_bar.saveClicked.connect(self._save_arguments)
        self.cut_bar.hide()
        self.saved = wrapped("", self, "MetaLabel")
        self.saved.hide()
        vm.argumentsSaved.connect(self._on_vm_arguments_saved)
        vm.saveFailed.connect(self._on_vm_save_failed)
        vm.previewChanged.connect(self._on_vm_preview_changed)

        # The answers: the safe or the likely one on the right, as the primary.
        self.approve = QPushButton(self.tr("Allow once"), self)
        self.always = QPushButton(self.tr("Always allow this tool"), self)
        self.deny = QPushButton(self.tr("Deny"), self)
        self.answer_instead = QPushButton(self.tr("Answer instead…"), self)
        self.approve.clicked.connect(lambda: vm.approve_once(message_id, self.call.call_id))
        self.always.clicked.connect(lambda: vm.always_allow(message_id, self.call.call_id))
        self.deny.clicked.connect(lambda: vm.deny(message_id, self.call.call_id))
        self.answer_instead.clicked.connect(self._begin_answer)
        self.buttons = QHBoxLayout()
        self.buttons.addWidget(self.answer_instead)
        self.buttons.addWidget(self.always)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.deny)
        self.buttons.addWidget(self.approve)

        self.answer_text = QLineEdit(self)
        self.answer_text.setPlaceholderText(self.tr("The result the model gets instead"))
        self.send_answer = QPushButton(self.tr("Send answer"), self)
        self.send_answer.clicked.connect(self._send_answer)
        self.answer_row = QWidget(self)
        answer_layout = QHBoxLayout(self.answer_row)
        answer_layout.setContentsMargins(0, 0, 0, 0)
        answer_layout.addWidget(self.answer_text, 1)
        answer_layout.addWidget(self.send_answer)
        self.answer_row.hide()
        # Enter in the answer sends it: the dialog makes Send answer its default button
        # while the row is open (a line edit passes Enter on to the dialog).
        self.on_answering: Callable[[], None] = lambda: None
        self.on_grown: Callable[[], None] = lambda: None  # more to show: the dialog grows

        self.outcome = PlainLabel("", self)
        self.outcome.setObjectName("StatusLabel")
        self.outcome.hide()

        layout = QVBoxLayout(self)
        if not framed:
            layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self._layout = layout
        for widget in (self.heading, self.target, self.where, self.preview):
            layout.addWidget(widget)
        for widget in (self.note, self.others):
            layout.addWidget(widget)
        layout.addSpacing(6)
        layout.addLayout(tool_row)
        layout.addWidget(self.description)
        layout.addWidget(self.arguments_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.arguments, 1)
        layout.addWidget(self.cut_bar)
        layout.addWidget(self.saved)
        layout.addSpacing(4)
        layout.addLayout(self.buttons)
        layout.addWidget(self.answer_row)
        layout.addWidget(self.outcome)
        self._show_view(view)

    def chrome_width(self) -> int:
        """How much wider the panel is than its preview box."""
        margins = self._layout.contentsMargins()
        return margins.left() + margins.right() + 2 * self.frameWidth()

    def settle(self) -> None:
        """Lay out now (see `ApprovalDialog._settle`)."""
        self._layout.activate()

    @property
    def primary(self) -> QPushButton:
        """The answer Enter gives: Deny unless the tool only reads."""
        return self.deny if self.view.risky else self.approve

    def show_call(self, call: PendingCall) -> None:
        """What is known of the call's tool (more, once its server is up)."""
        self.call = call
        self._show_view(self._vm.view(self._message_id, call))

    def _show_view(self, view: CallView) -> None:
        self.view = view
        shown = view.preview
        self.heading.setText(shown.heading)
        self.target.setText(breakable(shown.target))
        self.target.setVisible(bool(shown.target))
        self.where.setText(breakable(shown.where))
        self.where.setVisible(bool(shown.where))
        # The folder goes with the file's path, or under a command or an address.
        self._layout.removeWidget(self.where)
        self._layout.insertWidget(2 if shown.target else 3, self.where)
        self.preview.set_preview(shown.text, shown.line_kinds)
        self.preview.setAccessibleName(shown.heading)
        self.preview.setVisible(bool(shown.text))
        for label, text in ((self.note, shown.note), (self.others, shown.others)):
            label.setText(breakable(text))
            label.setVisible(bool(text))
        self.title.setText(breakable(view.name))
        self.facts.setText(breakable(view.source))
        self.badge.set_risk(view.risk, view.level)
        self.description.setText(breakable(view.about))
        self.description.setVisible(bool(view.about))
        self._update_buttons()

    def _update_buttons(self) -> None:
        for button in (self.approve, self.deny, self.answer_instead):
            button.setEnabled(not self._decided)
        self.always.setEnabled(not self._decided and self.view.can_always_allow)
        self.always.setToolTip(self.view.always_allow_tip)

    def restyle(self) -> None:
        self.preview.restyle()
        self.badge.restyle()

    def _show_arguments(self, shown: bool) -> None:
        if shown and not self._arguments_shown:
            self._arguments_shown = True
            self.arguments.show_text(self.view.arguments)
        set_icon(self.arguments_toggle, "chevron-down" if shown else "chevron-right", size=12)
        self.arguments.setVisible(shown)
        self.cut_bar.set_note(self.view.cut_note if shown else "")
        self.on_grown()

    def _copy_arguments(self) -> None:
        QGuiApplication.clipboard().setText(self.call.arguments)

    def _save_arguments(self) -> None:
        """Ask where, then have the view-model write the arguments there."""
        name = self.tr("arguments.json")
        dialog = QFileDialog(self.window(), self.tr("Save Arguments"), str(Path.home() / name))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        message_id, call_id = self._message_id, self.call.call_id
        dialog.fileSelected.connect(lambda path: self._vm.save_arguments(message_id, call_id, path))
        dialog.open()

    def _mine(self, message_id: str, call_id: str) -> bool:
        return (message_id, call_id) == (self._message_id, self.call.call_id)

    def _on_vm_arguments_saved(self, message_id: str, call_id: str, path: str) -> None:
        if self._mine(message_id, call_id):
            self._say(self.tr("Saved to %1").replace("%1", path))

    def _on_vm_save_failed(self, message_id: str, call_id: str, reason: str) -> None:
        if self._mine(message_id, call_id):
            self._say(reason)

    def _on_vm_preview_changed(self, message_id: str, call_id: str) -> None:
        if self._mine(message_id, call_id):
            self.show_call(self.call)
            self.on_grown()

    def _say(self, text: str) -> None:
        self.saved.setText(text)
        self.saved.show()

    @property
    def answering(self) -> bool:
        return not self._decided and self.answer_row.isVisible()

    def _begin_answer(self) -> None:
        self.answer_row.show()
        self.answer_text.setFocus()
        self.on_answering()

    def _send_answer(self) -> None:
        self._vm.answer(self._message_id, self.call.call_id, self.answer_text.text())

    def show_decision(self, decision: Decision | None) -> None:
        decided = self._decided = decision is not None
        self._update_buttons()
        self.answer_row.setEnabled(not decided)
        self.outcome.setVisible(decided)
        if decision is not None:
            self.outcome.setText(
                {
                    Decision.APPROVED_ONCE: self.tr("Allowed once"),
                    Decision.ALWAYS_ALLOWED: self.tr("Always allowed"),
                    Decision.DENIED: self.tr("Denied"),
                    Decision.ANSWERED: self.tr("Answered instead"),
                }.get(decision, decision.value)
            )
