"""The data model that the pipeline stages exchange (see DESIGN.md).

Every value that crosses a stage boundary is one of these frozen dataclasses:
the same object feeds the catalog row, the JSON document and the HTML page, so
there is exactly one place that decides what a field is called.  ``to_json`` /
``from_json`` give the stable JSON shape that ``--json`` and the web API emit.

Stages may add fields here, always with a default, so that older rows and
documents still load.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from errdex.jsoncodec import from_json as from_json
from errdex.jsoncodec import to_json as to_json

SiteKind = Literal["error", "warning", "assertion"]
SourceKind = Literal["dir", "git", "wheel", "sdist", "zip", "pypi", "installed"]
GuardKind = Literal["if", "elif", "else", "while", "except", "assert", "match", "narrowed"]

SITE_KINDS: tuple[str, ...] = get_args(SiteKind)




# --------------------------------------------------------------------------- snapshot


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One version of one repo's code, as it was indexed.

    ``commit`` is a full sha when git told us; otherwise ``ref`` (a tag or a
    version) pins the source links.  ``url_base`` is the prefix to which a
    repo-relative path and ``#L..`` are appended to reach the pinned source.
    ``path_prefix`` is what must be put before a package-relative path to get
    the repo-relative one (wheels hold ``jax/...`` which lives at ``jax/...``
    in the repo, but a ``src/`` layout needs ``src/``).
    """

    repo: str
    commit: str | None = None
    ref: str | None = None
    date: str | None = None
    source_kind: SourceKind = "dir"
    source: str = ""
    url_base: str = ""
    path_prefix: str = ""
    version: str | None = None

    @property
    def key(self) -> str:
        """``repo@commit-or-ref``: the snapshot's identity in the catalog."""
        return f"{self.repo}@{self.pin}"

    @property
    def pin(self) -> str:
        return self.commit or self.ref or "unknown"

    @property
    def short_pin(self) -> str:
        if self.commit and re.fullmatch(r"[0-9a-f]{40}", self.commit):
            return self.commit[:10]
        return self.pin

    def source_url(self, path: str, line: int | None = None, end_line: int | None = None) -> str:
        """Link to ``path`` (package-relative) at this snapshot, or "" when unknown."""
        from errdex.links import source_url

        return source_url(self.url_base, self.path_prefix, path, line, end_line)


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True, slots=True)
class Segment:
    """Literal text (``expr is None``) or a placeholder for a runtime value."""

    text: str = ""
    expr: str | None = None
    conversion: str | None = None  # "r", "s", "a"
    format_spec: str | None = None

    @property
    def is_literal(self) -> bool:
        return self.expr is None

    def render(self) -> str:
        if self.expr is None:
            return self.text
        return "{" + self.expr + "}"


@dataclass(frozen=True, slots=True)
class Template:
    """A message as a sequence of segments; ``render()`` gives ``... {expr} ...``.

    Adjacent literals are merged and empty literals dropped by ``of`` so that
    equal messages have equal templates whatever way they were written.
    """

    segments: tuple[Segment, ...] = ()

    @classmethod
    def of(cls, segments: Iterable[Segment]) -> Template:
        out: list[Segment] = []
        for seg in segments:
            if seg.is_literal:
                if not seg.text:
                    continue
                if out and out[-1].is_literal:
                    out[-1] = Segment(text=out[-1].text + seg.text)
                    continue
            out.append(seg)
        return cls(tuple(out))

    @classmethod
    def literal(cls, text: str) -> Template:
        return cls.of([Segment(text=text)])

    def render(self) -> str:
        return "".join(s.render() for s in self.segments)

    def display(self) -> str:
        """As an f-string body: literal braces doubled, so ``{x}`` is always a placeholder (pages show this)."""
        return "".join(s.text.replace("{", "{{").replace("}", "}}") if s.is_literal else s.render()
                       for s in self.segments)

    @property
    def literals(self) -> tuple[str, ...]:
        return tuple(s.text for s in self.segments if s.is_literal)

    @property
    def placeholders(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if not s.is_literal)

    @property
    def longest_literal(self) -> int:
        return max((len(t.strip()) for t in self.literals), default=0)

    def normalized(self) -> str:
        """Whitespace-folded literal text with every placeholder as ``{}``.

        This is what the error id hashes: renaming a variable in an f-string
        or re-wrapping a long string keeps the id.
        """
        parts = [re.sub(r"\s+", " ", s.text) if s.is_literal else "{}" for s in self.segments]
        return "".join(parts).strip()


