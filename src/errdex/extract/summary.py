"""What phase 1 hands to phase 2 for one file: compact, frozen and picklable.

A worker process parses a file and returns a ``FileResult``: the module's
summary (imports, top-level names, classes, message-building helpers,
string constants) and its sites with their messages still as IR.  Phase 2
sees every summary at once and resolves what crosses module boundaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from errdex.extract.ir import Node
from errdex.extract.pickling import fast_pickle, register_model_types
from errdex.model import CallEdge, ConfigOption, FileFailure, Guard, HandedStream, SiteKind, TestExpectation


@fast_pickle
@dataclass(frozen=True, slots=True)
class CallSite:
    """A call of a package function that passes something message-like (a string, an f-string, an
    exception instance...): phase 2 binds the callee's message parameters with it."""

    target: str  # resolved dotted name of the callee, as in ``Ref.target``
    args: tuple[Node, ...]  # positional arguments up to the first ``*xs``
    kwargs: tuple[tuple[str, Node], ...] = ()
    # arguments that are the text of a caught exception (``self.error(str(ex), ex)`` in an ``except``): the
    # position (``"0"``) or keyword, the caught classes and the lines of the ``try`` body (``forwardcalls.py``)
    caught: tuple[tuple[str, tuple[str, ...], tuple[int, int]], ...] = ()


@fast_pickle
@dataclass(frozen=True, slots=True)
class FuncSummary:
    """A function whose returns may be a message or an exception instance, whose sites read a
    parameter (``defaults`` then matter), or that makes ``calls`` passing messages (the key
    ``<module>`` holds the module's top-level calls)."""

    params: tuple[str, ...]
    returns: tuple[Node, ...]
    defaults: tuple[tuple[str, Node], ...] = ()
    calls: tuple[CallSite, ...] = ()
    vararg: str = ""  # ``*args``: the surplus positional arguments (``extract/factories.py``)
    varkw: str = ""  # ``**kwargs``: the surplus keywords


@fast_pickle
@dataclass(frozen=True, slots=True)
class InitSummary:
    """``__init__``: its parameters and what it passes to the base ``__init__``.

    ``super_args`` is None when ``__init__`` never calls the base: then the
    exception's message is the constructor's own arguments (BaseException
    stores them in ``args`` before ``__init__`` runs).
    """

    params: tuple[str, ...]
    super_args: tuple[Node, ...] | None = None
    super_kwargs: tuple[tuple[str, Node], ...] = ()
    vararg: str = ""  # `def __init__(self, message, *args)`: the surplus arguments' pack
    varkw: str = ""
    # `if args: super().__init__(*args) else: super().__init__(self.msg)` (dnspython's DNSException): on
    # some path the constructor's own arguments are passed on, and they are the message when a raise gives any
    passes_args: bool = False
    # `if path is None: super().__init__(message)` / `else: super().__init__(prefix + message)` (construct's
    # ConstructError): the parameter (whose default is None) and the arguments passed on when a raise leaves
    # it out; ``super_args`` are those of the other branch
    none_args: tuple[str, tuple[Node, ...]] | None = None
    # how many of ``params`` a positional argument can bind; the rest are keyword-only (python-jsonpath's
    # `__init__(self, *args, token)`: the raise's text goes to `*args`, not to `token`); -1: all of them
    positional: int = -1
    # `a, b, c = args[:3]` in `__init__(self, *args)`: names bound to the first arguments when a raise passes
    # that many (more too, with ``unpacked_more``); ``super_args`` are then those of that path
    unpacked: tuple[str, ...] = ()
    unpacked_more: bool = False
    # `args = tuple(list(args)[1:])` after reading `args[0]` into the text (udsoncan's exceptions): the items of the
    # pack dropped before `super().__init__(msg, *args)`; ``super_args`` read `args[k]` as parameters (``packitems``)
    vararg_skip: int = 0
    # written by a class decorator (``generated_init.py``): a decorated subclass's fields extend its
    # decorated base's, all attributes of the one instance (cyclopts' `CoercionError(token=..., msg=...)`)
    generated: bool = False
    # the parameters' literal text defaults (`title="Config validation error"`): what a raise leaving one out
    # binds it to (confection's `ConfigValidationError(desc=...)` still prints its default title)
    defaults: tuple[tuple[str, Node], ...] = ()


