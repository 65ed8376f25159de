"""Related errors by real relations, ranked, at most five: the same message, the same function, another
rule of the same operation, the same guard variables, a check of an option of the same family
(``optionfamily``), the same public entry, the same test, a similar message.

Every candidate gets a score from the reasons that apply (each reason is a
fact that the page states: "raised in the same function"), ties broken by
distance in the file so the neighbours of a raise come first.  When nothing
is related, the list is empty: "same module, same exception type" told the
reader nothing (docs/pages-rating.md) and is no longer offered; nor is an error whose only relation is
being raised by another method of the same class (it says where the code lives, not how the two
errors relate), nor a name the guards only call through (a module: ``utils.bitwidth(x)``).
"""

from __future__ import annotations

import re

from errdex.analyze.classfamily import class_siblings
from errdex.analyze.context import SnapshotContext
from errdex.analyze.earlyexit import parameters
from errdex.analyze.guardwords import guard_names
from errdex.analyze.optionfamily import family, family_reason
from errdex.analyze.optionlink import options_for_guard
from errdex.analyze.public_path import rule_operation
from errdex.model import ErrorSite, RelatedError

MAX_RELATED = 5
_WORD = re.compile(r"[a-z_][a-z0-9_]{2,}")
_STOP = frozenset({"the", "and", "for", "not", "with", "that", "this", "must", "are", "was", "got", "but",
                   "has", "have", "from", "which", "when", "use", "can"})


def _key(site: ErrorSite) -> tuple[str, int, str]:
    return (site.path, site.line, site.error_id)


def _words(site: ErrorSite, ctx: SnapshotContext) -> frozenset[str]:
    key = _key(site)
    out = ctx.word_cache.get(key)
    if out is None:
        out = frozenset({w for t in site.templates for lit in t.literals for w in _WORD.findall(lit.lower())} - _STOP)
        ctx.word_cache[key] = out
    return out


def _guard_vars(site: ErrorSite, ctx: SnapshotContext) -> frozenset[str]:
    key = _key(site)
    out = ctx.var_cache.get(key)
    if out is None:
        out = frozenset(n for g in site.guards for n in guard_names(g) if ("." in n or len(n) > 2)
                        and not _only_called_through(n, site))
        ctx.var_cache[key] = out
    return out


def _only_called_through(name: str, site: ErrorSite) -> bool:
    """A bare name every guard reads only to call something of it (``utils`` of ``utils.bitwidth(x)``):
    a module or helper, not a value two checks share (rating 5, a28d: "guarded by the same `utils`")."""
    if "." in name:
        return False
    texts = [g.normalized for g in site.guards if re.search(rf"\b{re.escape(name)}\b", g.normalized)]
    return bool(texts) and all(
        not re.search(rf"(?<![.\w]){re.escape(name)}\b(?!\.\w+\s*\()", t) for t in texts)


def _word_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    if not ctx.site_words:
        for s in ctx.sites:
            for w in _words(s, ctx):
                ctx.site_words.setdefault(w, []).append(s)
    return ctx.site_words


_COMMON_MODULES = frozenset({"math", "os", "sys", "np", "numpy", "jnp", "operator", "itertools", "functools",
                             "builtins", "typing", "collections", "re", "inspect", "dataclasses", "enum", "abc"})


def _global_name(var: str) -> bool:
    """A module-level object's attribute (``config.no_tracing.value``), not ``self.x``, a parameter's
    attribute (``a.dtype``), a class named in a type check (``ir.F32Type``) or a common module's function."""
    head = var.split(".", 1)[0]
    last = var.rsplit(".", 1)[-1]
    return ("." in var and head not in ("self", "cls") and not head.startswith("_") and len(head) >= 3
            and not last[:1].isupper() and head not in _COMMON_MODULES)


