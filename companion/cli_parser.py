"""The argument parser every ``companion`` command uses: a bad argument is one line on
stderr and exit status 2, never a usage block.

Its own module, below every layer that has a command (the CLI, ``ai-match``), so that each of
them imports it from here and none imports another to get it.
"""

from __future__ import annotations

import argparse


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")