# --------------------------------------------------------------------------- sites


@dataclass(frozen=True, slots=True)
class Guard:
    """One condition on the way to a raise, outermost first.

    ``source`` is the code as written (``config.no_execution.value``);
    ``normalized`` is the condition that holds at the raise: for an ``else``
    branch or a later ``elif`` it is the negation, written ``not (...)``.
    For ``except`` it is the caught type(s).
    """

    kind: GuardKind
    source: str
    normalized: str
    line: int = 0
    negated: bool = False
    body: tuple[int, int] = (0, 0)  # an ``except``'s ``try`` body: its first and last lines (0, 0: not known)
    name: str = ""  # the name an ``except ... as NAME`` binds to the caught exception ("" for none, and other guards)


@dataclass(frozen=True, slots=True)
class HandedStream:
    """How the module hands out a raw reader or writer it defines (an ``io.RawIOBase`` subclass), read from its
    source by ``extract.handedstream``: click's ``_WindowsConsoleReader`` is built by ``_get_text_stdin``, wrapped
    in ``io.BufferedReader`` then ``_NonClosingTextIOWrapper``, kept as ``ConsoleStream._text_stream``, and
    ``_get_windows_console_stream`` returns it only under its guards."""

    raw_class: str  # "_WindowsConsoleReader"
    builder: str = ""  # "_get_text_stdin": the module function that builds it
    builder_line: int = 0
    layers: tuple[str, ...] = ()  # the calls that wrap it, innermost first, as written: ("io.BufferedReader", ...)
    handed_class: str = ""  # "ConsoleStream": the class the builder returns around the outer layer ("": the layer)
    handed_attr: str = ""  # "_text_stream": the attribute of that class which holds the outer layer
    other_attrs: tuple[tuple[str, str], ...] = ()  # ("buffer", "buffer_stream"): attributes set from the builder's parameters
    delegates: bool = False  # the class's ``__getattr__`` passes every other attribute on to ``handed_attr``
    factory: str = ""  # "_get_windows_console_stream": the module function that returns what the builder makes
    factory_line: int = 0
    handed_when: tuple[str, ...] = ()  # the conditions under which the factory returns it (its early returns, negated)
    passed: tuple[tuple[str, str], ...] = ()  # ("buffer_stream", 'getattr(f, "buffer", None)'): what the factory passes the builder


@dataclass(frozen=True, slots=True)
class ErrorSite:
    """One raise / warn / assert in one snapshot."""

    kind: SiteKind
    exception: str  # as written: "RuntimeError", "errors.ConcretizationTypeError"
    exception_resolved: str  # "RuntimeError", "jax._src.errors.ConcretizationTypeError"
    templates: tuple[Template, ...]
    path: str  # package-relative, "/" separated: "jax/_src/interpreters/pxla.py"
    line: int
    end_line: int
    qualname: str  # "ExecuteReplicated.__call__", "<module>" at top level
    module: str = ""  # "jax._src.interpreters.pxla"
    exception_bases: tuple[str, ...] = ()  # resolved bases, nearest first, up to builtins
    guards: tuple[Guard, ...] = ()
    snippet: str = ""  # source lines around the raise, as in the file
    snippet_start: int = 0  # line number of the snippet's first line
    docstring: str = ""  # enclosing function's (or class's) docstring
    comments: tuple[str, ...] = ()  # comments next to the raise
    unresolved: tuple[str, ...] = ()  # expressions whose text could not be reconstructed
    cause: str | None = None  # the ``from`` expression, if any
    error_id: str = ""  # filled by extract.ids
    requires: str = ""  # the platform the module checks for at import: 'sys.platform == "win32"' (extract.platformcheck)
    requires_line: int = 0  # the line of that check
    handed: HandedStream | None = None  # a method of a raw reader/writer class: how the module hands it out
    keywords: tuple[str, ...] = ()  # the keyword names of the exception call a helper the raise calls returns
    # the other classes (resolved) a raise naming their common base may raise, one picked at run time from a
    # table (``extract/classtables.py``): ``raise exc`` after ``exc = _sftp_error_map[code](reason, lang)``
    picked: tuple[str, ...] = ()
    # the short string literals of the enclosing function's decorator calls: the keys a table-driven parser
    # registers it under (``@method(axis('ancestor-or-self'))``, ``extract/registered.py``)
    registered: tuple[str, ...] = ()
    # per keyword of the raise's exception call, ``name=text`` of a value that is one literal text (an enum
    # member's value, a constant), ``name`` of any other (``extract/kwvalues.py``, ``match/keyvalues.py``)
    keyword_values: tuple[str, ...] = ()

    @property
    def template(self) -> Template:
        return self.templates[0] if self.templates else Template()

    @property
    def exception_name(self) -> str:
        return self.exception_resolved.rsplit(".", 1)[-1] or self.exception


