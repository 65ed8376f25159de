"""The small vocabulary every prose section shares: how the page names the user's call, a condition,
a parameter, the raise's place, and the evidence a sentence points at.

Conditions are said as the guards' plain words (``guardwords``), with ``self.x`` read as the
object's attribute and parameters named as arguments of the public call; the guards a page states
are the decisive ones (the check that raises, not the earlier checks that passed on the way).
"""

from __future__ import annotations

import ast
import re
import textwrap

from errdex.analyze.earlyexit import parameters
from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import describe_negation, unpacked_names
from errdex.analyze.helperflags import cases_words
from errdex.analyze.static import roles
from errdex.analyze.static.localwords import found_by, in_words
from errdex.model import ConfigOption, Evidence

MAX_GUARDS = 4


def first_sentence(text: str, limit: int = 300) -> str:
    text = " ".join(text.strip().split())
    if not text:
        return ""
    m = re.search(r"(?<=[.!?])\s+(?=[A-Z`])", text)
    out = text[: m.start()] if m else text
    if len(out) > limit:
        out = out[:limit].rsplit(" ", 1)[0] + " ..."
    return out


def place(f: Facts) -> str:
    return f"`{f.site.qualname}` (`{f.site.path}:{f.site.line}`)"


def package(f: Facts) -> str:
    return f.site.module.split(".", 1)[0] or f.snapshot.repo.rsplit("/", 1)[-1]


def issues_url(f: Facts) -> str:
    return f"https://github.com/{f.snapshot.repo}/issues" if f.snapshot.repo.count("/") == 1 else ""


def entry_words(f: Facts, limit: int = 3) -> str:
    """The public calls that reach the raise: "`jax.jit`", "`a`, `b` or `c`"; "" when none is known."""
    names = [f"`{e}`" for e in f.public_path.entries[:limit]]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def callee(f: Facts, cap: bool = False) -> str:
    """What the user calls, for "when you call ..." sentences."""
    if roles.returned_call(f):
        return ("The" if cap else "the") + f" function that {entry_words(f)} returns"
    if roles.through_factory(f):
        return f"{entry_words(f)} (or the function it returns)"
    if f.public_path.entries and f.public_path.depth == 0:
        return f"`{f.public_path.entries[0]}`"  # its own arguments: not those of the functions that build it
    if f.public_path.entries:
        return entry_words(f)
    if f.public_function:
        return f"`{f.public_function}`"
    if f.uncalled:
        return ("The" if cap else "the") + f" private function `{private_name(f)}`"
    return ("The" if cap else "the") + f" internal function `{f.site.qualname}` of `{package(f)}`"


def private_name(f: Facts) -> str:
    """``jax.experimental.mosaic.gpu.fragmented_array._tiled_wgmma_layout``: the name code outside the package
    would import it by."""
    return f"{f.site.module}.{f.site.qualname.split('.<locals>.', 1)[0]}" if f.site.module else f.site.qualname


def who(f: Facts) -> str:
    """The subject of "... raises X": the user's action, or the internal function when none is known
    (not "Parsing a command line" when a comment at the raise says it comes from elsewhere)."""
    if roles.usage_error(f) and not roles.forwarder(f) and not comment_when(f):
        return "Parsing a command line" + (f" ({entry_words(f)})" if f.public_path.entries else "")
    action = roles.who(f, entry_words(f))
    if action:
        return action
    if f.public_function:
        return f"Calling `{f.public_function}`"
    if f.uncalled:
        return f"Calling the private `{private_name(f)}` directly"
    return f"`{f.site.qualname}`, inside `{f.site.module}`,"


_WHEN = re.compile(r"\b(?:(?:should|can|will|would) only (?:happen|occur)|only (?:happens|occurs)|this happens when)\b",
                   re.IGNORECASE)


def comment_when(f: Facts) -> str:
    """A comment next to the raise that says when it happens ("This should only happen when passing in
    args manually, ..."): that sentence, or ""."""
    text = " ".join(w for c in f.comments[:3] for w in c.lstrip("#").split())
    return " ".join(x for x in re.split(r"(?<=[.!?])\s+", text) if _WHEN.search(x))[:240]


