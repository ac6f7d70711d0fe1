"""Composition root: builds storage, engine, view-models and windows, and runs the loop.

No logic of its own beyond wiring, start-up and an orderly shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from desktop import __version__
from desktop.cli import parse_args
from desktop.core import collector
from desktop.core.dispatch import EventBus
from desktop.core.events import EngineEvent, GenerationStarted
from desktop.core.models import Message, Role, TextPart, new_id
from desktop.core.paths import DataPaths, resolve_data_dir
from desktop.engine.after_answer import AfterAnswer
from desktop.engine.attachments.inputs import AttachmentReader
from desktop.engine.attachments.service import AttachmentService
from desktop.engine.backup.service import BackupService, remove_leftover_scratch
from desktop.engine.knowledge.embedding import ProviderEmbedder
from desktop.engine.knowledge.service import KnowledgeService
from desktop.engine.library import Library
from desktop.engine.local_servers import DEFAULT_LOCAL_SERVERS, LocalServer
from desktop.engine.memory.embedding import embedder_from_choice
from desktop.engine.memory.service import MemoryService
from desktop.engine.notices import Notice
from desktop.engine.ocr.local_engine import LocalOcrEngine
from desktop.engine.ocr.service import OcrService
from desktop.engine.settings_service import MODEL_INFO_MAX_AGE_S, SettingsService
from desktop.engine.sync.service import SyncService
from desktop.engine.tools.mcp.manager import McpManager
from desktop.engine.tools.service import ToolService, conversation_search
from desktop.engine.turn.chat_service import ChatService
from desktop.engine.utility import UtilityModel
from desktop.engine.web.access import WebAccess
from desktop.render import render_markdown
from desktop.render.highlight import COMMON_LANGUAGES, warm_up
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.disk_space import disk_full_error, is_disk_full
from desktop.storage.log_files import configure_logging
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretRedactingFilter, SecretStore
from desktop.storage.settings_file import SettingsLoad, load_settings
from desktop.ui.desktop.global_shortcut import GlobalShortcut
from desktop.ui.desktop.global_shortcut import support as shortcut_support
from desktop.ui.desktop.quit_signals import QuitSignals
from desktop.ui.desktop.shell import DesktopShell
from desktop.ui.desktop.single_instance import InstanceServer, NotAnswering, claim
from desktop.ui.font_rendering import even_weight_on_dark
from desktop.ui.image_loader import ImageLoader
from desktop.ui.language import install_translations
from desktop.ui.resources import resource_path
from desktop.ui.viewmodels.backup import BackupViewModel
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.import_export import ImportExportViewModel
from desktop.ui.viewmodels.knowledge_progress import KnowledgeProgress
from desktop.ui.viewmodels.search import SearchModel
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.viewmodels.sync import SyncViewModel
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.transfer import TransferViewModel
from desktop.ui.views.backup_opener import BackupOpener
from desktop.ui.views.floating_window import FloatingWindow
from desktop.ui.views.labels import message_box
from desktop.ui.views.main_window import MainWindow
from desktop.ui.views.theme import ThemeController
from desktop.ui.views.upgrade_notice import UpgradeNotice

log = logging.getLogger("parley")

ATTACHMENT_GC_DELAY_S = 20.0


class ErrorReporter(QObject):
    """Carries stray exceptions (from any thread) to the GUI thread as a message."""

    errorRaised = Signal(str)

    def excepthook(
        self, kind: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        log.error("unexpected error", exc_info=(kind, error, tb))
        detail = str(error).splitlines()[0][:300] if str(error) else ""
        text = QCoreApplication.translate(
            "Parley", "Something unexpected went wrong: %1. Details were written to the log."
        ).replace("%1", f"{kind.__name__}: {detail}" if detail else kind.__name__)
        self.errorRaised.emit(text)

    def install(self) -> None:
        sys.excepthook = self.excepthook
        threading.excepthook = lambda args: self.excepthook(
            args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback
        )


def _show_upgrade_notice(shown: list[UpgradeNotice]) -> None:
    window = UpgradeNotice()
    shown.append(window)
    window.show_now()


class Parley:
    """Everything one running Parley holds, built in dependency order."""

    def __init__(
        self,
        qapp: QApplication,
        paths: DataPaths,
        secrets: SecretStore | None = None,
        *,
        local_servers: Sequence[LocalServer] = DEFAULT_LOCAL_SERVERS,
        model_info_max_age: float | None = MODEL_INFO_MAX_AGE_S,
        settings: SettingsLoad | None = None,
    ) -> None:
        paths.ensure()
        self.paths = paths
        # A restore that crashed may have left a decrypted database in a scratch folder.
        remove_leftover_scratch(paths.root)
        notice: list[UpgradeNotice] = []
        try:
            self.database = Database.open(
                paths.database, on_upgrade=lambda: _show_upgrade_notice(notice)
            )
        finally:  # a failed upgrade must not leave it on top of the error
            for window in notice:
                window.close()
                window.deleteLater()
        self.repository = ChatRepository(self.database)
        self.secrets = secrets or SecretStore()
        # Owns the providers' httpx client (proxy, CA bundle), rebuilt on network changes.
        # Endpoints are asked about their models at most every `model_info_max_age` s.
        self.settings = SettingsService(
            paths.settings, self.secrets, model_info_max_age=model_info_max_age, loaded=settings
        )
        # Attached files (and images tools return): content-addressed copies beside the
        # database, one store for all, so its garbage collection sees every writer.
        self.store = AttachmentStore(paths.attachments, self.database.engine)
        self.attachments = AttachmentService(self.store)
        # MCP servers start lazily, when a generation first lists its tools.
        self.mcp = McpManager(self.settings, paths.logs, attachments=self.store)
        self.tools = ToolService(
            paths,
            self.settings,
            search=conversation_search(self.database),
            sources=[self.mcp],
            web=WebAccess(
                lambda: self.settings.settings.web_search,
                lambda: self.settings.http_client,
                self.secrets.get,
            ),
        )
        self.ocr = OcrService(
            paths.ocr_cache,
            lambda: self.settings.settings.ocr_model,
            self.settings.provider,
            LocalOcrEngine(),
            request_options=self.settings.request_options,
        )
        self.chat = ChatService(
            self.repository,
            self.settings,
            tools=self.tools,
            files=AttachmentReader(self.attachments, self.ocr),
        )
        self.chat.recover()
        # The person's knowledge libraries: indexed in the background into their own
        # rebuildable database, searched for answers of assistants that use them.
        self.knowledge = KnowledgeService(
            paths.root,
            lambda: self.settings.settings,
            lambda choice: ProviderEmbedder(self.settings, choice),
            self.chat.events,
        )
        self.chat.knowledge = self.knowledge
        # What the person asked assistants to remember (Settings → Memory, and the
        # memory tools), in the chat database: it is their data, backed up with it.
        self.memory = MemoryService(
            self.database,
            embedder_from_choice(
                lambda: self.settings.settings.memory.embedding,
                lambda choice: ProviderEmbedder(self.settings, choice),
            ),
        )
        self.chat.memory = self.memory
        # Titles and follow-up suggestions, asked after an answer is complete.
        self.after_answer = AfterAnswer(self.repository, UtilityModel(self.settings))
        self.after_answer.start(self.chat)

        self.tasks = TaskGroup()
        appearance = self.settings.settings.appearance
        self.theme = ThemeController(qapp, appearance.theme.value)
        self.theme.set_font_size(appearance.font_size)
        self.images = ImageLoader(self.tasks)
        self.images.use_network(self.settings.settings.network)
        # How each knowledge library's indexing stands, for Settings → Knowledge and the
        # chat header alike; given the engine's controls and event bus once it indexes.
        self.knowledge_progress = KnowledgeProgress(self.tasks, self.knowledge, self.chat.events)
        self.chat_vm = ChatViewModel(
            self.chat,
            self.settings,
            self.tasks,
            self.images,
            attachments=self.attachments,
            knowledge=self.knowledge_progress,
            memory=self.memory,
        )
        self.chat_vm.transcript.set_dark(self.theme.dark)
        self.chat_vm.outputs.data_root = paths.root
        self.library = Library(
            self.database,
            self.repository,
            self.chat.events,
            self.chat.unsaved_over,
            attachments=self.store,
        )
        self.conversations_vm = ConversationListModel(self.chat, self.library, self.tasks)
        self.search_vm = SearchModel(self.library)
        self.transfer_vm = TransferViewModel(self.library, self.tasks)
        self.import_vm = ImportExportViewModel(self.library, self.tasks)
        # File → Back Up…: backups of this data folder to a folder, WebDAV or S3, and
        # the daily one, checked by the view-model's timer.
        self.backup = BackupService(
            paths, self.database, self.store, self.settings, self.chat.events
        )
        self.backup_vm = BackupViewModel(self.backup, self.settings, self.tasks)
        # Settings → Sync: this data folder kept the same as on the person's other
        # computers, end-to-end encrypted; it starts syncing once the loop runs.
        self.sync = SyncService(paths, self.database, self.store, self.settings, self.chat.events)
        self.sync_vm = SyncViewModel(self.sync, self.settings, self.tasks)
        self.settings_vm = SettingsViewModel(
            self.settings,
            self.tasks,
            local_servers=local_servers,
            tools=self.tools,
            mcp=self.mcp,
            knowledge=self.knowledge_progress,
            memory=self.memory,
            sync=self.sync_vm,
        )
        self.window = MainWindow(
            self.chat_vm,
            self.conversations_vm,
            self.search_vm,
            self.transfer_vm,
            self.settings_vm,
            paths.logs,
            importer=self.import_vm,
        )
        self.errors = ErrorReporter()
        self.errors.errorRaised.connect(self.window.show_error)
        self.settings_vm.themeChanged.connect(self.theme.apply)
        self.settings.changed.subscribe(
            lambda settings: self.theme.set_font_size(settings.appearance.font_size)
        )
        self.settings.changed.subscribe(lambda settings: self.images.use_network(settings.network))
        self.theme.darkChanged.connect(self.chat_vm.transcript.set_dark)
        # The floating chat shares the chat view-model: one open conversation, one tray,
        # one generation; its place is kept in the main window's window.ini.
        self.floating = FloatingWindow(
            self.chat_vm, self.conversations_vm, paths.root / "window.ini"
        )
        self.floating.openInMainRequested.connect(self.show_main)
        # Saved prompts, inserted with "/" in either composer.
        for composer in (self.window.chat_view.composer, self.floating.composer):
            composer.set_prompt_library(self.settings_vm.prompts)
            composer.prompts.settingsRequested.connect(self.window.show_prompt_settings)
        self.window.chat_view.approval_dialogs.host = self._approval_host
        self.window.chat_view.source_dialogs.host = self._approval_host
        self.window.floatingRequested.connect(self.toggle_floating)
        self.floating_shortcut = GlobalShortcut(self.settings.settings.desktop.floating_shortcut)
        self.floating_shortcut.activated.connect(self.toggle_floating)
        self.settings.changed.subscribe(
            lambda settings: self.floating_shortcut.set_sequence(settings.desktop.floating_shortcut)
        )
        # The tray icon, notifications that open their chat, and close to tray.
        self.shell = DesktopShell(
            self.window,
            self.chat_vm,
            self.chat,
            self.settings,
            state_file=paths.root / "window.ini",
            icon=resource_path("icons", "parley.svg"),
        )
        self.shell.tray.set_floating_toggle(self.toggle_floating)
        self.settings_vm.desktop.attach_global_shortcut(
            self.floating_shortcut.set_sequence, shortcut_support
        )
        self.window.backups = BackupOpener(self.backup_vm, self.window, self.window.show_error)
        self.backup_vm.scheduleFailed.connect(
            lambda text: self.shell.notifier.show(Notice("", "Parley", text))
        )
        self.backup_vm.start_schedule()

        self._closed = False

    def show(self) -> None:
        self.window.show()
        self.window.chat_view.focus_composer()
        self.window.check_fonts()

    def toggle_floating(self) -> None:
        """Show or hide the floating chat (tray, main window menu, global shortcut)."""
        self.floating.toggle()

    def show_main(self) -> None:
        """Bring the main window forward, also when minimised or hidden to the tray."""
        if self.window.isMinimized():
            self.window.showNormal()
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()
        self.window.chat_view.focus_composer()

    def _approval_host(self) -> QWidget | None:
        """The floating chat when the person works there: an approval dialog (or the
        source panel) owned by the main window would open behind it."""
        if self.floating.isVisible() and not self.window.isActiveWindow():
            return self.floating
        return None

    def attach(self, files: Sequence[str | Path]) -> None:
        """Files named on the command line: a new chat with them on the composer's tray."""
        if files:
            self.chat_vm.new_chat()
            self.chat_vm.tray.add_paths(files)

    async def aclose(self) -> None:
        """Stop generations (their text is kept as `cancelled`), then release resources."""
        if self._closed:
            return
        self._closed = True
        self.chat_vm.meter.close()  # the answers stopping below would start estimates
        await self.shell.aclose()
        self.floating_shortcut.close()
        self.floating.hide()  # saves its place
        self.floating.deleteLater()
        await self.after_answer.close()
        await self.backup_vm.aclose()  # before the database closes under a backup
        await self.sync_vm.aclose()  # ... or under a sync
        await self.chat.shutdown()
        await self.knowledge.close()
        await self.mcp.stop()
        await self.tasks.cancel_all()
        await self.images.aclose()
        self.chat_vm.transcript.maths.close()
        self.chat_vm.transcript.ahead.close()
        await self.settings.aclose()
        self.database.close()

    def round_trip(self) -> None:
        """Write, read back and remove a conversation: proves the database really works."""
        conversation = self.repository.create_conversation("smoke test")
        try:
            message = Message(new_id(), conversation.id, None, Role.USER, [TextPart("ping ✓")])
            self.repository.add_message(message)
            stored = self.repository.active_path(conversation.id)
            if [m.text for m in stored] != ["ping ✓"]:
                raise RuntimeError("the database returned something else than was written")
        finally:
            self.repository.delete_conversation(conversation.id)


