"""The pages and parts of the settings window, one module each."""