def exc_name(f: Facts) -> str:
    return f"`{f.exception.public_name or f.exception.name}`"


def user_words(f: Facts, text: str) -> str:
    """``self.entered`` read as "the `ProgressBar`'s `entered`": the object the user holds; in a dataclass's
    ``__post_init__``, ``self.num_threads`` is the ``num_threads`` the constructor was given."""
    parts = f.site.qualname.split(".<locals>.")[0].split(".")
    cls = parts[-2] if len(parts) >= 2 and parts[-2][:1].isupper() else ""
    if not cls:
        return text
    if parts[-1] == "__post_init__":  # a dataclass's fields are the arguments its constructor was given
        return re.sub(r"`self\.(\w+)`", lambda m: f"`{m.group(1)}`", text)
    return re.sub(r"`self\.(\w+)`", lambda m: f"the `{cls}`'s `{m.group(1)}`", text)


def decisive(f: Facts) -> list[GuardFact]:
    """The guards that make this raise happen: the ones that hold as written; an ``elif``/early-exit
    negation (an earlier check that passed) only when nothing else is known."""
    gs = [g for g in f.guards[-MAX_GUARDS:] if g.words]
    pos = [g for g in gs if not g.guard.negated or _early_exit(g)]
    return pos or gs[-1:]


def local_only(f: Facts, g: GuardFact) -> bool:
    """Whether the guard reads only names the raising function computed itself (``is_squeezed``,
    ``reg_ty``): true of the user's input only through code the page cannot show, so not said."""
    if g.options or not g.names:
        return False
    if any(p.startswith("_") for n in g.names for p in n.split(".")[1:]):
        return True  # a private attribute (``self._long_opt``): the object's internals, not the user's input
    if not f.whole_function:
        if f.public_path.depth != 0 or not f.public_path.entries:
            return False  # without the ``def`` the parameters are unknown
        # the public call's ``def`` is above the snippet: a name is its argument only on evidence (``unseen_argument``);
        # a module whose function the guard calls (``utils`` of ``utils.bitwidth(dtype)``) is no value at all
        unpacked = unpacked_names(f.site.snippet, g.guard.line, f.site.snippet_start)
        heads = {unpacked.get(h, h).split(".", 1)[0].split("[", 1)[0]
                 for h in (n.split(".", 1)[0] for n in value_names(g))} - {"self", "cls"}
        heads -= {h for h in heads if re.search(rf"(?<![\w.]){re.escape(h)}\.\w+\(", g.guard.source)}
        return bool(heads) and "self" not in {n.split(".", 1)[0] for n in g.names} and not any(
            unseen_argument(f, h) for h in heads)
    unpacked = unpacked_names(f.site.snippet, g.guard.line, f.site.snippet_start)
    heads = {unpacked.get(h, h).split(".", 1)[0] for h in (n.split(".", 1)[0] for n in g.names)}
    if heads and heads <= set(f.params) and helper_params(f, heads):
        return True  # ``FloatRange._clamp(bound, dir, open)``: what the library passes its own helper
    if heads & (set(f.params) | {"self", "cls"}):
        return False
    assigned = {h for h in heads if re.search(rf"^\s*(?:[\w, ]*\b{re.escape(h)}\b[\w, ]*)\s*=[^=]|"
                                                rf"\bfor\s+[\w, ]*\b{re.escape(h)}\b|\({re.escape(h)}\s*:=",
                                                f.site.snippet, re.MULTILINE)}
    return heads <= assigned


def helper_params(f: Facts, names: set[str]) -> bool:
    """Whether ``names``, parameters of the raising function, are what the library passes to a private
    helper of its own rather than the user's arguments: the helper is reached from the public call
    through other functions, its own name is private, and the library's tests were seen calling the
    public entry with arguments of other names (``open`` of ``FloatRange._clamp``, reached from
    ``convert(value, param, ctx)``)."""
    last = f.site.qualname.split(".<locals>.")[0].rsplit(".", 1)[-1]
    if f.public_path.depth == 0 or not last.startswith("_") or last.startswith("__"):
        return False
    seen = observed_args(f)
    return bool(seen) and not names & seen


