"""`python -m trainer` runs the same command line as `cutcard`."""

import sys

from trainer.cli import main

if __name__ == "__main__":
    sys.exit(main())
