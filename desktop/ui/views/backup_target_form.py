"""The "Where" part of File → Back Up… and of Settings → Sync: a folder, a WebDAV
server or S3-compatible storage, each with its fields, and a Test button. Each use
gives its own view-model (`TargetModel`) and the few words that differ.

Fields are saved as they are finished (Enter, or the cursor leaving them) when the
target they describe can work; a field that cannot says why under itself once the
person has been in it. The password or secret key is typed once, kept in the keyring,
and then only said to be saved (`SecretField`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.remote_target import RemoteTarget
from desktop.ui.viewmodels.backup_form import (
    FIELDS,
    FieldValue,
    TargetKind,
    fields_of,
    kind_of,
    same_target,
)
from desktop.ui.viewmodels.target_model import PASSWORD, TargetModel
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.settings_pages.autosave import FieldError, field_column
from desktop.ui.views.settings_pages.providers_page import set_tone
from desktop.ui.views.settings_pages.secret_field import SecretField


def buddy_label(text: str, buddy: QWidget, parent: QWidget) -> QLabel:
    """A form label whose "&" letter (Alt+letter) moves to `buddy`."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setBuddy(buddy)
    return label


def new_form() -> QFormLayout:
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setContentsMargins(0, 0, 0, 0)
    return form


class TargetForm(QWidget):
    def __init__(
        self,
        model: TargetModel,
        parent: QWidget | None = None,
        *,
        where_label: str = "",
        folder_example: str = "",
        folder_title: str = "",
    ) -> None:
        """`where_label` names the kind list ("Store backups &in"), `folder_example`
        is the folder field's placeholder and `folder_title` the folder dialog's title;
        each defaults to the backup window's words."""
        super().__init__(parent)
        self._model = model
        self._folder_example = folder_example or self.tr("e.g. /media/backup-disk/Parley")
        self._folder_title = folder_title or self.tr("Folder for Backups")
        self._touched: set[str] = set()  # fields the person has been in
        self._loading = False
        self.folder_dialog: QFileDialog | None = None

        self.kind = QComboBox(self)
        self.kind.addItem(self.tr("A folder"), TargetKind.FOLDER.value)
        self.kind.addItem(
            self.tr("A WebDAV server (Nextcloud, ownCloud…)"), TargetKind.WEBDAV.value
        )
        self.kind.addItem(self.tr("S3-compatible storage"), TargetKind.S3.value)
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.kind.currentIndexChanged.connect(self._on_kind_chosen)
        self.pages = QStackedWidget(self)
        self.edits: dict[str, QLineEdit] = {}
        self.problems: dict[str, FieldError] = {}
        self.pages.addWidget(self._folder_page())
        self.pages.addWidget(self._webdav_page())
        self.pages.addWidget(self._s3_page())
        self.pages.currentChanged.connect(self._fit_pages)

        self.keyring_note = form_hint("", self)
        self.keyring_note.hide()
        self.test_button = QPushButton(self.tr("&Test"), self)
        self.test_button.setAutoDefault(False)
        self.test_button.clicked.connect(self.test)
        self.test_result = PlainLabel("", self)
        self.test_result.setWordWrap(True)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.general_problem = FieldError(self)

        top = new_form()
        top.addRow(
            buddy_label(where_label or self.tr("Store backups &in"), self.kind, self),
            self._left(self.kind),
        )
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.test_result, 1)
        under = field_column(self.keyring_note, self.general_problem)
        under.addLayout(test_row)
        bottom = new_form()  # under the fields, not under their labels
        bottom.addRow(PlainLabel("", self), under)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.pages)
        layout.addLayout(bottom)

        model.configChanged.connect(self.load)
        model.problemChanged.connect(self._show_problem)
        model.secretsChanged.connect(self._show_secrets)
        model.testingChanged.connect(self._on_testing)
        model.testFinished.connect(self._on_tested)
        self._loaded = False
        self._loaded_target: RemoteTarget | None = None
        self.load()
        self._fit_pages()
        self._show_keyring()

    # --- the pages --------------------------------------------------------------------

    @staticmethod
    def _left(widget: QWidget) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(widget)
        row.addStretch(1)
        return row

    def _edit(self, name: str, page: QWidget, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(page)
        edit.setPlaceholderText(placeholder)
        edit.editingFinished.connect(lambda: self._on_field_finished(name))
        self.edits[name] = edit
        self.problems[name] = FieldError(page)
        return edit

    def _add(self, form: QFormLayout, text: str, name: str, page: QWidget) -> None:
        edit = self.edits[name]
        form.addRow(buddy_label(text, edit, page), field_column(edit, self.problems[name]))

    def _folder_page(self) -> QWidget:
        page = QWidget(self.pages)
        path = self._edit("path", page, self._folder_example)
        self.browse_button = QPushButton(self.tr("&Browse…"), page)
        self.browse_button.setAutoDefault(False)
        self.browse_button.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(path, 1)
        row.addWidget(self.browse_button)
        column = QVBoxLayout()
        column.setSpacing(2)
        column.addLayout(row)
        column.addWidget(self.problems["path"])
        form = new_form()
        form.addRow(buddy_label(self.tr("&Folder"), path, page), column)
        page.setLayout(form)
        return page

    def _webdav_page(self) -> QWidget:
        page = QWidget(self.pages)
        self._edit("url", page, "https://cloud.example.org/remote.php/dav/files/alice/Parley")
        self._edit("username", page)
        self.webdav_password = self._secret_field(page, self.tr("A password is saved"))
        form = new_form()
        self._add(form, self.tr("&Address"), "url", page)
        self._add(form, self.tr("User &name"), "username", page)
        form.addRow(
            buddy_label(self.tr("Pass&word"), self.webdav_password.edit, page),
            self.webdav_password,
        )
        page.setLayout(form)
        return page

    def _s3_page(self) -> QWidget:
        page = QWidget(self.pages)
        self._edit("endpoint", page, "https://s3.example.com")
        self._edit("region", page, "us-east-1")
        self._edit("bucket", page)
        self._edit("prefix", page, self.tr("Optional, e.g. backups/parley"))
        self._edit("access_key_id", page)
        self.s3_secret = self._secret_field(page, self.tr("A secret key is saved"))
        self.path_style = QCheckBox(self.tr("Pa&th-style addresses"), page)
        self.path_style.toggled.connect(lambda _on: self._on_field_finished("path_style"))
        hint = form_hint(
            self.tr(
                "Most services other than Amazon S3 need this (MinIO, Backblaze B2, "
                "Cloudflare R2, Garage)."
            ),
            page,
        )
        form = new_form()
        self._add(form, self.tr("&Endpoint URL"), "endpoint", page)
        self._add(form, self.tr("Re&gion"), "region", page)
        self._add(form, self.tr("Buc&ket"), "bucket", page)
        self._add(form, self.tr("Folder (&prefix)"), "prefix", page)
        self._add(form, self.tr("&Access key ID"), "access_key_id", page)
        form.addRow(
            buddy_label(self.tr("Secret access ke&y"), self.s3_secret.edit, page), self.s3_secret
        )
        form.addRow("", field_column(self.path_style, hint))
        page.setLayout(form)
        return page

    def _secret_field(self, page: QWidget, saved_text: str) -> SecretField:
        field = SecretField(saved_text, page)
        field.edit.editingFinished.connect(lambda: self._on_secret_typed(field))
        field.remove_button.clicked.connect(self._model.forget_target_secret)
        return field

    def _fit_pages(self) -> None:
        """The stack as tall as the page shown, not as the tallest (S3's) page."""
        shown = self.pages.currentIndex()
        for index in range(self.pages.count()):
            page = self.pages.widget(index)
            policy = QSizePolicy.Policy.Preferred if index == shown else QSizePolicy.Policy.Ignored
            if page is not None:
                page.setSizePolicy(policy, policy)
        self.pages.updateGeometry()

    # --- what the form says -----------------------------------------------------------

    @property
    def chosen(self) -> TargetKind:
        return TargetKind(self.kind.currentData())

    @property
    def secret(self) -> SecretField | None:
        """The shown kind's password field (a folder has none)."""
        return {TargetKind.WEBDAV: self.webdav_password, TargetKind.S3: self.s3_secret}.get(
            self.chosen
        )

    def values(self) -> dict[str, FieldValue]:
        values: dict[str, FieldValue] = {name: edit.text() for name, edit in self.edits.items()}
        values["path_style"] = self.path_style.isChecked()
        return values

    def load(self) -> None:
        """The saved target into the form (at start, and when it changes); a kind being
        filled in and not saved yet stays as typed."""
        target = self._model.config.target
        first = not self._loaded
        if not first and (target is None or same_target(target, self._loaded_target)):
            return
        kind = kind_of(target)
        values = fields_of(target)
        self._loading = True
        try:
            for name in self.edits if first else FIELDS[kind]:
                if name in self.edits:
                    self.edits[name].setText(str(values[name]))
            self.path_style.setChecked(bool(values["path_style"]))
            self.kind.setCurrentIndex(max(self.kind.findData(kind.value), 0))
        finally:
            self._loading = False
        self._loaded, self._loaded_target = True, target
        self.pages.setCurrentIndex(self.kind.currentIndex())
        self._show_keyring()
        self._store_pending_secret()

    def _show_keyring(self) -> None:
        problem = self._model.keyring_problem
        if problem:
            self.keyring_note.setText(
                self.tr(
                    "The keyring is not available (%1): a password typed here is kept only "
                    "until Parley quits."
                ).replace("%1", problem)
            )
        self.keyring_note.setVisible(bool(problem) and self.secret is not None)

    def _show_secrets(self) -> None:
        # What is saved is the saved target's; a kind being filled in has none yet.
        same_kind = kind_of(self._model.config.target) is self.chosen
        saved = self._model.target_secret_saved and same_kind
        for field in (self.webdav_password, self.s3_secret):
            if saved and field is self.secret and field.edit.text():
                field.edit.clear()  # it is kept now; the widget need not hold it
            field.set_saved(saved and field is self.secret)

    def _show_problem(self, field: str, text: str) -> None:
        if field == PASSWORD:
            secret = self.secret
            if secret is not None:
                secret.problem.say(text)
        elif field in self.problems:
            if not text or field in self._touched:
                self.problems[field].say(text)
        elif not field:
            self.general_problem.say(text)

    def _on_tested(self, ok: bool, text: str) -> None:
        set_tone(self.test_result, text, "ok" if ok else "error")

    def _on_testing(self, testing: bool) -> None:
        self.test_button.setEnabled(not testing)
        if testing:
            set_tone(self.test_result, self.tr("Testing…"))

    # --- the person's changes ---------------------------------------------------------

    def _on_kind_chosen(self) -> None:
        self.pages.setCurrentIndex(self.kind.currentIndex())
        self._show_keyring()
        self._show_secrets()
        set_tone(self.test_result, "")
        if not self._loading:
            self._model.set_target(self.chosen, self._shown_values())

    def _shown_values(self) -> dict[str, FieldValue]:
        values = self.values()
        return {name: values[name] for name in FIELDS[self.chosen]}

    def _on_field_finished(self, name: str) -> None:
        if self._loading:
            return
        self._touched.add(name)
        if self._model.set_target(self.chosen, self._shown_values()):
            self._store_pending_secret()

    def _on_secret_typed(self, field: SecretField) -> None:
        if field.typed and field is self.secret:
            self._model.set_target_secret(field.typed)

    def _store_pending_secret(self) -> None:
        """A password typed before the address was complete is kept once it is."""
        field = self.secret
        if field is not None and field.typed and not self._loading:
            self._model.set_target_secret(field.typed)

    def browse(self) -> QFileDialog:
        """Pick the folder (non-blocking: the dialog's `fileSelected` fills the field)."""
        dialog = self.folder_dialog = QFileDialog(self, self._folder_title)
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        start = self.edits["path"].text().strip()
        if start:
            dialog.setDirectory(start)
        dialog.fileSelected.connect(self._folder_chosen)
        dialog.open()
        return dialog

    def _folder_chosen(self, path: str) -> None:
        if path:
            self.edits["path"].setText(path)
            self._on_field_finished("path")

    def test(self) -> None:
        self._model.test(self.chosen, self._shown_values())

    def clear_secrets(self) -> None:
        """Nothing secret stays in a widget once the window closes."""
        for field in (self.webdav_password, self.s3_secret):
            field.edit.clear()
        self._show_secrets()