def _early_exit(g: GuardFact) -> bool:
    """``if axes is None: return`` before the raise: a condition of its own, not a branch not taken."""
    return g.guard.source.endswith((": return", ": continue", ": break"))


def conditions(f: Facts) -> list[str]:
    """The decisive guards as words (the ones on the function's own locals left out); code quoted
    when no rule read it."""
    out = [user_words(f, g.words) for g in decisive(f) if not local_only(f, g)]
    if not out and not any(local_only(f, g) for g in f.guards):
        for g in f.guards[-1:]:
            if g.guard.normalized and len(g.guard.normalized) <= 100:
                out.append(f"`{g.guard.normalized}` holds")
    return out


def worked_out(f: Facts) -> tuple[list[str], list[str]]:
    """(the decisive guards on values the raising function works out itself, in words; the arguments
    those values come from, when the snippet shows it): said with that qualification rather than
    left out, when no guard reads the user's arguments directly (``utils.bitwidth(dtype) < 32``
    where ``dtype = array.mlir_dtype`` for each of ``arrays``)."""
    gs = [g for g in decisive(f) if local_only(f, g) and g.words and len(g.guard.normalized) <= 120
          and not any(p.startswith("_") for n in g.names for p in n.split(".")[1:])]  # not ``self._long_opt``
    if not gs or len(gs) != len(decisive(f)):
        return [], []
    srcs: list[str] = []
    for g in gs:
        for n in g.names:
            srcs.extend(x for x in inputs_of(f, n.split(".", 1)[0]) if x not in srcs)
    return [user_words(f, g.words) for g in gs], srcs


def sole_placeholder(f: Facts) -> str:
    """"array.mlir_dtype" when the message is nothing but one value (``raise NotImplementedError(array.mlir_dtype)``)."""
    segs = f.site.template.segments
    values = [s for s in segs if not s.is_literal]
    if len(f.site.templates) != 1 or len(values) != 1 or any(s.text.strip() for s in segs if s.is_literal):
        return ""
    return values[0].expr or ""


def negation(f: Facts, g: GuardFact) -> str:
    return user_words(f, describe_negation(g.guard, g.options, snippet=f.site.snippet,
                                           snippet_start=f.site.snippet_start))


def user_reads(f: Facts, g: GuardFact) -> bool:
    """Whether the guard reads something a caller controls: a parameter of the public call, an
    attribute of the object the user holds, or an option; not a local the function computed."""
    if g.options:
        return True
    if g.rebound:  # the function rebuilt the argument first (``axes = (axes,)``): a check on it is no check on it
        return False
    names = value_names(g)
    if not names:
        return False
    if any(p.startswith("_") for n in names for p in n.split(".")[1:]):  # a private attribute
        return False
    unpacked = unpacked_names(f.site.snippet, g.guard.line, f.site.snippet_start)
    heads = {unpacked.get(h, h).split(".", 1)[0].split("[", 1)[0] for h in (n.split(".", 1)[0] for n in names)}
    if not f.whole_function and f.public_path.depth == 0 and f.public_path.entries and "self" not in heads:
        # the ``def`` is above the snippet: the parameters the snippet's part of the signature lists,
        # and names it reads and then fills in a default for (``if length is None: length = ...``),
        # are the call's arguments; a name it only reads may be a local computed above (``output_shape``)
        return all(unseen_argument(f, h) for h in heads)
    if "self" in heads:  # the object the user holds: only when its method is what the user calls
        return bool(f.public_path.entries) and f.public_path.depth == 0 and heads <= set(f.params) | {"self"}
    # parameters, passed down from the public call (a primitive's rule gets the call's keywords), or
    # arguments of that call as the library's tests were seen passing them (``click.progressbar(iterable=...)``);
    # not what the library passes a private helper of its own (``open`` of ``FloatRange._clamp``)
    if heads and heads <= set(f.params) and helper_params(f, heads):
        return False
    return bool(heads) and (heads <= set(f.params) or heads <= observed_args(f))


