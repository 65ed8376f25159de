"""What an operator can configure about the site (``errdex serve`` options, env vars).

Kept apart from the app so that ``export`` and tests build the same settings
without starting a server.  Every limit the server enforces is a field here,
with its default, its ``errdex serve`` option and its environment variable
(docs/security.md lists them).

Lengths are counted in one unit, characters of decoded text, because that is
what a user pastes and what the OpenAPI ``maxLength`` means.  The byte cap on
a request body is derived from it (``max_body_bytes``): the largest body a
request within the character limits can take, so a valid request is never
refused for its encoding and a larger body is refused before it is read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

MAX_PASTE_CHARS = 256 * 1024
BASE_URL_ENV = "ERRDEX_BASE_URL"
# One character costs at most 12 bytes in a request body: a non-BMP character
# escaped in JSON as a surrogate pair (\ud83d\ude00), or 4 UTF-8 bytes each
# percent-encoded (%F0%9F%98%80) in a form.  The slack holds the other fields.
BYTES_PER_CHAR = 12
BODY_SLACK_BYTES = 16 * 1024

# field -> environment variable (the ``errdex serve`` option is the field with dashes)
ENV: dict[str, str] = {
    "base_url": BASE_URL_ENV,
    "max_paste": "ERRDEX_MAX_PASTE_CHARS",
    "cache_mb": "ERRDEX_CACHE_MB",
    "header_timeout": "ERRDEX_HEADER_TIMEOUT",
    "body_timeout": "ERRDEX_BODY_TIMEOUT",
    "keep_alive": "ERRDEX_KEEP_ALIVE",
    "max_connections": "ERRDEX_MAX_CONNECTIONS",
}


class SettingsError(ValueError):
    """A setting given a value it cannot take; the message names the variable."""


@dataclass(frozen=True, slots=True)
class WebSettings:
    """``base_url`` is the public origin for canonical links and the sitemap
    ("" means: the origin the request came to).  ``report_url`` is a pattern
    for the "Report an issue" link (see ``documents.report_url``); None uses
    ``$ERRDEX_REPORT_URL`` or the repo's GitHub new-issue page.
    ``static_site`` renders pages for ``errdex export``: the paste box then
    matches in the browser instead of posting to the server.

    The limits: ``max_paste`` characters in a paste; ``cache_mb`` megabytes
    of documents and rendered pages kept in memory; ``header_timeout``
    seconds for a client to send its request line and headers, and
    ``body_timeout`` seconds to send its body, after which it is dropped;
    ``keep_alive`` seconds an idle connection is kept; ``max_connections``
    open at once (beyond it the server answers 503)."""

    db: str | None = None
    base_url: str = ""
    report_url: str | None = None
    max_paste: int = MAX_PASTE_CHARS
    cache_seconds: int = 60
    static_site: bool = False
    cache_mb: float = 64.0
    header_timeout: float = 5.0
    body_timeout: float = 10.0
    keep_alive: float = 5.0
    max_connections: int = 4096

    @property
    def max_body_bytes(self) -> int:
        """The byte cap on a request body: what ``max_paste`` characters can take, plus slack."""
        return self.max_paste * BYTES_PER_CHAR + BODY_SLACK_BYTES

    @property
    def cache_bytes(self) -> int:
        return int(self.cache_mb * 1024 * 1024)

    @classmethod
    def from_env(cls, **overrides: object) -> WebSettings:
        """Defaults, then the environment variables of ``ENV``, then ``overrides`` that are not None."""
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, object] = {"base_url": os.environ.get(BASE_URL_ENV, "")}
        for name, var in ENV.items():
            raw = os.environ.get(var)
            if raw is None or name == "base_url":
                continue
            kind = float if types[name] in ("float", float) else int
            try:
                values[name] = kind(raw)
            except ValueError:
                raise SettingsError(f"${var}={raw!r}: expected a number") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = cls(**values)  # type: ignore[arg-type]
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse limits that would disable themselves (zero or negative)."""
        for name in ("max_paste", "cache_mb", "header_timeout", "body_timeout", "keep_alive", "max_connections"):
            if getattr(self, name) <= 0:
                raise SettingsError(f"{name.replace('_', '-')} must be positive (${ENV[name]}), "
                                    f"not {getattr(self, name)}")
