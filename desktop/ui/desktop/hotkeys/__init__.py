"""Platform backends for the global shortcut: what they promise (`base`), X11 and Windows.
Each backend is imported only on its platform."""
