"""Phase 1 for one file: read, decode, parse, walk, collect facts → ``FileResult``.

Runs in a worker process.  Every way a file can be bad (too big, undecodable,
NUL bytes, a syntax error or syntax newer than this Python, nesting that
blows the recursion limit) ends as a ``FileFailure`` with a reason naming
what went wrong and where; it never takes the run down.  The one exception
is ``UnclassifiedShape`` under ``ERRDEX_STRICT``: that is meant to be loud.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import gc
import pickle
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from errdex.extract import facts, itemtypes, poppedopts
from errdex.extract.bounds import capped_sites
from errdex.extract.cache import ResultCache
from errdex.extract.calls import call_edges
from errdex.extract.decoding import decode
from errdex.extract.imports import module_name
from errdex.extract.instancename import as_self
from errdex.extract.ir import Node
from errdex.extract.keyedtables import table_entries
from errdex.extract.lines import data_digests
from errdex.extract.messages import Scope
from errdex.extract.msgbase import translated_text
from errdex.extract.source import SourceText
from errdex.extract.strict import UnclassifiedShape
from errdex.extract.summary import FileResult, ModuleSummary
from errdex.extract.tuplefields import built_tuples, named_tuples
from errdex.extract.walker import Walker
from errdex.limits import DEFAULTS, current, hint
from errdex.model import FileFailure
from errdex.sources.base import SourceFile
from errdex.sources.inplace import read_member

MAX_FILE_BYTES = DEFAULTS.file_bytes  # larger files are refused, not parsed (``Limits.file_bytes``)
_EMPTY_SCOPE = Scope()


class Item(NamedTuple):
    """One file as a worker task names it (a ``SourceFile`` without the ``Path`` object)."""

    path: str
    abspath: str
    is_test: bool = False
    member: str = ""  # set: ``abspath`` is a wheel and this its member, read in place

    @classmethod
    def of(cls, f: SourceFile) -> Item:
        return cls(f.path, str(f.abspath), f.is_test, f.member)


def process_file(item: Item, max_bytes: int = MAX_FILE_BYTES) -> FileResult:
    """The whole per-file job; returns a failure result rather than raising."""
    data = read(item, max_bytes)
    return data if isinstance(data, FileResult) else phase1(item.path, data, item.is_test)


def phase1(path: str, data: bytes, is_test: bool) -> FileResult:
    """``process_data`` and the line digests of the same bytes: each file is read once."""
    result = process_data(path, data, is_test)
    digests = _digests(data, path)
    return result if digests is None else dataclasses.replace(result, digests=digests)


def _digests(data: bytes, path: str) -> bytes | None:
    """The file's line digests (``lines.py``), None when it holds a NUL byte or cannot be decoded."""
    if b"\x00" in data:
        return None
    try:
        return data_digests(data, path)
    except ValueError:
        return None


def read(item: Item, max_bytes: int) -> bytes | FileResult:
    """The file's bytes, or a failure result when it is too large or unreadable."""
    if item.member:
        try:
            return read_member(item.abspath, item.member, max_bytes)
        except ValueError as e:
            return _fail(item.path, str(e))
    try:
        size = Path(item.abspath).stat().st_size
        if size > max_bytes:
            return _fail(item.path, f"file too large: {size} bytes ({hint('file_bytes', max_bytes)})")
        return Path(item.abspath).read_bytes()
    except OSError as e:
        return _fail(item.path, f"cannot read: {e.strerror or e}")