@fast_pickle
@dataclass(frozen=True, slots=True)
class ClassSummary:
    name: str  # qualname inside the module: "Outer.Inner"
    line: int
    bases: tuple[str, ...]  # resolved dotted names, builtins bare
    docstring: str = ""
    init: InitSummary | None = None
    str_message: Node | None = None  # what ``__str__`` returns, self.x mapped to init params
    getattr_forward: tuple[str, tuple[str, ...]] | None = None  # ``getattrs.getattr_forward``
    attr_instances: tuple[tuple[str, str], ...] = ()  # ``_log = ErrorHandler()``: attribute -> class
    # what ``__str__`` returns when the options its ``__init__`` pops keep their defaults, and those options
    # (attribute, keyword, position after self or -1) a raise may pass (``poppedopts``)
    str_default: Node | None = None
    str_options: tuple[tuple[str, str, int], ...] = ()


@fast_pickle
@dataclass(frozen=True, slots=True)
class ModuleSummary:
    module: str
    path: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target
    names: tuple[str, ...] = ()  # every name bound at module top level
    functions: dict[str, FuncSummary] = field(default_factory=dict)  # "f" or "Cls.meth"
    classes: tuple[ClassSummary, ...] = ()
    constants: dict[str, Node] = field(default_factory=dict)  # top-level NAME = "text"
    # `rep = Report(HeaderDataError); rep.problem_msg = "..."`: (the class as resolved here, the attribute, the
    # text) for each message-like attribute a function sets on an instance it built (``attrtexts.py``)
    attr_texts: tuple[tuple[str, str, Node], ...] = ()
    set_attrs: frozenset[str] = frozenset()  # attributes set through a name other than self (``poppedopts``)
    item_types: tuple[tuple[str, str], ...] = ()  # attribute -> its items' class, `list[C]` (``itemtypes``)


@fast_pickle
@dataclass(frozen=True, slots=True)
class PendingSite:
    """A site whose exception and message may still name things in other modules.

    For ``kind == "error"`` ``value`` is the raised expression's IR; for
    warnings it is the category and ``message`` the text; for assertions
    ``message`` is the assert's message.
    """

    kind: SiteKind
    value: Node | None
    message: Node | None
    written: str  # the exception (or warning category) as written
    line: int
    end_line: int
    qualname: str
    guards: tuple[Guard, ...] = ()
    snippet: str = ""
    snippet_start: int = 0
    docstring: str = ""
    comments: tuple[str, ...] = ()
    cause: str | None = None
    forwards: tuple[str, ...] = ()  # the message is the text of a caught exception of these classes
    try_lines: tuple[int, int] = (0, 0)  # ... caught by the ``try`` body on these lines
    caught: str = ""  # ... and held by this name
    caught_via: str = ""  # ... or returned by this package helper (``forwarded.Caught.via``)
    caught_anywhere: bool = False  # ... joined from a list of caught ones (``forwarded.Caught.anywhere``)
    caught_iterates: bool = False  # ... whose ``try`` body loops over an object (``forwarded.Caught.iterates``)
    requires: str = ""  # the platform check the module makes at import (``platformcheck``), as written
    requires_line: int = 0  # ... and its line
    handed: HandedStream | None = None  # a method of a raw reader/writer class: how the module hands it out
    keywords: tuple[str, ...] = ()  # the keyword names of the exception the raise's helper returns (``helperkw``)
    registered: tuple[str, ...] = ()  # the keys its function's decorators register it under (``registered``)


@fast_pickle
@dataclass(frozen=True, slots=True)
class FileResult:
    path: str
    summary: ModuleSummary | None = None
    sites: tuple[PendingSite, ...] = ()
    raise_statements: int = 0
    raise_sites: int = 0
    failure: FileFailure | None = None
    facts_failure: FileFailure | None = None
    config: tuple[ConfigOption, ...] = ()
    tests: tuple[TestExpectation, ...] = ()
    warnings: tuple[FileFailure, ...] = ()  # a limit was hit: the file is indexed, but not all of it
    calls: tuple[CallEdge, ...] = ()
    digests: bytes | None = None  # the file's line digests (``lines.py``); None when it cannot be decoded


register_model_types(Guard, FileFailure, ConfigOption, TestExpectation, CallEdge, HandedStream)