class ParleyEventLoop(qasync.QEventLoop):
    """qasync's loop, with its last pass of a run kept inside the loop.

    qasync's `run_until_complete` ends by processing Qt's pending events once more after
    the loop stopped running. A task that is ready then (a request in flight when the
    window closed, a model fetch a page started) is stepped with no running loop and
    fails with "no running event loop", leaving its socket open. Here that pass runs
    with this loop as the running loop, so whatever it steps works as it would inside.
    """

    def run_until_complete(self, future: Any) -> Any:
        if self.is_running():
            raise RuntimeError("Event loop already running")
        future = asyncio.ensure_future(future, loop=self)

        def stop(_future: Any) -> None:
            self.stop()

        future.add_done_callback(stop)
        try:
            self.run_forever()
        finally:
            future.remove_done_callback(stop)
        asyncio.events._set_running_loop(self)
        try:
            QCoreApplication.processEvents()  # Qt's posted events, as qasync's last pass
        finally:
            asyncio.events._set_running_loop(None)
        if not future.done():
            raise RuntimeError("Event loop stopped before Future completed.")
        return future.result()


def create_event_loop(qapp: QApplication) -> ParleyEventLoop:
    """The one asyncio loop, driven by Qt's event loop.

    asyncio's own loops close abandoned async generators (httpx's byte streams, say) on
    the loop; qasync does not install those hooks, so without them a generator left
    suspended is finalised outside the loop and fails with "ignored GeneratorExit".
    """
    loop = ParleyEventLoop(qapp)

    def finalize(agen: Any) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(lambda: loop.create_task(agen.aclose()))

    sys.set_asyncgen_hooks(firstiter=None, finalizer=finalize)
    return loop


