import os

# Tests never need a display; set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

pytest_plugins = ["tests.support.fixtures", "tests.support.full_disk", "tests.support.figures"]
