"""The bot's version: written once, as ``version`` in pyproject.toml, and read here from
the installed package's metadata (``python -m bot --version``, the log's first line,
``/healthz``, the ``schotten_build`` metric)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "schotten-totten-bot"
try:
    VERSION = version(DISTRIBUTION)
except PackageNotFoundError:  # a source tree that was never installed
    VERSION = "unknown"
