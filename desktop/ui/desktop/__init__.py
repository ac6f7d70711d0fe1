"""Parley's life on the desktop outside its windows: the shell that ties the tray, one
running instance, the global shortcut and quitting together, and the platform hotkey
backends."""
