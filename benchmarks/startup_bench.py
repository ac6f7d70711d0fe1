"""How long Parley takes to open, and how much memory it holds, against bare Qt.

Run from the repository root:  python benchmarks/startup_bench.py [--runs N]

A person double-clicks and waits for the window, so the figure that matters is the
whole process, imports included. Each run is a fresh process, offscreen:

- Parley: `parley --smoke-test` (`desktop.launch.main`) on a data folder with one short chat
  open (start, show the window, 0.2 s, a database round trip, quit);
- the floor: a bare QMainWindow with a QTextBrowser, shown for 0.2 s, then quit;
- `import desktop.app` alone, and the first window: the time from the process start
  to the main window's first paint;
- memory once the start has settled, 3 s after the first paint.

Runs alternate (floor, Parley, floor, Parley, ...) so that whatever else the machine
does weighs on both alike, and the medians are printed with the targets: Parley's wall
time at most 3x the floor's, its peak memory (the kernel's high-water mark of the
resident set) at most 120 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WALL_TARGET_RATIO = 3.0
RSS_TARGET_MB = 120.0

FLOOR = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QTextBrowser
app = QApplication(sys.argv)
window = QMainWindow()
window.setCentralWidget(QTextBrowser())
window.resize(1100, 720)
window.show()
QTimer.singleShot(200, app.quit)
app.exec()
"""

# As `parley` imports it (`desktop.launch`: no source scan, the collector paused).
IMPORT_ONLY = (
    "from desktop.ui.pyside_sources import skip_source_scan; skip_source_scan()\n"
    "from desktop.core import collector; collector.pause_for_start_up()\n"
    "import desktop.app"
)

# A Parley that watches its main window: at the first paint it runs ON_PAINT (the time
# from the interpreter's start, or memory once the start has settled), then exits.
WINDOW_PROBE = """
import os, sys, time
from desktop.ui.pyside_sources import skip_source_scan
skip_source_scan()
from desktop.core import collector
collector.pause_for_start_up()  # as `desktop.launch` does before the app's imports
from PySide6.QtCore import QEvent, QObject, QTimer
from desktop.ui.views.main_window import MainWindow
started = float(os.environ["PARLEY_BENCH_STARTED"])
def idle_memory():
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    print(f"idle {int(status['VmRSS'].split()[0]) / 1024:.1f}", flush=True)
    os._exit(0)
class FirstPaint(QObject):
    painted = False
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and not self.painted:
            self.painted = True
            ON_PAINT
        return False
_shown = MainWindow.showEvent
def shown(window, event):
    _shown(window, event)
    window._first_paint = FirstPaint(window)
    window.installEventFilter(window._first_paint)
MainWindow.showEvent = shown
from desktop.launch import main
sys.argv = ["parley", "--data-dir", sys.argv[1]]
sys.exit(main())
"""
FIRST_PAINT = WINDOW_PROBE.replace(
    "ON_PAINT", 'print(f"first paint {time.time() - started:.4f}", flush=True); os._exit(0)'
)
# 3 s after the first paint the start has settled (the sidebar, the chat, the composer's
# estimate): the memory a person's idle Parley holds with a short chat open.
IDLE = WINDOW_PROBE.replace("ON_PAINT", "QTimer.singleShot(3000, idle_memory)")


def measure(label: str, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run `args` from a tiny parent of its own, so that the peak RSS reported is that
    child's alone (RUSAGE_CHILDREN keeps the largest child ever waited for)."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "started = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - started\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([done.returncode, wall, peak, done.stdout, done.stderr[-2000:]]))\n"
    )
    env = {**env, "PARLEY_BENCH_STARTED": f"{time.time():.6f}"}
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    code, wall, peak, out, err = json.loads(done.stdout)
    if code != 0:
        raise RuntimeError(f"{label} exited {code}: {err}")
    return wall, peak, out