def main(argv: list[str] | None = None) -> int:
    """Start Parley (`launch.main`, the `parley` command, has checked the system first);
    the exit status is 0 after an ordinary quit (SIGTERM included), 130 after Ctrl+C
    (see `quit_signals.py`)."""
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # Ctrl+C before the event loop took the signal over
        log.info("interrupted while starting")
        print("Parley: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    args = parse_args(argv)
    paths = DataPaths(resolve_data_dir(args.data_dir))
    try:
        paths.ensure()
    except OSError as error:
        if is_disk_full(error, paths.root):
            reason = disk_full_error(
                paths.root,
                "Parley cannot create its data folder",
                "Free some space there and start Parley again.",
            )
            print(reason, file=sys.stderr)
        else:
            print(f"Parley cannot use the data folder {paths.root}: {error}", file=sys.stderr)
        return 2
    secrets = SecretStore()
    configure_logging(paths.log_file, SecretRedactingFilter(secrets))
    log.info("Parley %s starting (data folder %s)", __version__, paths.root)

    QApplication.setApplicationName("Parley")
    QApplication.setApplicationVersion(__version__)
    QApplication.setOrganizationName("Parley")
    QApplication.setDesktopFileName("parley")
    qapp = QApplication.instance() or QApplication([sys.argv[0], *argv])
    assert isinstance(qapp, QApplication)
    qapp.setQuitOnLastWindowClosed(False)  # we quit after an orderly shutdown instead
    even_weight_on_dark()  # before any text is drawn: CJK as heavy in dark as in light
    qapp.setWindowIcon(QIcon(str(resource_path("icons", "parley.svg"))))
    ErrorReporter().install()  # until the window exists, errors are logged only
    # Qt took its own options (`-platform offscreen`) out of its arguments: argparse
    # cannot tell their values from file names, so only what Qt left are files.
    left_by_qt = set(qapp.arguments()[1:])
    files = [Path(f).expanduser().absolute() for f in args.files if f in left_by_qt]
    # Before the database opens: a Parley already running on this folder takes the files.
    # The smoke test only asks whether one answers; it must not pass by handing over.
    try:
        instance = claim(paths.root, files, activate=not args.smoke_test)
    except NotAnswering as error:
        print(f"Parley cannot start: {error}", file=sys.stderr)
        return 1
    if instance is None:
        log.info("handed over to the running Parley")
        if args.smoke_test:
            print("smoke test failed: a Parley already runs on this data folder", file=sys.stderr)
            return 1
        return 0
    # Read before the first window: the language comes from it (and Parley takes it over).
    settings = load_settings(paths.settings)
    install_translations(qapp, settings.settings.appearance.language)

    loop = create_event_loop(qapp)
    asyncio.set_event_loop(loop)
    with loop:
        try:
            return loop.run_until_complete(
                _run(qapp, paths, secrets, args.smoke_test, files, instance, settings)
            )
        finally:
            loop.run_until_complete(_end_what_is_left())
            instance.close()


async def _run(
    qapp: QApplication,
    paths: DataPaths,
    secrets: SecretStore,
    smoke: bool,
    files: Sequence[Path] = (),
    instance: InstanceServer | None = None,
    settings: SettingsLoad | None = None,
) -> int:
    signals = QuitSignals(asyncio.get_running_loop())
    signals.install()
    try:
        exit_code = await _serve(qapp, paths, secrets, smoke, files, instance, signals, settings)
    finally:
        signals.uninstall()
    return exit_code if exit_code or signals.exit_status is None else signals.exit_status


async def _serve(
    qapp: QApplication,
    paths: DataPaths,
    secrets: SecretStore,
    smoke: bool,
    files: Sequence[Path],
    instance: InstanceServer | None,
    signals: QuitSignals,
    settings: SettingsLoad | None = None,
) -> int:
    try:
        parley = Parley(qapp, paths, secrets, settings=settings)
    except Exception as error:
        log.exception("start-up failed")
        print(f"Parley could not start: {error}", file=sys.stderr)
        if not smoke:  # started from a menu or a double-click: nobody reads stderr
            _show_startup_failure(str(error))
        return 1
    parley.errors.install()
    collector.started()  # everything built so far lives as long as the app
    closed = asyncio.Event()
    parley.window.closed.connect(closed.set)
    parley.show()
    parley.attach(files)
    parley.knowledge.rescan_all()  # files changed while closed; an interrupted pass resumes
    parley.sync_vm.start()  # one keyring read; the first sync waits a few seconds
    if instance is not None:  # later launches hand their files over from now on
        instance.serve(parley.window, parley.attach)
    # SIGINT and SIGTERM quit as File → Quit does (a signal during start-up, now).
    signals.quit_with(parley.window.quit)
    log.info("Parley ready")
    warming = asyncio.ensure_future(_warm_up_rendering(parley.chat.events))
    tidying = asyncio.ensure_future(_collect_attachments(parley.store))
    exit_code = 0
    if smoke:
        exit_code = await _smoke_test(parley)
        parley.window.close()
    await closed.wait()
    if instance is not None:  # a launch from now on starts afresh instead
        instance.close()
    warming.cancel()
    tidying.cancel()
    await parley.aclose()
    await asyncio.gather(warming, tidying, return_exceptions=True)
    log.info("Parley stopped")
    return exit_code


async def _end_what_is_left() -> None:
    """Every part of Parley ends its own work when it closes; anything still running
    once the app has returned would be stepped after the loop is gone, so it is named
    in the log and ended."""
    here = asyncio.current_task()
    left = [task for task in asyncio.all_tasks() if task is not here and not task.done()]
    # Streams the collector found abandoned close in tasks of their own: let them.
    closing = [t for t in left if type(t.get_coro()).__name__ == "async_generator_athrow"]
    if closing:
        await asyncio.wait(closing, timeout=5)
    left = [task for task in left if not task.done()]
    for task in left:
        log.warning("still running at quit: %s", task.get_name())
        task.cancel()
    await asyncio.gather(*left, return_exceptions=True)


def _show_startup_failure(reason: str) -> None:
    """Why Parley could not start (a full disk, a damaged or too new database), in a
    box that waits to be read. Plain text: the reason quotes paths and SQLite's words."""
    text = QCoreApplication.translate("Parley", "Parley could not start.\n\n%1")
    message_box(QMessageBox.Icon.Critical, "Parley", text.replace("%1", reason)).exec()


async def _warm_up_rendering(events: EventBus[EngineEvent]) -> None:
    """Import the Markdown parser and common lexers once the first answer of this run
    starts, one at a time between events, before its first code block needs them.
    Not at start: a person who only reads never needs them all (4 MB, 65 ms)."""
    started = asyncio.Event()
    stop = events.subscribe(lambda e: started.set() if isinstance(e, GenerationStarted) else None)
    try:
        await started.wait()
    finally:
        stop()
    render_markdown("# Parley\n\n*ready*")
    for language in COMMON_LANGUAGES:
        await asyncio.sleep(0.05)
        warm_up(language)
    await asyncio.sleep(0.05)
    collector.warmed_up()


async def _collect_attachments(store: AttachmentStore) -> None:
    """Remove attached files nothing refers to any more (deleted chats), once a run,
    in a worker thread, after start-up has settled."""
    await asyncio.sleep(ATTACHMENT_GC_DELAY_S)
    try:
        report = await asyncio.to_thread(store.collect_garbage)
    except Exception:
        log.exception("collecting unused attachments failed")
        return
    log.info("attachments collected: %s", report)


async def _smoke_test(parley: Parley) -> int:
    await asyncio.sleep(0.2)  # let the window map and paint
    try:
        if not parley.window.isVisible():
            raise RuntimeError("the main window is not visible")
        parley.round_trip()
    except Exception as error:
        log.exception("smoke test failed")
        print(f"smoke test failed: {error}", file=sys.stderr)
        return 1
    print(f"smoke test passed: Parley {__version__}, data folder {parley.paths.root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
