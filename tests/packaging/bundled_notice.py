"""Sends one desktop notification with the code inside a built bundle, not the checkout's.

    python -I -S bundled_notice.py INTERNAL PYZ_FILE PYZ_OFFSET ARCHIVE_READER

A bundle has no way in for a test script, and Parley only notifies after a reply ends
while it is not in front. This interpreter instead sees nothing but the bundle: its
path is the bundle's `_internal` folder (extension modules, base_library.zip), and
every other module comes out of the bundle's PYZ archive, read with PyInstaller's own
reader (ARCHIVE_READER, pyimod01_archive.py). A module the spec failed to collect, such
as desktop-notifier's backend that is picked inside a function, fails here as it would
in the installed app. `-I -S` keeps site-packages and the checkout out of reach.

Prints where the notification modules were loaded from, sends a notice through
desktop.engine.notify.Notifier on the session bus in DBUS_SESSION_BUS_ADDRESS, then
waits for standard input to close before it leaves the bus, so the caller can check
the notification daemon first. Exits 1 if the notice fell back to the tray.
"""

import asyncio
import importlib.abc
import importlib.machinery
import importlib.util
import os
import pathlib
import sys

internal, pyz_file, pyz_offset, reader_file = sys.argv[1:5]

_spec = importlib.util.spec_from_file_location("pyimod01_archive", reader_file)
assert _spec is not None and _spec.loader is not None
archive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(archive)
PYZ = archive.ZlibArchiveReader(pyz_file, int(pyz_offset))
PACKAGE, NAMESPACE = archive.PYZ_ITEM_PKG, archive.PYZ_ITEM_NSPKG


class FolderReader(importlib.abc.TraversableResources):
    def __init__(self, folder: pathlib.Path) -> None:
        self.folder = folder

    def files(self) -> pathlib.Path:
        return self.folder


class BundleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Modules from the PYZ; a package's folder in _internal holds its extension
    modules and data, which the ordinary path finder then finds."""

    def find_spec(self, name, path=None, target=None):
        entry = PYZ.toc.get(name)
        if entry is None:
            return None
        folder = os.path.join(internal, *name.split("."))
        is_package = entry[0] in (PACKAGE, NAMESPACE)
        origin = os.path.join(folder, "__init__.py") if is_package else folder + ".py"
        spec = importlib.machinery.ModuleSpec(name, self, origin=origin, is_package=is_package)
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [folder]
        return spec

    def create_module(self, spec):
        return None

    def get_resource_reader(self, name):
        """Resources sit in the package's folder, as PyInstaller's own reader says."""
        folder = pathlib.Path(internal, *name.split("."))
        if PYZ.toc[name][0] not in (PACKAGE, NAMESPACE):
            folder = folder.parent
        return FolderReader(folder)

    def exec_module(self, module):
        code = PYZ.extract(module.__name__)
        if code is not None:
            exec(code, module.__dict__)


sys.frozen = True
sys._MEIPASS = internal
sys.path[:] = [
    internal,
    os.path.join(internal, "base_library.zip"),
    os.path.join(internal, f"python{sys.version_info[0]}.{sys.version_info[1]}", "lib-dynload"),
]
sys.path_importer_cache.clear()
sys.meta_path.insert(0, BundleFinder())

from desktop.engine.notices import Notice  # noqa: E402
from desktop.engine.notify import Notifier  # noqa: E402


async def main() -> int:
    fell_back: list[Notice] = []
    notifier = Notifier(lambda _conversation: None, fallback=lambda n: fell_back.append(n) or True)
    notifier.show(Notice("bundle", "Parley bundle", "a notification sent by the bundle"))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # the caller has seen it, or gave up
    import dbus_fast.message_bus
    import desktop_notifier.backends.dbus

    for module in (desktop_notifier.backends.dbus, dbus_fast.message_bus):
        print(f"{module.__name__} {module.__file__}")
    await notifier.aclose()
    return 1 if fell_back else 0


sys.exit(asyncio.run(main()))