def error_id(repo: str, kind: str, exception: str, template: str, qualname: str, salt: str = "") -> str:
    """The stable 16-hex identity of an Error (DESIGN.md).

    Inputs are the repo, kind, the exception's *name* (not its module, which
    moves), the normalized template and the enclosing qualname; ``salt``
    disambiguates two sites that would otherwise collide.
    """
    raw = "\x1f".join([repo, kind, exception.rsplit(".", 1)[-1], template, qualname, salt])
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]


# --------------------------------------------------------------------------- facts beside the sites


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be read or parsed, kept on record (bandit's skipped list)."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class defined in the package: how exceptions resolve and what they document."""

    qualname: str  # "jax._src.errors.ConcretizationTypeError"
    path: str
    line: int
    bases: tuple[str, ...] = ()  # resolved where possible
    docstring: str = ""
    public_names: tuple[str, ...] = ()  # "jax.errors.ConcretizationTypeError"


@dataclass(frozen=True, slots=True)
class ConfigOption:
    """A configuration option or environment variable that code can read."""

    name: str  # "jax_no_execution" or "JAX_PLATFORMS"
    kind: Literal["option", "env", "flag", "setting"] = "option"
    default: str | None = None
    help: str = ""
    env_var: str | None = None  # "JAX_NO_EXECUTION"
    holder: str = ""  # the Python name that holds it: "config.no_execution"
    set_hint: str = ""  # how to change it: "jax.config.update('jax_no_execution', False)"
    path: str = ""
    line: int = 0
    adapter: str = "generic"
    set_call: str = ""  # the public callable the set hint uses, proved by the adapter: "jax.config.update"
    read_attr: str = ""  # the public attribute that reads the value, if any: "jax.config.jax_no_execution"
    module: str = ""  # the module that defines (or reads) it: "jax._src.config"


@dataclass(frozen=True, slots=True)
class TestExpectation:
    """A test that expects an exception: the best evidence of when an error happens."""

    __test__ = False  # not a pytest class

    path: str
    line: int
    test_name: str  # "test_foo" or "TestX.test_foo"
    exception: str  # as written in the test
    pattern: str | None = None  # the match= / regex, if any
    code: str = ""  # the test's source (the with-block or the call)
    style: str = "pytest.raises"  # or "assertRaises", "assertRaisesRegex", "pytest.warns"
    imports: tuple[str, ...] = ()  # the test module's import statements that bind names ``code`` uses


@dataclass(frozen=True, slots=True)
class CallEdge:
    """One edge of the package's call graph, read from the source (``extract/calls.py``).

    ``call``: ``caller``'s body calls (or passes along) ``callee``; ``register``: binding
    ``caller`` (a primitive, a rule table key) runs ``callee``; ``alias``: the module name
    ``caller`` is ``callee`` wrapped; ``export``: the public name ``caller`` is ``callee``
    (``pkg.*`` → ``pkg.mod.*`` for a star import); ``returns``: ``caller`` returns an instance of the
    class ``callee`` (``click.progressbar`` → ``ProgressBar``); ``ref``: the module ``caller`` reads the private
    name ``callee`` somewhere (not walked by the public path; a function with no edge at all is used by no one).  ``?.name`` is a method of an untyped object.
    """

    caller: str
    callee: str
    kind: Literal["call", "register", "alias", "export", "returns", "ref"] = "call"
    line: int = 0


@dataclass(frozen=True, slots=True)
class PublicPath:
    """The public names whose calls lead to a site, best first (``analyze/public_path.py``).

    ``entries`` are what users call (``jax.jit``); ``chain`` is, for the first entry, the
    package functions from it down to the raising function; ``observed`` is True when the
    entries came from running the library's tests (observe) rather than the static graph.
    """

    entries: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()
    depth: int = 0
    observed: bool = False


@dataclass(frozen=True, slots=True)
class ExtractResult:
    """All that extraction learned from one snapshot's files."""

    sites: tuple[ErrorSite, ...] = ()
    failures: tuple[FileFailure, ...] = ()
    files_read: int = 0
    classes: tuple[ClassInfo, ...] = ()
    config: tuple[ConfigOption, ...] = ()
    tests: tuple[TestExpectation, ...] = ()
    symbols: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # module -> names
    raise_statements: int = 0  # raise statements with an argument (for the coverage figure)
    raise_sites: int | None = None  # of those, how many produced an ErrorSite (None: not counted)
    warnings: tuple[FileFailure, ...] = ()  # limits hit (errdex.limits): what was cut or dropped, by file
    calls: tuple[CallEdge, ...] = ()  # the package's call graph (extract/calls.py)
    line_digests: Mapping[str, bytes] = field(default_factory=dict)  # path -> extract.lines.text_digests


# --------------------------------------------------------------------------- analysis


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a claim rests on: a guard, an option, a test, a docstring, a comment."""

    kind: Literal["guard", "config", "test", "docstring", "class-doc", "comment", "template", "dispatch", "import"]
    text: str
    path: str = ""
    line: int = 0
    url: str = ""


@dataclass(frozen=True, slots=True)
class ProofBefore:
    """What the sample's failing run really printed (``errdex prove``)."""

    exception: str = ""  # qualified class, as the traceback printed it
    error_id: str = ""  # what errdex's own matcher resolved that traceback to (by its frames)
    output: str = ""  # the last lines of the real traceback


@dataclass(frozen=True, slots=True)
class ProofAfter:
    exit: int = 0
    output: str = ""  # what the passing run printed (the try sample's handler output), bounded


@dataclass(frozen=True, slots=True)
class Proof:
    """A sample that ran in the sandbox with the indexed version installed (docs/prove.md)."""

    before: ProofBefore
    after: ProofAfter
    library: str
    version: str
    python: str
    date: str
    candidate: str = ""  # which generator built it: "entry" (the observed public call), ...
    env: tuple[str, ...] = ()  # "NAME=VALUE" the runs had beyond the library's own (prove --env)
    lowered: str = ""  # how the run reached another platform's code on this machine (docs/prove.md, "Kernels")
    # "kept": the after keeps every argument of the before; "drops nargs=, type=" (prove/keep.py);
    # "takes away: ..." when it keeps them but only takes the trigger away (prove/stored.py)
    arguments: str = ""
    # what each change of a two-change after is needed for ("without `x=2` the call raises `E: ...`", prove/needed.py)
    needs: str = ""
    # the after's new values spelt other ways (prove/keep.spellings) that still raised this error, as run
    raised_with: tuple[str, ...] = ()
    # the after's new values spelt other ways that ran clean (``dimensions=[0]`` for ``(0,)``), as run
    clean_with: tuple[str, ...] = ()
    # the after passes the site's check but stops later on what the proof machine lacks, not on its arguments
    # (prove/passes.py): "what it needs | file:line | the raising line"; "" for an after that ran clean
    passes: str = ""


@dataclass(frozen=True, slots=True)
class CodeSample:
    before: str = ""
    after: str = ""
    proof: Proof | None = None  # null when not proven


@dataclass(frozen=True, slots=True)
class Solution:
    text: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True, slots=True)
