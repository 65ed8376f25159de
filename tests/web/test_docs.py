"""Every server limit is documented in docs/security.md with its option and environment variable."""

from __future__ import annotations

from pathlib import Path

from webkit import ROOT, run_errdex

from errdex.web.settings import ENV, WebSettings


def test_every_limit_has_its_option_variable_and_default_in_the_docs() -> None:
    doc = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    server = doc.split("## The server", 1)[1].split("\n## ", 1)[0]
    for field, var in ENV.items():
        if field == "base_url":
            continue
        option = "--" + field.replace("_", "-")
        row = next((line for line in server.splitlines() if f"`{var}`" in line), "")
        assert f"`{option}" in row, (field, row)
        default = getattr(WebSettings(), field)
        shown = f"{default:,}" if isinstance(default, int) else f"{default:g}"
        assert f"| {shown} " in row, (field, shown, row)


def test_every_limit_is_an_option_of_serve(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "ERRDEX_HOME": str(tmp_path), "COLUMNS": "300", "PYTHONPATH": str(ROOT / "src")}
    help_text = run_errdex("serve", "--help", env=env).stdout
    for field in ENV:
        assert "--" + field.replace("_", "-") in help_text, field