def observed_args(f: Facts) -> set[str]:
    """The argument names recorded for the page's first public call in the observed runs of the library's tests."""
    if not f.public_path.entries:
        return set()
    last = f.public_path.entries[0].rsplit(".", 1)[-1]
    return {a.name for o in f.observed if o.entry.rsplit(".", 1)[-1] == last for a in o.entry_args}


def read_first(snippet: str, name: str) -> bool:
    """Whether the snippet's first use of ``name`` reads it (or it does not use it at all): then it
    holds what the caller passed, even if a later line fills in a default."""
    for line in snippet.splitlines():
        m = re.search(rf"(?<![\w.]){re.escape(name)}\b", line)
        if m is None:
            continue
        assigned = re.match(rf"\s*(?:[\w, ]*\b{re.escape(name)}\b[\w, ]*)(?::[^=]+)?=(?!=)", line)
        return not assigned or bool(re.search(rf"(?<![\w.]){re.escape(name)}\b", line[line.index("=") + 1:]))
    return True


def unseen_argument(f: Facts, name: str) -> bool:
    """With the ``def`` above the snippet: whether ``name`` is one of the call's arguments, as the
    part of the signature the snippet shows lists it, or the snippet reads it and then fills in a
    default for it (``if vec_size is None: vec_size = 1``); a name it only reads may be a local
    computed above (``output_shape``), never said to be an argument."""
    snippet = f.site.snippet
    if name in signature_params(snippet):
        return True
    if not read_first(snippet, name):
        return False
    literal = " ".join(f.site.template.literals)
    return (assigned(snippet, name)  # a default filled in
            or name in documented_args(f.docstring)  # the docstring's ``Args:`` lists it
            or bool(re.search(rf"(?<![\w.]){re.escape(name)}\b", literal))  # the message's own text names it
            or bool(re.search(rf"isinstance\(\s*{re.escape(name)}\s*,\s*[\w.]*(?:NotSpecified|Unspecified)\b",
                              snippet)))  # compared with a "not given" sentinel


# a docstring's arguments section heading (Google's ``Args:``, NumPy's ``Parameters``); ``argdocs`` reads the same
ARGS_SECTION = re.compile(r"\s*(?:Args|Arguments|Parameters|Keyword Args)\s*:?\s*$")


def documented_args(doc: str) -> set[str]:
    """The names an ``Args:``/``Arguments:``/``Parameters`` section of a docstring lists (``meta: Metadata of ...``)."""
    out: set[str] = set()
    inside = False
    for line in doc.splitlines():
        if ARGS_SECTION.match(line):
            inside = True
            continue
        if inside:
            m = re.match(r"\s*\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:", line)
            if m:
                out.add(m.group(1))
            elif re.match(r"\s*(?:Returns|Raises|Yields|Example|Examples|Note)\s*:?\s*$", line):
                inside = False
    return out


def assigned(snippet: str, name: str) -> bool:
    """Whether some line of the snippet gives ``name`` a value."""
    return bool(re.search(rf"^\s*(?:[\w, ]*\b{re.escape(name)}\b[\w, ]*)(?::[^=\n]+)?=(?!=)", snippet, re.MULTILINE))


_SIG_END = re.compile(r"^\s*\)\s*(?:->.*)?:\s*(?:#.*)?$")
_SIG_PARAM = re.compile(r"^\s*\*{0,2}([A-Za-z_]\w*)\s*(?::[^=]+)?(?:=.+)?,?\s*(?:#.*)?$")