class RelatedError:
    error_id: str
    title: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Analysis:
    """The page's sections for one Error at one snapshot, with provenance."""

    error_id: str
    snapshot: str  # Snapshot.key
    meaning: str
    solutions: tuple[Solution, ...] = ()
    example_fix: CodeSample = CodeSample()
    strategy: str = "validation"
    validate_sample: str = ""
    try_sample: str = ""
    check_sample: str = ""  # the guard note's check as code (not run): shown labelled so while no sample is proven
    example_not_run: str = ""  # an example errdex cannot run here (the code), shown labelled so while none is proven
    example_not_run_why: str = ""  # ... and why it cannot run, from the evidence (the platform the module requires)
    validate_proof: Proof | None = None  # errdex prove: the validate sample ran (None: not proven)
    try_proof: Proof | None = None  # errdex prove: the try sample ran (None: not proven)
    guard_note: str = ""  # what the user can check before the call or catch, in public terms (shown when no sample is proven)
    prevention: tuple[str, ...] = ()
    trigger: str = ""
    situations: tuple[str, ...] = ()
    related: tuple[RelatedError, ...] = ()
    related_note: str = ""  # why no error is related, in this error's facts (shown when ``related`` is empty)
    evidence: tuple[Evidence, ...] = ()
    backend: str = "static"
    rules_version: str = ""
    date: str = ""
    model_sections: tuple[str, ...] = ()  # which sections a language model wrote
    withheld: tuple[str, ...] = ()  # samples not published because they failed verification, with the reason
    coverage: tuple[str, ...] = ()  # kinds of grounded fact used: guard-words, config, test, docstring, ...