def _shared_vars(mine: frozenset[str], other: frozenset[str]) -> list[str]:
    """Variables both guards read, without ``self`` and module or class names (``api`` of ``api.NotSpecified``)."""
    shared = mine & other
    classes = {v.rsplit(".", 1)[0] for v in shared | mine if "." in v and v.rsplit(".", 1)[-1][:1].isupper()}
    return sorted(v for v in shared if v not in ("self", "cls") and not v.rsplit(".", 1)[-1][:1].isupper()
                  and v not in classes and v.split(".", 1)[0] not in _COMMON_MODULES)


def _var_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    if "vars" not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            for v in _guard_vars(s, ctx):
                if _global_name(v):
                    idx.setdefault(v, []).append(s)
        ctx.relation_index["vars"] = idx
    return ctx.relation_index["vars"]


def _entry_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    if "entries" not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            for e in ctx.public_path(s).entries[:1]:
                idx.setdefault(e, []).append(s)
        ctx.relation_index["entries"] = idx
    return ctx.relation_index["entries"]


def _test_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    if "tests" not in ctx.relation_index:
        by_id: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            by_id.setdefault(s.error_id, []).append(s)
        idx: dict[str, list[ErrorSite]] = {}
        for eid, links in ctx.test_links().items():
            for link in links:
                idx.setdefault(f"{link[0].path}::{link[0].test_name}", []).extend(by_id.get(eid, []))
        ctx.relation_index["tests"] = idx
    return ctx.relation_index["tests"]


def title(site: ErrorSite) -> str:
    text = site.template.render().strip() or site.exception_name
    text = " ".join(text.split())
    if (name := forwarded_message(site)):  # one caller's text would read as this site's own (rating 13, a1ee)
        example = text[:57] + "..." if len(text) > 60 else text
        return f"{site.exception_name}: {{{name}}} (the message its callers pass, e.g. \"{example}\")"
    return f"{site.exception_name}: {text[:117] + '...' if len(text) > 120 else text}"