def short_chat(data: Path) -> None:
    """A data folder as a person's looks after some use: one provider (a local server,
    not running now) whose answer about its models Parley keeps from an earlier run, and
    one short chat, the one that was open at the last quit, so Parley opens it at start."""
    from desktop.core.capabilities import ReportedCapabilities
    from desktop.core.models import Message, Role, TextPart
    from desktop.core.paths import DataPaths
    from desktop.storage.database import Database
    from desktop.storage.model_info_cache import FILE_NAME, EndpointReport, ModelInfoCache
    from desktop.storage.repository import ChatRepository

    paths = DataPaths(data)
    paths.ensure()
    database = Database.open(paths.database)
    repo = ChatRepository(database)
    chat = repo.create_conversation("A short chat")
    parent = None
    for index in range(6):
        role = Role.USER if index % 2 == 0 else Role.ASSISTANT
        text = f"Message {index}: **some** Markdown with `code`\n\n```python\nprint({index})\n```"
        parent = repo.add_message(Message(f"m{index}", chat.id, parent, role, [TextPart(text)])).id
    database.close()
    provider = {"id": "local", "name": "Local", "base_url": "http://127.0.0.1:9/v1"}
    settings = {"version": 1, "providers": [{**provider, "models": ["a-model"]}]}
    (data / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    answer = EndpointReport(time.time(), {"a-model": ReportedCapabilities(vision=False)})
    ModelInfoCache(data / FILE_NAME).put("openai_chat", provider["base_url"], answer)
    (data / "window.ini").write_text(f"[main]\nconversation={chat.id}\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        "PYTHONPATH": str(ROOT),
    }
    # An installed Parley starts from compiled bytecode (pip and the bundle write it);
    # without it every start would compile Parley's 250 modules again (0.4 s).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        short_chat(data)
        parley_command = [
            python,
            "-c",
            "import sys; from desktop.launch import main; sys.exit(main())",
        ]
        smoke = [*parley_command, "--smoke-test", "--data-dir", str(data)]
        # One run of each first, not counted: the files are in the page cache after it.
        measure("floor", [python, "-c", FLOOR], env)
        measure("Parley", smoke, env)
        names = ("floor", "parley", "floor_rss", "parley_rss", "import_floor", "import")
        figures: dict[str, list[float]] = {name: [] for name in (*names, "paint", "idle")}
        for _ in range(runs):
            wall, peak, _out = measure("floor", [python, "-c", FLOOR], env)
            figures["floor"].append(wall)
            figures["floor_rss"].append(peak)
            wall, peak, _out = measure("Parley", smoke, env)
            figures["parley"].append(wall)
            figures["parley_rss"].append(peak)
            wall, _peak, _out = measure("interpreter", [python, "-c", "pass"], env)
            figures["import_floor"].append(wall)
            wall, _peak, _out = measure("import", [python, "-c", IMPORT_ONLY], env)
            figures["import"].append(wall)
            _wall, _peak, out = measure("first paint", [python, "-c", FIRST_PAINT, str(data)], env)
            figures["paint"].append(float(out.split("first paint ")[1].split()[0]))
            _wall, _peak, out = measure("idle", [python, "-c", IDLE, str(data)], env)
            figures["idle"].append(float(out.split("idle ")[1].split()[0]))
    floor, parley = median(figures["floor"]), median(figures["parley"])
    print(f"start-up, offscreen, medians of {runs} alternating runs")
    print(f"{'what':<52}{'Parley':>10}{'floor':>10}{'ratio':>8}  target")
    print(
        f"{'parley --smoke-test, wall (s)':<52}{parley:>10.2f}{floor:>10.2f}"
        f"{parley / floor:>7.2f}x  <= {WALL_TARGET_RATIO:g}x"
    )
    rss, floor_rss = median(figures["parley_rss"]), median(figures["floor_rss"])
    print(
        f"{'peak memory of that run (MB)':<52}{rss:>10.1f}{floor_rss:>10.1f}"
        f"{rss / floor_rss:>7.2f}x  <= {RSS_TARGET_MB:g} MB"
    )
    imported, bare = median(figures["import"]), median(figures["import_floor"])
    print(f"{'import desktop.app (s; floor: python -c pass)':<52}{imported:>10.2f}{bare:>10.2f}")
    paint, idle = median(figures["paint"]), median(figures["idle"])
    print(f"{'process start to first paint of the window (s)':<52}{paint:>10.2f}")
    print(f"{'memory 3 s after the first paint, idle (MB)':<52}{idle:>10.1f}{'':>18}  <= 120 MB")


if __name__ == "__main__":
    main()
