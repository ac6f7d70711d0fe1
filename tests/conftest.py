import os

# Tests never need a display; set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QLocale

# Windows are made as Parley makes them on an English (US) system, whatever this
# machine's locale: numbers and dates in the texts tests read are written the same way
# everywhere (`desktop/ui/language.py` sets the default locale at start-up).
QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))

pytest_plugins = ["tests.support.fixtures", "tests.support.full_disk", "tests.support.figures"]
