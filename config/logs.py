"""Logging that never writes a share link's token: a token in a log is a key to the match
for anyone who reads the log (a 404 on a join link logs its path, runserver logs every
request line)."""

from __future__ import annotations

import logging
import re

# /matches/<pk>/join/<token>/: the token is the secret.
JOIN_TOKEN = re.compile(r"(/join/)[^/\s\"?]+")


class HideTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = JOIN_TOKEN.sub(r"\1[token hidden]", message)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True
