"""``LOG_FORMAT=json``: one JSON object a line, for a log collector.

Each line holds ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and
``message``, and ``exception`` (the traceback) when there is one. What a line says is
the same as in the text format: no token, hand or drawn card is ever logged.
"""

from __future__ import annotations

import datetime
import json
import logging


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)