def forwarded_message(site: ErrorSite) -> str:
    """The parameter a raise passes on as its message when every message it has comes from its callers ("" when
    not): the raise's own text is a bare name (``raise BadParameter(message)``), its several templates are its
    callers' arguments, and the first of them is not written in the raising function's source (a default such
    as ``message = "No such option"`` is the site's own and stays its title)."""
    if len(site.templates) < 2 or len(site.unresolved) != 1 or not site.unresolved[0].isidentifier():
        return ""
    words = [seg.text.strip() for seg in site.template.segments if seg.expr is None and len(seg.text.strip()) >= 4]
    if not words or any(w in site.snippet for w in words):
        return ""
    # the name is a parameter of the raising function (``def fail(self, message, ...)``), not one the exception's
    # own ``__init__`` fills with its default (``raise NoSuchOption(opt)``: "No such option" is that site's message)
    lines = site.snippet.splitlines()[: max(0, site.line - site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if re.match(r"\s*(?:async\s+)?def\s", ln)]
    if not starts:
        return ""
    signature = "\n".join(lines[starts[-1]:]).split(":\n", 1)[0]
    return site.unresolved[0] if re.search(rf"\b{re.escape(site.unresolved[0])}\b", signature) else ""


def _rule_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    """operation -> the sites in its rules (``_run_scoped_lowering_rule``, ``_run_scoped_discharge_rule``)."""
    key = "rule-operation"
    if key not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            op = rule_operation(s.qualname.split(".<locals>.", 1)[0])
            if op:
                idx.setdefault(op, []).append(s)
        ctx.relation_index[key] = idx
    return ctx.relation_index[key]


def _class_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    """A class the package defines (``click.exceptions.Exit``) -> the sites that raise it; builtins left
    out (``TypeError`` is raised everywhere and relates nothing)."""
    if "classes" not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            if "." in s.exception_resolved and s.kind == "error":
                idx.setdefault(s.exception_resolved, []).append(s)
        ctx.relation_index["classes"] = idx
    return ctx.relation_index["classes"]


def _option_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    """Option name -> the sites whose guards read it (``optionlink``)."""
    if "options" not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites if ctx.options else []:
            for name in sorted({o.name for g in s.guards for o in options_for_guard(g, s, ctx)}):
                idx.setdefault(name, []).append(s)
        ctx.relation_index["options"] = idx
    return ctx.relation_index["options"]


def related_errors(site: ErrorSite, ctx: SnapshotContext) -> tuple[RelatedError, ...]:
    mine_words = _words(site, ctx)
    mine_vars = _guard_vars(site, ctx)
    scored: dict[str, tuple[float, int, ErrorSite, list[str]]] = {}

    def consider(other: ErrorSite, points: float, reason: str) -> None:
        if other.error_id == site.error_id or not other.error_id:
            return
        if not any(t.strip() for t in other.template.literals) and not reason.startswith(
                ("raised in the same function", "raises the same `", "raises `")):
            return  # "Exception: Exception" tells the reader nothing (but a class of the package's own does)
        prev = scored.get(other.error_id)
        if prev is None:
            dist = abs(other.line - site.line) if other.path == site.path else 10**6
            scored[other.error_id] = (points, dist, other, [reason])
        elif reason not in prev[3] and "no closer relation" not in reason:
            scored[other.error_id] = (prev[0] + points, prev[1], other, [*prev[3], reason])

    for other in ctx.same_text(site):
        consider(other, 4.0, f"the same message, raised in `{other.qualname}`")
    for other in ctx.sites_by_function.get((site.path, site.qualname), []):
        consider(other, 3.0, "raised in the same function")
    mine_opts = {o.name: o for g in site.guards for o in options_for_guard(g, site, ctx)}
    for opt in mine_opts.values():  # a check of an option of the same family (rating 8: fef1 and 53c4)
        for kin in family(opt, ctx.options)[:3]:
            for other in [] if kin.name in mine_opts else _option_index(ctx).get(kin.name, [])[:4]:
                consider(other, 2.5, family_reason(opt, kin))
    for var in sorted(v for v in mine_vars if _global_name(v) and not any(w.startswith(v + ".") for w in mine_vars)):
        for other in _var_index(ctx).get(var, [])[:50]:
            if other.path != site.path:
                consider(other, 2.5, f"checks the same `{var}`")
    op = rule_operation(site.qualname.split(".<locals>.", 1)[0])
    if op:
        for other in _rule_index(ctx).get(op, []):
            same = _shared_vars(mine_vars, _guard_vars(other, ctx))
            if same:
                consider(other, 4.0, f"another rule of the same operation `{op}`, checking the same `{same[0]}`")
            else:
                consider(other, 1.5, f"another rule of the same operation `{op}`")
    mine_entries = ctx.public_path(site).entries[:1]
    for entry in mine_entries:
        others = _entry_index(ctx).get(entry, [])
        if len(others) <= 12:  # an entry that reaches dozens of raises says little about any two
            for other in others:
                consider(other, 1.5, f"also raised by a call of `{entry}`")
    objects = object_raises(site, ctx)
    for other, reason in objects:  # rating 12: 03ef's `ProgressBar`, a1ee's `ParamType`
        consider(other, 1.5, reason)
    said = {o.error_id for o, _ in objects}
    cls = _class_of(site)
    if cls and cls[:1].isupper():  # another method of the same class (``ProgressBar.__init__`` / ``.generator``)
        siblings = [o for o in ctx.sites_by_module.get(site.path, [])
                    if o.qualname.split(".<locals>.", 1)[0].rpartition(".")[0] == cls and o.qualname != site.qualname]
        if len(siblings) <= 3:  # a class with more raises says little about any two (click.Context)
            for other in [o for o in siblings if o.error_id not in said]:
                consider(other, 1.0, f"raised by another method of `{cls}` (`{other.qualname.rsplit('.', 1)[-1]}`)")
    for test in {link[0].test_name: link[0] for link in ctx.tests_for_site(site)}.values():
        for other in _test_index(ctx).get(f"{test.path}::{test.test_name}", []):
            consider(other, 2.0, f"expected by the same test `{test.test_name}`")
    raisers = _class_index(ctx).get(site.exception_resolved, []) if "." in site.exception_resolved else []
    if len(raisers) <= 8:  # a handler of this class catches these too (rating 6: click's Exit, from Context.exit)
        for other in raisers:
            consider(other, 1.0, f"raises the same `{site.exception_resolved.rsplit('.', 1)[-1]}` "
                                 f"(`{site.exception_resolved}`), in `{other.qualname}`")
    for sib in class_siblings(site.exception_resolved, ctx.classes):  # rating 8, 5b54: click's Exit and Abort
        raising = _class_index(ctx).get(sib.qualname, [])
        for other in raising if len(raising) <= 8 else []:
            consider(other, 1.0, f"raises `{sib.qualname.rsplit('.', 1)[-1]}` (`{sib.qualname}`), the class defined "
                                 f"next to `{site.exception_name}` on the same base "
                                 + ", ".join(f"`{b.rsplit('.', 1)[-1]}`" for b in sib.bases[:2])
                                 + f", in `{other.qualname}`")
    module_sites = ctx.sites_by_module.get(site.path, [])
    for other in module_sites:
        if mine_vars:
            shared = [v for v in _shared_vars(mine_vars, _guard_vars(other, ctx)) if _same_value(v, site, other)]
            if shared:
                consider(other, 2.0, "guarded by the same " + ", ".join(f"`{v}`" for v in shared[:2]))
    if mine_words:
        for other in module_sites:
            ow = _words(other, ctx)
            if ow:
                jac = len(mine_words & ow) / len(mine_words | ow)
                if jac >= 0.4:
                    consider(other, 2.0 * jac, "similar message")
    if len(scored) < MAX_RELATED and mine_words:
        index = _word_index(ctx)
        # the two rarest words; the word itself breaks ties, so the pick does not follow the hash seed's set order
        for w in sorted(mine_words, key=lambda w: (len(index.get(w, ())), w))[:2]:
            for other in index.get(w, [])[:200]:
                if other.path == site.path:
                    continue
                ow = _words(other, ctx)
                jac = len(mine_words & ow) / len(mine_words | ow)
                if jac >= 0.3:
                    consider(other, 1.5 * jac, "similar message in another module")
    ranked = sorted(scored.values(), key=lambda x: (-x[0], x[1], x[2].error_id))
    out: list[RelatedError] = []
    repeats: list[RelatedError] = []
    titles = {title(site)}
    for _, _, o, r in ranked:
        t = title(o)
        if all(x.startswith("raised by another method of") for x in r):
            continue  # where the code lives, not how the two errors relate (rating 5: 03ef, 4e10, bce3)
        if _weak(site, o, r, ctx):
            continue
        item = RelatedError(error_id=o.error_id, title=t, reason="; ".join(r))
        if t in titles and not r[0].startswith("the same message"):
            repeats.append(item)  # a repeated title for another reason: only if nothing else is related
            continue
        titles.add(t)
        out.append(item)
        if len(out) == MAX_RELATED:
            break
    if not out:
        out = repeats[:2]
    return tuple(out)


# a class given where the check wants its instance or a subclass: the value is that class itself (a1ee: `ParamType`),
# not any value a type check sorts (``isinstance(sharding, Format)`` relates nothing of `Format`'s to this raise)
_TYPE_CHECK = re.compile(r"\bissubclass\(\s*[\w.]+\s*,\s*([\w.]+)\s*\)")
_MAX_OBJECT_RAISES = 3


def _class_of(site: ErrorSite) -> str:
    return site.qualname.split(".<locals>.", 1)[0].rpartition(".")[0]


def _raises_of_class(cls_short: str, path: str, site: ErrorSite, ctx: SnapshotContext) -> list[ErrorSite]:
    """The raises in ``cls_short``'s own methods (defined in ``path``), this one left out; none when the class
    has more than a few (a class with many raises says little about any two: click's ``Context``)."""
    out = [o for o in ctx.sites_by_module.get(path, []) if _class_of(o) == cls_short and o.error_id != site.error_id
           and o.kind == "error" and not _private_method(o)]
    return out if len(out) <= _MAX_OBJECT_RAISES else []


def _private_method(site: ErrorSite) -> bool:
    """A method users do not call (``ShapedArray._len``); special methods (``__iter__``) are how they use it."""
    name = site.qualname.split(".<locals>.", 1)[0].rpartition(".")[2]
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _checked_class(site: ErrorSite, ctx: SnapshotContext) -> tuple[str, str, str] | None:
    """(short name, path, the check's text) of the package class a guard of this raise tests a value against
    (``issubclass(guessed, ParamType)``), when one class of the package has that name."""
    pkg = site.module.split(".", 1)[0]
    for g in site.guards:
        text = g.normalized or g.source
        for m in _TYPE_CHECK.finditer(text):
            short = m.group(1).rsplit(".", 1)[-1]
            found = [c for q, c in ctx.classes.items() if q.rsplit(".", 1)[-1] == short and q.split(".", 1)[0] == pkg]
            if len(found) == 1:
                return short, found[0].path, m.group(0)
    return None


def object_raises(site: ErrorSite, ctx: SnapshotContext) -> list[tuple[ErrorSite, str]]:
    """Other raises of the object this error is about, with the relation said (rating 12, where readers asked
    for them after rating 5 had dropped "another method of the same class"): the other methods of the class
    whose constructor raises here, reached by using the object the public call makes (03ef: `ProgressBar`'s
    "use progress bars in a with block"); the methods of the package class the check tests a value against
    (a1ee: `issubclass(guessed, ParamType)`, and `ParamType.fail` raises `BadParameter`)."""
    out: list[tuple[ErrorSite, str]] = []
    cls = _class_of(site)
    method = site.qualname.split(".<locals>.", 1)[0].rpartition(".")[2]
    entries = ctx.public_path(site).entries
    # a function that makes the object (not the class the user names itself, whose other methods are as many
    # as it has): the object it hands out is used next, and its other methods' raises are that use's misuses
    route = ctx.public_path(site)  # the public call makes it itself (``progressbar`` -> ``ProgressBar(...)``)
    if cls and method in ("__init__", "__new__") and entries and entries[0].rsplit(".", 1)[-1] != cls \
            and route.depth == 1:
        for other in _raises_of_class(cls, site.path, site, ctx):
            if other.qualname.split(".<locals>.", 1)[0].rpartition(".")[2] not in ("__init__", "__new__"):
                out.append((other, f"raised by `{other.qualname}` when the `{cls}` that `{entries[0]}` makes is "
                                   "used: another misuse of the same object"))
    checked = _checked_class(site, ctx)
    if checked is not None and checked[0] != cls:
        short, path, check = checked
        for other in _raises_of_class(short, path, site, ctx):
            out.append((other, f"raised by `{other.qualname}`, a method of `{short}`, the class this check is "
                               f"about (`{check}`)"))
    return out


def _weak(site: ErrorSite, other: ErrorSite, reasons: list[str], ctx: SnapshotContext) -> bool:
    """A relation too weak to show (rating 7: abf6's "also raised by a call of `jax.empty_ref`" entries, eb3a's
    OSError): the only reason is a public entry the two share (an entry reaches many raises; it says nothing of
    these two), or the same function when the other raise is of another, non-warning class and its checks share
    nothing with this one's (another failure that happens to sit in the same body)."""
    if len(reasons) != 1:
        return False
    r = reasons[0]
    if r.startswith("also raised by a call of"):
        return True
    if r == "raised in the same function":
        other_warns = other.kind != "error" or other.exception_name.endswith("Warning")
        return (not other_warns and other.exception_name != site.exception_name
                and not _shared_vars(_guard_vars(site, ctx), _guard_vars(other, ctx)))
    return False


def _same_value(var: str, site: ErrorSite, other: ErrorSite) -> bool:
    """Whether a shared guard name is the same value in both checks: always in the same function; in another
    function a bare name (``i32``, rating 7's a28d "guarded by the same `i32`") is only where it is a parameter
    of both raising functions, or where both messages show it, else it is two locals or a module constant."""
    if "." in var or other.qualname == site.qualname:
        return True
    mine, theirs = parameters(site), parameters(other)
    if mine and theirs:
        return var in mine and var in theirs
    shown = re.compile(rf"\{{[^}}]*\b{re.escape(var)}\b")
    return all(any(shown.search(t.render()) for t in s.templates) for s in (site, other))


def related_note(site: ErrorSite, ctx: SnapshotContext, related: tuple[RelatedError, ...]) -> str:
    """Why the page lists no related error, in this error's own facts (rating 7: an empty Related read as a
    placeholder): what was looked for (the checked values, the function, the public entry, the tests, the
    exception class) and what each gave.  Empty when errors are listed."""
    if related:
        return ""
    pkg = site.module.split(".", 1)[0] or "the package"
    facts: list[str] = []
    options = sorted({o.name for g in site.guards for o in options_for_guard(g, site, ctx)})
    mine = _guard_vars(site, ctx)
    names = sorted(v for v in mine if v not in ("self", "cls") and not v.rsplit(".", 1)[-1][:1].isupper()
                   and not any(w.startswith(v + ".") for w in mine))[:2]  # `config.x`, not `config` too
    if options:  # the option by its public name, not the attribute the check reads (fef1: `jax_no_execution`)
        facts.append("reads the " + " or ".join(f"`{o}`" for o in options[:2]) + f" option{'s' * (len(options) > 1)}")
    elif names:
        facts.append("checks " + " or ".join(f"`{v}`" for v in names))
    if len(ctx.sites_by_function.get((site.path, site.qualname), [])) <= 1:
        facts.append(f"is raised in `{site.qualname}`")
    tests = sorted({link[0].test_name for link in ctx.tests_for_site(site)})
    if tests:
        facts.append(f"is expected by the test `{tests[0]}`")
    parts = [f"no other {pkg} error " + (", ".join(facts[:-1]) + " or " + facts[-1] if len(facts) > 1
                                         else facts[0] if facts else "shares this one's message")]
    entries = ctx.public_path(site).entries[:1]
    if entries:
        n = len(_entry_index(ctx).get(entries[0], []))
        parts.append(f"`{entries[0]}` reaches {n} raises, too many for a shared caller to relate two of them"
                     if n > 12 else f"`{entries[0]}` reaches no other raise" if n <= 1
                     else f"the other raises that `{entries[0]}` reaches share no check with this one")
    else:
        parts.append(f"no public function of {pkg} reaches it, so no caller is shared")
    parts.append(_hierarchy_words(site, ctx, pkg))
    return "No related errors: " + "; ".join(parts) + "."


def _hierarchy_words(site: ErrorSite, ctx: SnapshotContext, pkg: str) -> str:
    """What the exception class gives: a builtin relates nothing; a class of the package's own is raised
    elsewhere or not, and has subclasses or bases of the package's own or not."""
    cls = site.exception_resolved
    short = site.exception_name
    if "." not in cls:
        return f"`{short}` is a builtin class, which relates nothing by itself"
    n = len(_class_index(ctx).get(cls, []))
    kin = sorted(q.rsplit(".", 1)[-1] for q, c in ctx.classes.items()
                 if q != cls and (cls in c.bases or q in site.exception_bases))
    where = (f"`{short}` is raised at {n} places, too many to list as related" if n > 8
             else f"`{short}` is raised nowhere else" if n <= 1
             else f"the other raises of `{short}` say the same as this one")
    return where + (f", and its kin classes ({', '.join(f'`{k}`' for k in kin[:3])}) share no check with it" if kin
                    else f", and no class of {pkg}'s own derives from it or is its base")