# --------------------------------------------------------------------------- observations

ObservationKind = Literal["site", "native", "not-a-site"]


@dataclass(frozen=True, slots=True)
class ObservedArg:
    """One argument of the public entry call, as the recorder saw it (bounded, never the object)."""

    name: str
    type: str  # qualified class name
    repr: str  # bounded; ``<type>`` for objects whose own repr was not called


@dataclass(frozen=True, slots=True)
class Observation:
    """A real exception seen while the library's tests ran, deduplicated with a count.

    ``kind`` is ``site`` when its origin frame (path, line) lies inside an
    indexed site's span with a compatible exception class (``error_id`` set),
    ``native`` when it came from a call into C at a line that is no site, and
    ``not-a-site`` when a Python ``raise`` that errdex did not index raised it.
    ``entry`` is the outermost library function on the way from the test;
    ``test`` the pytest node id, at ``test_path:test_line`` (repo-relative).
    """

    snapshot: str  # Snapshot.key
    kind: ObservationKind
    path: str  # package-relative, as sites' paths
    line: int
    exception: str  # qualified class name
    message: str
    test: str
    error_id: str = ""
    test_path: str = ""
    test_line: int = 0
    entry: str = ""
    entry_args: tuple[ObservedArg, ...] = ()
    chain: tuple[str, ...] = ()  # "module.func (path:line)", test first, origin last
    escaped: bool = False  # left the library (reached the test) rather than caught inside it
    raised_by: str = "raise"  # "raise" statement or "native" (a call into C)
    count: int = 1

    def __post_init__(self) -> None:
        # A decorated test (``@jtu.with_explicit_mesh``) is located by pytest at its wrapper, which may live in
        # the installed library: a path out of the test workspace is no test file; the node id's file is.
        if self.test_path.startswith(("../", "/")) or "site-packages/" in self.test_path:
            node_file = self.test.split("::", 1)[0]
            object.__setattr__(self, "test_path", node_file if node_file.endswith(".py") else "")
            object.__setattr__(self, "test_line", 0)


@dataclass(frozen=True, slots=True)
class ObserveRun:
    """What one ``errdex observe`` of a snapshot did (the figures of ``stats``)."""

    snapshot: str
    python: str = ""
    mode: str = ""  # "monitoring" (3.12+) or "trace"
    files: int = 0
    failed_files: tuple[FileFailure, ...] = ()
    tests: int = 0
    events: int = 0  # exceptions recorded (sum of counts)
    sites: int = 0  # distinct indexed sites observed
    duration_s: float = 0.0
    date: str = ""
    tests_source: str = ""  # where the tests came from
    network: str = ""  # the sandbox's network isolation as granted
    processes: str = ""  # the sandbox's process-count limit as granted
