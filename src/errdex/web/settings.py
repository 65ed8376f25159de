"""What an operator can configure about the site (``errdex serve`` options, env vars).

Kept apart from the app so that ``export`` and tests build the same settings
without starting a server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

MAX_PASTE_BYTES = 256 * 1024
BASE_URL_ENV = "ERRDEX_BASE_URL"


@dataclass(frozen=True, slots=True)
class WebSettings:
    """``base_url`` is the public origin for canonical links and the sitemap
    ("" means: the origin the request came to).  ``report_url`` is a pattern
    for the "Report an issue" link (see ``documents.report_url``); None uses
    ``$ERRDEX_REPORT_URL`` or the repo's GitHub new-issue page.
    ``static_site`` renders pages for ``errdex export``: the paste box then
    matches in the browser instead of posting to the server."""

    db: str | None = None
    base_url: str = ""
    report_url: str | None = None
    max_paste: int = MAX_PASTE_BYTES
    cache_seconds: int = 60
    static_site: bool = False

    @classmethod
    def from_env(cls, **overrides: object) -> WebSettings:
        values: dict[str, object] = {"base_url": os.environ.get(BASE_URL_ENV, "")}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