def signature_params(snippet: str) -> frozenset[str]:
    """The parameters of a signature whose ``def`` line is above the snippet: the one-per-line
    ``name: type = default,`` lines before the line that closes it (``) -> None:``)."""
    lines = snippet.splitlines()
    end = next((i for i, ln in enumerate(lines) if _SIG_END.match(ln)), -1)
    if end < 0 or any(re.match(r"\s*def\s", ln) for ln in lines[:end]):
        return frozenset()
    out = [m.group(1) for ln in lines[:end] if (m := _SIG_PARAM.match(ln))]
    return frozenset(n for n in out if n not in ("self", "cls"))


def value_names(g: GuardFact) -> tuple[str, ...]:
    """The guard's names without the classes it names (``api.NotSpecified``, ``Sequence``) and their modules."""
    classes = [n for n in g.names if n.rsplit(".", 1)[-1][:1].isupper()]
    return tuple(n for n in g.names if n not in classes and not any(c.startswith(n + ".") for c in classes))


def function_params(f: Facts) -> tuple[str, ...]:
    """The raising function's parameters: from its snippet, or, when that starts below the ``def``, from the
    snippet of another raise of the same function that shows it (a28d: ``optimization_barrier(*arrays)``'s
    ``def`` is 20 lines above the raise)."""
    return f.params or next((p for s in f.same_function if (p := parameters(s))), ()) or _def_params(f.function_text)


def _def_params(text: str) -> tuple[str, ...]:
    """The parameters of the ``def`` that starts ``text`` (its header on one line or a few)."""
    lines = text.splitlines()
    for j in range(min(8, len(lines))):
        try:
            tree = ast.parse(textwrap.dedent("\n".join(lines[: j + 1])) + "\n    pass")
        except SyntaxError:
            continue
        fn = tree.body[0] if tree.body else None
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = fn.args
            return tuple(x.arg for x in (*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs,
                                         *([a.kwarg] if a.kwarg else [])))
    return ()


def inputs_of(f: Facts, local: str) -> list[str]:
    """The parameters a local is computed from, when its assignment is in the snippet
    (``base, shape, is_squeezed = utils.parse_indices(idxs, self.shape)`` → ["idxs"])."""
    params = function_params(f)
    # rating 12, a28d: the assignment may sit above the raise's own snippet; lines after the raise do not count
    text = f.function_text or "\n".join(f.site.snippet.splitlines()[: max(0, f.site.line - f.site.snippet_start) + 1])
    loops = {m.group(1): m.group(2) for m in re.finditer(r"\bfor\s+(\w+)\s+in\s+(\w+)\b", text)}
    for line in reversed(text.splitlines()):  # the nearest assignment above the raise
        m = re.match(rf"\s*(?:[\w, ]*\b{re.escape(local)}\b[\w, ]*)=(?!=)(.+)$", line)
        if m:
            # a loop variable over an argument (``for array in arrays``) stands for that argument
            used = [loops.get(u, u) for u in re.findall(r"[A-Za-z_]\w*", m.group(1))]
            return [p for p in dict.fromkeys(used) if p in params]
    return []


