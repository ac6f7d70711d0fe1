"""Start Parley from a source checkout: `python main.py` is the same as `parley`."""

import sys

from desktop.launch import main

if __name__ == "__main__":
    sys.exit(main())
