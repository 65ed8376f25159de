"""A raise whose message is the text of an exception it caught (``raise B(str(e), ...)``, also
through a local assigned the caught exception, ``e``, ``f"{e}"``, ``e.args[0]``, ``*e.args``)
carries the templates of the sites raising the caught class (or a subclass) that its ``try`` body
reaches: itsdangerous 2.2.0's ``TimestampSigner.unsign`` re-raises ``BadSignature``'s
``Signature b'...' does not match`` as ``BadTimeSignature(str(sig_error), ...)``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.forwarded import splice
from errdex.model import ErrorSite, Segment, Template

EXC = '''
    class BadData(Exception):
        def __init__(self, message):
            super().__init__(message)
            self.message = message

        def __str__(self):
            return self.message


    class BadSignature(BadData):
        def __init__(self, message, payload=None):
            super().__init__(message)
            self.payload = payload


    class BadTimeSignature(BadSignature):
        def __init__(self, message, payload=None, date_signed=None):
            super().__init__(message, payload)
            self.date_signed = date_signed


    class SignatureExpired(BadTimeSignature):
        pass
'''

SIGNER = '''
    from .exc import BadSignature


    def parse_int(value):
        if not value.isdigit():
            raise ValueError(f"not a number: {value!r}")
        return int(value)


    def _check_sep(value, sep):
        if sep not in value:
            raise BadSignature(f"No {sep!r} found in value")


    class Signer:
        sep = "."

        def unsign(self, signed_value):
            _check_sep(signed_value, self.sep)
            value, sig = signed_value.rsplit(self.sep, 1)
            if sig != "ok":
                raise BadSignature(f"Signature {sig!r} does not match", payload=value)
            return value

        def load(self, value):
            if not value:
                raise BadSignature("Empty value")
            return value
'''

TIMED = '''
    from .exc import BadSignature, BadTimeSignature, SignatureExpired
    from .signer import Signer, parse_int


    class TimestampSigner(Signer):
        def unsign(self, signed_value, max_age=None):
            try:
                result = super().unsign(signed_value)
                sig_error = None
            except BadSignature as e:
                sig_error = e
                result = e.payload or ""
            if sig_error is not None:
                raise BadTimeSignature(str(sig_error), payload=result)
            if max_age is not None and max_age < 0:
                raise SignatureExpired(f"Signature age {max_age} < 0 seconds")
            return result

        def strict(self, value):
            try:
                return self.load(value)
            except (BadSignature, KeyError) as exc:
                raise BadTimeSignature(*exc.args) from exc

        def annotated(self, value):
            try:
                return self.load(value)
            except BadSignature as exc:
                raise BadTimeSignature(f"while loading: {exc}") from exc

        def number(self, value):
            try:
                return parse_int(value)
            except Exception as exc:
                raise BadTimeSignature(str(exc)) from exc

        def local(self, value):
            try:
                if value == "x":
                    raise ValueError("x is not allowed here")
                return int(value)
            except ValueError as err:
                raise BadTimeSignature(err.args[0]) from err
'''


def _sites(tmp_path: Path) -> dict[str, ErrorSite]:
    pkg = tmp_path / "signing"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("exc.py", EXC), ("signer.py", SIGNER), ("timed.py", TIMED)):
        (pkg / name).write_text(textwrap.dedent(text))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path == "signing/timed.py"), key=lambda s: -s.line)
    return {s.qualname: s for s in sites if s.exception == "BadTimeSignature"}


def _texts(site: ErrorSite) -> list[str]:
    return [t.render() for t in site.templates]


def test_the_caught_exceptions_texts_reached_from_the_try_body(tmp_path: Path) -> None:
    unsign = _sites(tmp_path)["TimestampSigner.unsign"]
    assert unsign.exception_resolved == "signing.exc.BadTimeSignature"
    texts = _texts(unsign)
    assert texts[0] == "{sig_error}"  # its own template first: the id does not move
    assert set(texts[1:]) == {"No {sep} found in value", "Signature {sig} does not match"}
    # `Signer.load` raises BadSignature too, but `unsign`'s try body does not call it; the site after
    # the `try` (SignatureExpired) is no text the caught exception can hold
    assert "Empty value" not in texts and not any("age" in t for t in texts)


def test_star_args_and_a_tuple_of_caught_classes(tmp_path: Path) -> None:
    assert _texts(_sites(tmp_path)["TimestampSigner.strict"])[1:] == ["Empty value"]


def test_a_caught_builtin_raised_in_the_try_body_itself(tmp_path: Path) -> None:
    assert _texts(_sites(tmp_path)["TimestampSigner.local"])[1:] == ["x is not allowed here"]


def test_text_around_the_caught_message_is_a_wrapper_not_a_forward(tmp_path: Path) -> None:
    # `f"while loading: {exc}"` is the caught text edited: matching's wrap rule reads it (docs/matching.md)
    assert _texts(_sites(tmp_path)["TimestampSigner.annotated"]) == ["while loading: {exc}"]


def _t(*parts: str) -> Template:
    return Template.of(Segment(text=p) if not p.startswith("{") else Segment(expr=p[1:-1]) for p in parts)


def test_splice_puts_the_caught_text_where_the_re_raise_holds_it() -> None:
    caught = [_t("Invalid specifier: ", "{spec}")]
    edited = splice([_t("{e}", " in ", "{key}"), _t("{e}")], "e", caught)
    assert [t.render() for t in edited] == ["Invalid specifier: {spec} in {key}", "Invalid specifier: {spec}"]
    assert [t.render() for t in splice([_t("{str(err)}")], "err", caught)] == ["Invalid specifier: {spec}"]
    # a class that keeps the text under another name: a first template of one value is the text as is
    assert [t.render() for t in splice([_t("{message}")], "e", caught)] == ["Invalid specifier: {spec}"]
    # the repr of the caught exception is no text of it
    assert splice([Template.of([Segment(expr="e", conversion="r"), Segment(text=" failed")])], "e", caught) == []


def test_a_caught_base_class_catches_a_builtin_subclass(tmp_path: Path) -> None:
    """`except Exception` holds the `ValueError` that `parse_int` raises (Python's own hierarchy)."""
    assert _texts(_sites(tmp_path)["TimestampSigner.number"])[1:] == ["not a number: {value}"]


def test_the_caught_texts_come_in_one_order_whatever_the_string_hashing(tmp_path: Path) -> None:
    """The functions a ``try`` body reaches are a set: their templates follow in name order, so that
    two runs (two processes, two hash seeds) store the same site (jax's catalog differed)."""
    import os
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; sys.path[:0] = sys.argv[2:];"
            "from test_extract_forwarded import _sites, _texts;"
            "print(_texts(_sites(Path(sys.argv[1]))['TimestampSigner.unsign']))")
    here = str(Path(__file__).parent)
    seen = set()
    for seed in ("1", "2", "3", "4"):
        (tmp_path / seed).mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        seen.add(subprocess.run([sys.executable, "-c", code, str(tmp_path / seed), here], env=env,
                                capture_output=True, text=True, check=True).stdout)
    assert seen == {"['{sig_error}', 'Signature {sig} does not match', 'No {sep} found in value']\n"}