def origins(f: Facts, locals_: set[str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """({"dtype": "array.mlir_dtype"}, [("array", "arrays")]): each local the check reads that the function assigns,
    nearest above the raise, from an attribute of what the user passes or of each item of it (``for array in
    arrays``), and the loops that give those items; ({}, []) unless every such local is."""
    params = set(function_params(f))
    text = f.function_text or ""
    loops = {m.group(1): m.group(2) for m in re.finditer(r"\bfor\s+(\w+)\s+in\s+(\w+)\b", text)}
    out: dict[str, str] = {}
    items: list[tuple[str, str]] = []
    for local in sorted(locals_):
        rhs = next((m.group(1).strip() for ln in reversed(text.splitlines())
                    if (m := re.match(rf"\s*{re.escape(local)}\s*=(?!=)\s*([\w.\[\]]+)\s*$", ln))), "")
        head = re.split(r"[.\[]", rhs, maxsplit=1)[0]
        if not rhs or rhs == head or (head not in params and loops.get(head) not in params):
            return {}, []
        if head in loops and (head, loops[head]) not in items:
            items.append((head, loops[head]))
        out[local] = rhs
    return out, items


def _substitute(words: str, subst: dict[str, str]) -> str:
    """The code spans of ``words`` with each local replaced by its value (```dtype.bits``` -> ```array.dtype.bits```)."""
    def span(m: re.Match[str]) -> str:
        code = m.group(1)
        for local, rhs in subst.items():
            code = re.sub(rf"(?<![\w.]){re.escape(local)}\b", rhs, code)
        return f"`{code}`"
    return re.sub(r"`([^`]+)`", span, words)


def naming(f: Facts, g: GuardFact) -> str:
    """" (`x` is the `x` argument of `pkg.f`)" for the parameters the guard reads."""
    ps = [n for n in dict.fromkeys(n.split(".", 1)[0] for n in g.names) if n in f.params]
    if not ps or f.public_path.depth > 0 or not f.public_path.entries:
        return ""
    args = " and ".join(f"`{p}`" for p in ps[:2])
    return f" (its {args} argument{'s' if len(ps) > 1 else ''})"


def join(parts: list[str], word: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def message_text(f: Facts) -> str:
    return " ".join(f.site.template.render().split())


def fixed_words(f: Facts) -> str:
    """The message's text up to the first value it fills in, without a closing "got:" ("Scalar type must match
    ShapedArray dtype"): the words every instance of this error starts with."""
    return re.sub(r"[\s,:;(]*(?:\b(?:but\s+)?(?:got|found|was|is))?[\s,:;(]*$", "",
                  message_text(f).split("{", 1)[0]).strip()


def guard_evidence(f: Facts) -> list[Evidence]:
    return [Evidence(kind="guard", text=f"{g.guard.kind} {g.guard.source}".strip(), path=f.site.path,
                     line=g.guard.line, url=f.snapshot.source_url(f.site.path, g.guard.line))
            for g in f.guards[-MAX_GUARDS:]]


def one_guard(f: Facts, line: int, source: str, kind: str) -> Evidence:
    return Evidence(kind="guard", text=f"{kind} {source}", path=f.site.path, line=line,
                    url=f.snapshot.source_url(f.site.path, line))


def raise_evidence(f: Facts) -> Evidence:
    return Evidence(kind="template", text=f.site.template.render(), path=f.site.path, line=f.site.line,
                    url=f.source_url)


def option_evidence(o: ConfigOption, f: Facts) -> Evidence:
    text = f"{o.name} (default {o.default})" + (f": {o.help}" if o.help else "")
    return Evidence(kind="config", text=text, path=o.path, line=o.line, url=f.snapshot.source_url(o.path, o.line))


def test_evidence(path: str, line: int, name: str, url: str) -> Evidence:
    return Evidence(kind="test", text=name, path=path, line=line, url=url)


def contrast(f: Facts) -> list[tuple[str, str, str]]:
    """(test, statement that runs fine, statement that raises) from linked tests: a test's statements
    before its ``with pytest.raises`` block ran without the error, or the test would have failed."""
    out: list[tuple[str, str, str]] = []
    for link in f.tests[:2]:
        code = link.test.code.splitlines()
        inside = [i for i, ln in enumerate(code) if re.search(r"\b(raises|assertRaises\w*|warns)\(", ln)]
        if not inside:
            continue
        k = inside[-1]
        before = [ln.strip() for ln in code[:k] if re.match(r"\s*(?:\w+\s*=\s*)?\w+\(.*\)\s*(?:#.*)?$", ln)]
        after = [ln.strip() for ln in code[k + 1:] if ln.strip() and not ln.strip().startswith(("with ", "#"))]
        if before and after:
            out.append((link.test.test_name, before[-1].split("#")[0].strip(), after[-1].split("#")[0].strip()))
    return out


def worked_out_clause(f: Facts) -> str:
    """"`utils.bitwidth(dtype)` is less than `32` (values it works out from your `arrays`)": the check
    on the function's own values, qualified as such, when that is all the page knows; ""."""
    conds, srcs = worked_out(f)
    if not conds or conditions(f):
        return ""
    heads = {n.split(".", 1)[0] for g in decisive(f) for n in g.names}
    if heads and heads <= set(f.params) and helper_params(f, heads):
        private = any(p.startswith("_") and not p.startswith("__") for p in f.site.qualname.split("."))
        helper = "an internal helper" if private else f"its own `{f.site.qualname}`"  # public names only (951f)
        return join(conds) + f" (what {package(f)} passes to {helper} on the way)"
    src = join([f"`{x}`" for x in srcs[:3]])
    yours = f.public_path.depth == 0 and bool(f.public_path.entries)  # its arguments are the user's
    subst, items = origins(f, heads - set(f.params))
    if subst and src and yours:  # rating 12, a28d: the locals replaced by what they are of the user's arguments
        each = (f"for each `{items[0][0]}` of the `{items[0][1]}` you pass" if len(items) == 1
                and src == f"`{items[0][1]}`" else f"values of the {src} you pass")
        return join([_substitute(c, subst) for c in conds]) + f" ({each})"
    # the local's name means nothing to a user: said in words (rating 5: ``is_squeezed``, ``writer``)
    found = found_by(_own_lines(f), heads - set(f.params))  # ``writer = _find_binary_writer(...)`` (ad70)
    conds = [in_words(c, heads - set(f.params), found) for c in conds]
    for local, call, tests, entry_of in f.flag_sources:  # the helper that fills the flags says when (7554)
        if local in heads and src:
            cases = cases_words(tests[:3], entry_of if entry_of in f.params else "")
            return join(conds) + (f" (flags `{call}` works out from the {src} you pass, a true one where "
                                  f"{cases})" if yours else
                                  f" (flags `{call}` works out from its {src} argument, a true one where {cases})")
    state = "" if src else process_state(f)  # rating 10, ad70: the state it reads (`sys.stderr`), when that is all
    return join(conds) + (f" (values it works out from the {src} you pass)" if src and yours else
                          f" (values it works out from its {src} argument{'s' if len(srcs) > 1 else ''})"
                          if src else f" (values it works out from {state})" if state else
                          " (values it works out inside the call)")


def _own_lines(f: Facts) -> str:
    """The raising function's own lines of the snippet, up to the raise."""
    lines = f.site.snippet.splitlines()[: max(0, f.site.line - f.site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if re.match(r"\s*(?:async\s+)?def\s", ln)]
    return "\n".join(lines[starts[-1]:] if starts else lines)


def state_read(f: Facts) -> str:
    """"`sys.stderr`": the module attributes the failing check's value is computed from
    (``writer = _find_binary_writer(sys.stderr)`` for a guard on ``writer``)."""
    lines = f.site.snippet.splitlines()[: max(0, f.site.line - f.site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if re.match(r"\s*(?:async\s+)?def\s", ln)]
    body = lines[starts[-1]:] if starts else lines  # the raising function's own lines, up to the raise
    found: list[str] = []
    for g in decisive(f):
        for n in g.names:
            head = n.split(".", 1)[0]
            for line in body:
                m = re.match(rf"\s*{re.escape(head)}\s*(?::[^=]+)?=(?!=)(.+)$", line)
                if m:
                    found.extend(a for a in re.findall(r"\b([a-z_]\w*\.[a-z_]\w*)\b(?!\s*\()", m.group(1))
                                 if a not in found)
    return join([f"`{a}`" for a in found[:2]], "or")


def process_state(f: Facts) -> str:
    """The module-level state (``sys.stderr``, not ``self.x``) a module-level function without parameters works out
    the value it checks from (``state_read``), or "": what decides the error is the process's state, not a call's
    arguments nor an object's."""
    if f.params or not f.whole_function or "." in f.site.qualname or "<" in f.site.qualname:
        return ""
    state = state_read(f)
    return "" if re.search(r"`(?:self|cls)\.", state) else state
