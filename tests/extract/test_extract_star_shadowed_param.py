"""A parameter shadows the names of a star-importing module (issue 17's seventy-first round): python-bitcoinlib
0.12.2's ``scripteval.py`` does ``from bitcoin.core.script import *`` and, inside ``_EvalScript``'s loop, defines
``err_raiser(cls, *args)`` raising ``cls(*args, sop=sop, ...)``, called as ``err_raiser(VerifyOpFailedError, sop)``
and ``err_raiser(EvalScriptError, 'ENDIF found without prior IF')``.  ``cls`` was taken for a name the star import
may bring (``bitcoin.core.scripteval.cls``), so the callers' classes and texts never reached the raise."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

SCRIPT = '''
    OP_VERIFY = 0x69
    OP_IF = 0x63
    OPCODE_NAMES = {OP_VERIFY: "OP_VERIFY", OP_IF: "OP_IF"}
'''

EVAL = '''
    from ledger.script import *


    class EvalScriptError(Exception):
        def __init__(self, msg, sop=None, stack=None):
            super().__init__("EvalScript: %s" % msg)
            self.sop = sop
            self.stack = stack


    class VerifyOpFailedError(EvalScriptError):
        def __init__(self, opcode, **kwargs):
            super().__init__("%s failed" % OPCODE_NAMES[opcode], **kwargs)


    def raise_state(cls, *args):
        raise cls(*args, stack=[])


    def check(sop, value):
        if sop == OP_IF:
            raise_state(EvalScriptError, "IF found without a value")
        if not value:
            raise_state(VerifyOpFailedError, sop)


    def eval_script(ops):
        stack = []
        for sop in ops:
            def err_raiser(cls, *args):
                raise cls(*args, sop=sop, stack=stack)

            if sop == OP_IF:
                err_raiser(EvalScriptError, "ENDIF found without prior IF")
            elif sop == OP_VERIFY and not stack:
                err_raiser(VerifyOpFailedError, sop)
            stack.append(sop)
'''


def _package(tmp_path: Path, star: bool = True) -> Path:
    pkg = tmp_path / "ledger"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "script.py").write_text(textwrap.dedent(SCRIPT))
    body = textwrap.dedent(EVAL)
    if not star:
        body = body.replace("from ledger.script import *", "from ledger.script import OP_IF, OP_VERIFY, OPCODE_NAMES")
    (pkg / "scripteval.py").write_text(body)
    return tmp_path


def _texts(root: Path, qualname: str) -> list[str]:
    site = site_in(extract_dir(root), "ledger/scripteval.py", qualname)
    return [t.normalized() for t in site.templates]


def test_nested_raiser_under_a_star_import_reads_its_callers(tmp_path: Path) -> None:
    texts = _texts(_package(tmp_path), "eval_script.<locals>.err_raiser")
    assert "EvalScript: ENDIF found without prior IF" in texts
    assert "EvalScript: {} failed" in texts


def test_module_raiser_under_a_star_import_reads_its_callers(tmp_path: Path) -> None:
    texts = _texts(_package(tmp_path), "raise_state")
    assert texts[:2] == ["EvalScript: IF found without a value", "EvalScript: {} failed"]


def test_same_without_the_star_import(tmp_path: Path) -> None:
    texts = _texts(_package(tmp_path, star=False), "eval_script.<locals>.err_raiser")
    assert "EvalScript: ENDIF found without prior IF" in texts
    assert "EvalScript: {} failed" in texts