def process_data(path: str, data: bytes, is_test: bool) -> FileResult:
    """Decode, parse, walk and collect facts of one file's bytes."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        return _fail(path, f"NUL byte at line {line}")
    try:
        text = decode(data, path)
    except ValueError as e:
        return _fail(path, f"encoding error: {e}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes in indexed code
            tree = ast.parse(data, filename=path)  # the bytes: a str would be encoded back to UTF-8 first
    except SyntaxError as e:
        newer = "" if sys.version_info >= (3, 14) else f" (or syntax newer than Python {sys.version_info.major}.{sys.version_info.minor})"
        return _fail(path, f"syntax error at line {e.lineno}: {e.msg}{newer}")
    except (RecursionError, MemoryError) as e:
        return _fail(path, f"nesting too deep to parse ({type(e).__name__})")
    except ValueError as e:
        return _fail(path, f"cannot parse: {e}")
    return _walk(tree, text, path, is_test)


def _walk(tree: ast.Module, text: str, path: str, is_test: bool) -> FileResult:
    facts_failure: FileFailure | None = None
    try:
        config, tests = facts.collect_facts(tree, path, text, is_test)
    except (RecursionError, MemoryError):
        config, tests = [], []
        facts_failure = FileFailure(path, "facts: nesting too deep")
    except Exception as e:  # a bug in fact collection must not lose the file's sites
        config, tests = [], []
        facts_failure = FileFailure(path, f"facts: {type(e).__name__}: {e}")
    if is_test:
        return FileResult(path=path, config=tuple(config), tests=tuple(tests), facts_failure=facts_failure)
    module = module_name(path)
    src = SourceText(text)
    as_self(tree)  # a method's instance parameter, whatever its name, read as `self` (``instancename``)
    try:
        walker = Walker(tree, src, module, path)
        sites, warning = capped_sites(walker.run(), path, current().sites_per_file)
        constants: dict[str, Node] = {}
        for name, value in [*walker.module_env.items(), *walker.class_constants.items()]:
            if (isinstance(value, (ast.Constant, ast.JoinedStr, ast.BinOp)) and not (
                isinstance(value, ast.Constant) and not isinstance(value.value, str)
            )) or (name.endswith("]") and translated_text(value)):  # a message table's `_("...")` entry
                constants[name] = walker.builder.arg(value, _EMPTY_SCOPE)
        constants.update(walker.kept_texts)
        # module-level tables of tuples by key (``keyedtables``)
        constants.update(table_entries(walker.module_env, lambda v: walker.builder.arg(v, _EMPTY_SCOPE),
                                       walker.builder.resolve_name))
        # named tuples' fields and the calls building them (``tuplefields``)
        constants.update(named_tuples(tree, walker.builder.resolve_name))
        constants.update(built_tuples(tree, walker.builder.resolve_name))
        summary = ModuleSummary(
            module=module, path=path, imports=dict(walker.imports), names=tuple(dict.fromkeys(walker.names)),
            functions=walker.functions, classes=tuple(walker.classes), constants=constants,
            attr_texts=tuple(walker.attr_texts), set_attrs=poppedopts.outside_sets(tree),
            item_types=itemtypes.item_types(tree, walker.builder.resolve_name),
        )
    except UnclassifiedShape:
        raise
    except (RecursionError, MemoryError) as e:
        return _fail(path, f"nesting too deep to walk ({type(e).__name__})")
    try:
        edges = call_edges(tree, module, path)
    except (RecursionError, MemoryError):
        edges = ()
    warned: tuple[FileFailure, ...] = (warning,) if warning else ()
    if walker.builder.over_budget:
        budget = walker.builder.step_budget
        warned += (FileFailure(path, f"reading its message texts took more than {budget} steps; the rest are "
                                     f"placeholders ({hint('text_steps_per_file', budget)})"),)
    return FileResult(path=path, summary=summary, sites=sites, raise_statements=walker.raise_statements,
                      calls=edges,
                      raise_sites=walker.raise_sites,
                      config=tuple(config), tests=tuple(tests), facts_failure=facts_failure,
                      warnings=warned)


@contextlib.contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector paused: a parse allocates tens of thousands of AST nodes
    (and the parent unpickles as many result objects), none in a cycle, and each allocation
    burst would otherwise trigger collections that walk them all; refcounting frees them."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def process_chunk(items: list[Item], max_bytes: int = MAX_FILE_BYTES) -> list[FileResult]:
    """A worker task: several files at once, so pickling and scheduling are paid per chunk."""
    with no_cyclic_gc():
        return [process_file(item, max_bytes) for item in items]


def process_chunk_cached(items: list[Item], max_bytes: int, cache: ResultCache) -> list[bytes]:
    """``process_chunk`` through the result cache: each file's result as a pickle, taken from the
    cache when its key is there, else extracted and stored.  Returning the pickles (which the
    parent loads) costs no more than returning the objects, and the cache needs them anyway."""
    looked = process_chunk_lookup(items, max_bytes, cache)
    cache.put_many([(key, blob) for blob, key in looked if key is not None])
    return [blob for blob, _ in looked]


def process_chunk_lookup(items: list[Item], max_bytes: int, cache: ResultCache) -> list[tuple[bytes, str | None]]:
    """Each file's result as a pickle, from the cache when it is there, with the cache key of those
    extracted now (None for the others): the caller stores them.  The local pool's workers only
    read the cache and the parent writes what they return, so no worker ever waits for the other's
    write lock (SQLite's busy handler sleeps, and a descheduled lock holder stalls both)."""
    out: list[tuple[bytes, str | None]] = []
    with no_cyclic_gc():
        for item in items:
            data = read(item, max_bytes)
            if isinstance(data, FileResult):  # unreadable or too large: nothing worth keeping
                out.append((pickle.dumps(data, pickle.HIGHEST_PROTOCOL), None))
                continue
            key = cache.key(item.path, data, item.is_test, max_bytes)
            blob = cache.get(key)
            if blob is None:
                out.append((pickle.dumps(phase1(item.path, data, item.is_test), pickle.HIGHEST_PROTOCOL), key))
            else:
                out.append((blob, None))
    return out


def _fail(path: str, reason: str) -> FileResult:
    return FileResult(path=path, failure=FileFailure(path, reason))
