"""Run INSIDE the sandbox (imported by ``search_script.py``, the file beside it); never imported by errdex
at run time.  The entry's signature as strategies of call *sources*: each parameter left out (when it
has a default), a value its guards compare with, or a value of its type hint (builtins, ``Literal``,
unions, containers, callables, the package's own classes and instances).  Python 3.10+.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import importlib.util
import inspect
import keyword
import math
import re
import sys
import types
import typing
from typing import Any

from hypothesis import strategies as st

EMPTY = inspect.Parameter.empty
OMIT = "<omit>"
BASIC = ("None", "0", "1", "-1", "''", "'x'", "True", "False", "[]", "()", "{}", "1.5")
CALLABLE = "lambda *a, **k: None"
CALLABLES: list[str] = []  # a library adapter's other functions to hand over (search_adapters.py)

# ----------------------------------------------------------------------------- entries

FACTORY = "(...)."  # ``click.progressbar(...).generator``: a method of what a public function returns
ENTER = "@enter"  # a pseudo-argument: the made object used in its ``with`` block (``with f(...) as obj:``)
CONSUME = "@consume"  # a pseudo-argument: the method is a generator function, so its first item is taken


def returned_class(fn: Any) -> type | None:
    """The class a function's return annotation names (``ProgressBar[V]`` -> ``ProgressBar``), else None; a name
    its module imports only for type checking (``if TYPE_CHECKING: from ._impl import ProgressBar``) is imported
    from where that import says."""
    hint = hints(fn).get("return")
    origin = typing.get_origin(hint) or hint
    if inspect.isclass(origin):
        return origin
    raw = (getattr(fn, "__annotations__", None) or {}).get("return")
    if not isinstance(raw, str) or not raw[:1].isidentifier():
        return None
    name = raw.split("[", 1)[0].strip().rsplit(".", 1)[-1]
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    found = getattr(module, name, None)
    if found is None and module is not None:
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError, SyntaxError):
            return None
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__ or "") \
                    if node.level else (node.module or "")
                try:
                    found = getattr(importlib.import_module(base), name, None)
                except Exception:
                    continue
                break
    return found if inspect.isclass(found) else None


def enter_name(cls: Any) -> str:
    """The name a ``with`` block binds an object of ``cls`` to: its class name's last word (``ProgressBar`` ->
    ``bar``), "" when the class cannot be entered; ``obj`` when that word is a builtin or keyword."""
    if not inspect.isclass(cls) or not hasattr(cls, "__enter__"):
        return ""
    words = re.findall(r"[A-Z]?[a-z0-9]+", cls.__name__)
    name = words[-1].lower() if words else "obj"
    return "obj" if keyword.iskeyword(name) or name in dir(builtins) or not name.isidentifier() else name


def made_call(module: str, call: str, ctor: str, args: str, enter: str, consume: bool) -> str:
    """``module.Cls(ctor).meth(args)`` (``call`` is ``Cls.meth`` or ``f(...).meth``); the method's first item
    taken when it is a generator function; inside ``with module.Cls(ctor) as <enter>:`` when ``enter``."""
    cls, meth = call.rsplit(".", 1)
    made = f"{module}.{cls.removesuffix('(...)')}({ctor})"
    expr = f"{enter or made}.{meth}({args})"
    if consume:
        expr = f"for item in {expr}:\n    break"
    if enter:
        expr = f"with {made} as {enter}:\n" + "".join(f"    {ln}\n" for ln in expr.splitlines()).rstrip("\n")
    return expr


def resolve(entry: str) -> tuple[str, Any, Any]:
    """(module spelling, owner class or None, the callable) of a dotted public name."""
    parts = entry.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        owner = None
        for p in parts[i:]:
            owner, obj = obj, getattr(obj, p)
        return ".".join(parts[:i]), (owner if inspect.isclass(owner) else None), obj
    raise LookupError(entry)


def hints(fn: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn)
    except Exception:
        return {}


def params_of(fn: Any, skip_first: bool) -> list[tuple[inspect.Parameter, Any]]:
    """(parameter, type hint) pairs; ``**kwargs`` of a constructor expanded to the bases' parameters."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    ps = list(sig.parameters.values())[1 if skip_first else 0:]
    h = hints(fn)
    out = [(p, h.get(p.name, p.annotation)) for p in ps if p.kind is not p.VAR_KEYWORD]
    if any(p.kind is p.VAR_KEYWORD for p in ps) and skip_first and inspect.isfunction(fn):
        owner = _owner_class(fn)
        names = {p.name for p, _ in out}
        for base in (owner.__mro__[1:] if owner is not None else ()):
            init = base.__dict__.get("__init__")
            if not inspect.isfunction(init):
                continue
            bh = hints(init)
            for p in list(inspect.signature(init).parameters.values())[1:]:
                if p.name not in names and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) \
                        and p.default is not EMPTY:
                    names.add(p.name)
                    out.append((p.replace(kind=p.KEYWORD_ONLY), bh.get(p.name, p.annotation)))
    return out


def _owner_class(fn: Any) -> Any:
    mod = sys.modules.get(fn.__module__)
    obj: Any = mod
    for part in fn.__qualname__.split(".")[:-1]:
        obj = getattr(obj, part, None)
    return obj if inspect.isclass(obj) else None


# ----------------------------------------------------------------------------- strategies (of source text)


def literal_ok(v: Any) -> bool:
    try:
        return bool(ast.literal_eval(repr(v)) == v)
    except Exception:
        return False


def type_strategy(hint: Any, pool: list[str], depth: int = 0) -> st.SearchStrategy[str] | None:
    """Source texts of values of ``hint`` (None when the hint says nothing usable)."""
    if hint is EMPTY or hint is Any or hint is object or isinstance(hint, str) or depth > 2:
        return None
    if hint is type(None) or hint is None:
        return st.just("None")
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or (hasattr(types, "UnionType") and isinstance(hint, types.UnionType)):
        got = [type_strategy(a, pool, depth + 1) for a in args]
        subs = [s for s in got if s is not None]
        if subs and len(subs) < len(got):  # a member says nothing (Any): any simple value too
            subs.append(st.sampled_from(list(dict.fromkeys([*BASIC, CALLABLE, *CALLABLES, *pool]))))
        return st.one_of(subs) if subs else None
    if origin is typing.Literal:
        return st.sampled_from([repr(a) for a in args if literal_ok(a)] or ["None"])
    if hint is bool:
        return st.sampled_from(["True", "False"])
    if hint is int:
        return st.one_of(st.integers(-2, 5).map(repr), st.sampled_from([p for p in pool if _is(p, int)] or ["0"]))
    if hint is float:
        return st.sampled_from(["0.0", "1.0", "-1.0", "0.5", "float('nan')", *[p for p in pool if _is(p, float)]])
    if hint is str:
        return st.one_of(st.sampled_from(["''", "'x'", "'--x'", "'-x'", "'a b'", "'X'"]),
                         st.sampled_from([p for p in pool if _is(p, str)] or ["'y'"]),
                         st.text("ab-_ ", max_size=4).map(repr))
    if hint is bytes:
        return st.sampled_from(["b''", "b'x'"])
    if (origin is not None and getattr(origin, "__name__", "") == "Callable") or hint is typing.Callable:
        return st.sampled_from([CALLABLE, *CALLABLES])
    import collections.abc as cabc

    if origin in (list, tuple, set, frozenset, cabc.Sequence, cabc.Iterable, cabc.Collection, cabc.MutableSequence,
                  cabc.Set):
        inner = type_strategy(args[0], pool, depth + 1) if args and args[0] is not Ellipsis else None
        inner = inner or st.sampled_from(BASIC[:8])
        opener, closer = ("(", ",)") if origin is tuple else ("[", "]")
        return st.lists(inner, max_size=3).map(lambda xs: opener + ", ".join(xs) + (closer if xs else closer[-1]))
    if origin in (dict, cabc.Mapping, cabc.MutableMapping):
        val = (type_strategy(args[1], pool, depth + 1) if len(args) == 2 else None) or st.sampled_from(BASIC[:6])
        return st.dictionaries(st.sampled_from(["'a'", "'b'"]), val, max_size=2).map(
            lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}")
    if inspect.isclass(hint) and callable(hint) and origin is None and hint.__module__ == "collections.abc":
        return st.sampled_from([CALLABLE, *CALLABLES]) if hint.__name__ == "Callable" \
            else st.sampled_from(["[]", "[1]", "['x']"])
    if origin is type and args and inspect.isclass(args[0]):
        classes = [n for n, v in library_names() if inspect.isclass(v) and issubclass(v, args[0])]
        return st.sampled_from(classes) if classes else None
    if inspect.isclass(hint):
        made = library_values(hint)
        return st.sampled_from(made) if made else None
    return None


PACKAGE = [""]


def library_names() -> list[tuple[str, Any]]:
    """(``pkg.Name``, value) of the package's public top-level names."""
    top = sys.modules.get(PACKAGE[0])
    if top is None:
        return []
    return [(f"{PACKAGE[0]}.{n}", getattr(top, n)) for n in sorted(dir(top)) if not n.startswith("_")]


CLASS_REFS: set[str] = set()  # values that are classes given by name (``subclass_refs``): an after calls them


def subclass_refs(kinds: list[str]) -> list[str]:
    """``pkg.Name`` of the package's public classes whose bases include a class named in ``kinds`` (the guard's
    ``issubclass(x, C)``), each one a call without arguments builds (so its instance is the after's value)."""
    out: list[str] = []
    for name, v in library_names():
        try:
            if not inspect.isclass(v) or inspect.isabstract(v) or not any(b.__name__ in kinds for b in v.__mro__):
                continue
            ps = inspect.signature(v).parameters.values()
        except (TypeError, ValueError):
            continue
        if all(p.default is not EMPTY or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in ps):
            out.append(name)
    CLASS_REFS.update(out[:12])
    return out[:12]


MADE: dict[str, list[tuple[str, str]]] = {}  # the adapter's ``made``: class qualified name -> [(module, source)]
KERNEL_MADE: dict[str, list[str]] = {}  # the target's kernel's refs by their class (``KernelForm.typed``): -> [ref]


def adapter_values(cls: Any) -> list[str]:
    """The library adapter's values of ``cls`` (by its qualified name: a protocol no instance check answers),
    their modules imported here and by ``render``."""
    name = f"{getattr(cls, '__module__', '')}.{getattr(cls, '__qualname__', '')}"
    out: list[str] = list(KERNEL_MADE.get(name, []))  # a kernel's refs of the class first (names, no import)
    for module, src in MADE.get(name, []):
        try:
            importlib.import_module(module)
        except Exception:
            continue
        if module not in EXTRA_IMPORTS:
            EXTRA_IMPORTS.append(module)
        out.append(src)
    return out


_SEQUENCES = ("list", "tuple", "Sequence", "Iterable", "Collection", "MutableSequence")


def hinted_values(hint: Any, depth: int = 0) -> list[str]:
    """The adapter's values of the classes a hint names, a one-element list of them where it asks for a
    sequence (``Mesh | Sequence[Mesh]``: ``Mesh()``, ``[Mesh()]``)."""
    if depth > 2:
        return []
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or (hasattr(types, "UnionType") and isinstance(hint, types.UnionType)):
        return list(dict.fromkeys(v for a in args for v in hinted_values(a, depth + 1)))
    if origin is not None and getattr(origin, "__name__", "") in _SEQUENCES and args:
        return [f"[{v}]" for v in hinted_values(args[0], depth + 1)]
    return adapter_values(hint) if inspect.isclass(hint) else []


def supplied_values(hint: Any, default: Any, depth: int = 0) -> list[str]:
    """Values to give a parameter left unset (its ``default``) that the hint allows, the default's kind aside:
    a function, a list of one function, a plain value, the library's values of a class."""
    if depth > 2:
        return []
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or (hasattr(types, "UnionType") and isinstance(hint, types.UnionType)):
        return list(dict.fromkeys(v for a in args for v in supplied_values(a, default, depth + 1)))
    if hint is type(None) or hint is None or (inspect.isclass(hint) and isinstance(default, hint)):
        return []
    if (origin is not None and getattr(origin, "__name__", "") == "Callable") or hint is typing.Callable or \
            (inspect.isclass(hint) and hint.__module__ == "collections.abc" and hint.__name__ == "Callable"):
        return [CALLABLE, *CALLABLES]
    if origin is not None and getattr(origin, "__name__", "") in _SEQUENCES and args:
        return [f"[{v}]" for v in supplied_values(args[0], default, depth + 1)[:2]]
    if inspect.isclass(hint):
        return typed_value(hint) or library_values(hint)[:2]
    return []


def supply_of(p: inspect.Parameter, hint: Any, unset: list[Any]) -> list[str]:
    """The values to give ``p`` when the raise's guard asks it unset (``unset``: (name, test) pairs) and its
    default is what the guard tests for: none otherwise."""
    hit = any(p.name == n and unset_default(p.default, test) for n, test in unset)
    return supplied_values(hint, p.default) if hit else []


def use_made(adapter: dict[str, Any], unset: list[Any], typed: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The adapter's values of classes (``made``: (class, module, source)) kept for ``adapter_values``, and this
    target's kernel's refs by class (``typed``, in place of the last target's); the adapter with the target's
    ``unset`` facts (``supply_of``)."""
    KERNEL_MADE.clear()
    KERNEL_MADE.update(typed or {})
    for cls, module, src in adapter.get("made") or []:
        MADE.setdefault(cls, []).append((module, src))
    return {**adapter, "unset": unset}


def unset_default(default: Any, test: str) -> bool:
    """Whether a parameter's default is what a guard's unset test (``guard_values._unset``) asks for: None for
    ``x is None``, an instance of the class named for ``isinstance(x, K)``."""
    if test == "None":
        return default is None
    return default is not EMPTY and any(c.__name__ == test for c in type(default).__mro__)


def library_values(cls: type) -> list[str]:
    """Sources of values of a class: the package's public instances of it (``click.INT``) and its public
    subclasses built with simple arguments (``click.Tuple([])``), the adapter's own first (``made``)."""
    out: list[str] = adapter_values(cls)
    for name, v in library_names():
        try:
            if not inspect.isclass(v) and isinstance(v, cls):
                out.append(name)
            elif inspect.isclass(v) and issubclass(v, cls) and not inspect.isabstract(v):
                made = _construct(name, v)
                if made:
                    out.append(made)
        except Exception:
            continue
    if not out and own_public(cls):  # a class of a public module the package's top level does not export (a
        made = _construct(f"{cls.__module__}.{cls.__qualname__}", cls)  # kernel's ``TuningConfig``): built there
        if made:
            if cls.__module__ not in EXTRA_IMPORTS:
                EXTRA_IMPORTS.append(cls.__module__)  # ``render`` imports it
            out.append(made)
    return out[:12]


EXTRA_IMPORTS: list[str] = []  # modules of the classes ``library_values`` built outside the package's top level


def own_public(cls: type) -> bool:
    """A class the package defines at the top of one of its public modules (no ``_`` component)."""
    mod = getattr(cls, "__module__", "") or ""
    return (bool(PACKAGE[0]) and mod.split(".")[0] == PACKAGE[0] and "." not in cls.__qualname__
            and not any(part.startswith("_") for part in [*mod.split("."), cls.__qualname__]))


def int_default(ps: list[inspect.Parameter]) -> str:
    """The value a required ``int`` field of a class is built with: the largest of the class's own ``int``
    defaults (sizes of the same kind, a tile's ``epi_tile_n=64`` for its ``tile_n``), else 1."""
    own = [p.default for p in ps if type(p.default) is int and p.default > 1]
    return str(max(own)) if own else "1"


def _construct(name: str, cls: type) -> str:
    try:
        ps = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        return ""
    simple = {str: "'x'", int: int_default(ps), float: "1.0", bool: "True", list: "[]"}
    h = hints(cls.__dict__.get("__init__", cls))
    args: list[str] = []
    for p in ps:
        if p.default is not EMPTY or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        hint = h.get(p.name, EMPTY)
        origin = typing.get_origin(hint)
        value = simple.get(hint) or ("[]" if origin in (list, tuple) or "Sequence" in str(hint) else "")
        if not value:
            value = CALLABLE if "Callable" in str(hint) else "'x'"
        args.append(value)
    return f"{name}({', '.join(args)})"


def _is(src: str, t: type) -> bool:
    try:
        return type(ast.literal_eval(src)) is t
    except Exception:
        return False


def typed_value(hint: Any) -> list[str]:
    """One plain value of a hint (``str | None`` -> ``'x'``), none when it says nothing usable."""
    simple = {str: "'x'", int: "1", float: "1.0", bool: "True", bytes: "b'x'"}
    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Union or (hasattr(types, "UnionType") and isinstance(hint, types.UnionType)):
        return [v for a in args if a is not type(None) for v in typed_value(a)][:1]
    return [simple[hint]] if hint in simple else []


def param_strategy(p: inspect.Parameter, hint: Any, lits: list[str], pool: list[str],
                   required: bool = False) -> st.SearchStrategy[str]:
    parts: list[st.SearchStrategy[str]] = []
    if p.default is not EMPTY and not required:
        parts.append(st.just(OMIT))
    if lits:
        parts.append(st.sampled_from(lits))
    typed = type_strategy(hint, pool)
    if typed is not None:
        parts.append(typed)
    else:
        parts.append(st.sampled_from(list(dict.fromkeys([*BASIC, CALLABLE, *CALLABLES, *pool]))))
    return st.one_of(parts)


# ----------------------------------------------------------------------------- arrays (a library adapter's)

MAX_ELEMENTS = 1 << 22  # the arrays the search builds stay small: it makes thousands of them
_ARRAYS: dict[str, tuple[tuple[int, ...], str]] = {}  # array source -> (shape, dtype), to vary one of them


def array_source(shape: tuple[int, ...], dtype: str, template: str) -> str:
    shape_src = "()" if not shape else f"({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})"
    src = template.format(shape=shape_src, dtype=dtype)
    _ARRAYS[src] = (shape, dtype)
    return src


def array_strategy(facts: dict[str, list[str]], adapter: dict[str, Any]) -> st.SearchStrategy[str]:
    """Arrays for an argument whose shape or dtype the guards read: as many dimensions as they compare
    with (and 0 to 2), of the adapter's sizes, of the guard's dtypes and the adapter's."""
    ndims = sorted({int(x) for x in facts.get("ndim", [])} | {0, 1, 2})
    dtypes = list(dict.fromkeys([*facts.get("dtype", []), *adapter.get("dtypes", [])])) or ["None"]
    dims = [int(d) for d in adapter.get("dims") or [1, 2, 3]]
    template = str(adapter["array"])

    @st.composite
    def one(draw: Any) -> str:
        n = draw(st.sampled_from(ndims))
        shape = tuple(draw(st.sampled_from(dims)) for _ in range(n))
        if math.prod(shape) > MAX_ELEMENTS:
            shape = tuple(min(d, 8) for d in shape)
        return array_source(shape, draw(st.sampled_from(dtypes)), template)
    return one()


def array_variants(src: str, adapter: dict[str, Any]) -> list[str]:
    """An array with one dimension's size, its dtype, or its number of dimensions changed."""
    if src not in _ARRAYS and adapter.get("array"):  # written as the adapter writes arrays (a kernel form's value)
        m = re.fullmatch(re.escape(str(adapter["array"])).replace(r"\{shape\}", r"(\(.*?\))").replace(
            r"\{dtype\}", r"('\w+')"), src)
        with contextlib.suppress(ValueError, SyntaxError):
            shape = ast.literal_eval(m.group(1)) if m else None
            if isinstance(shape, tuple) and all(type(d) is int for d in shape) and m:
                _ARRAYS[src] = (shape, m.group(2))
    if src not in _ARRAYS or not adapter.get("array"):
        return []
    shape, dtype = _ARRAYS[src]
    dims = [int(d) for d in adapter.get("dims") or [1, 2, 3]]
    template = str(adapter["array"])
    out = [array_source((*shape[:i], d, *shape[i + 1:]), dtype, template) for i in range(len(shape)) for d in dims
           if d != shape[i] and math.prod(shape) // max(1, shape[i]) * d <= MAX_ELEMENTS]
    out += [array_source(shape, dt, template) for dt in adapter.get("dtypes", []) if dt != dtype]
    out += [array_source((*shape, d), dtype, template) for d in dims[:3]]
    out += [array_source(shape[:-1], dtype, template)] if shape else []
    return list(dict.fromkeys(out))


# ----------------------------------------------------------------------------- distinct values (rating 10: 669a)


def _consts(pairs: list[tuple[str, str]]) -> list[tuple[int, int, ast.Constant]]:
    """(pair index, element index, literal) of each str / int / float literal passed (``*`` groups split)."""
    out: list[tuple[int, int, ast.Constant]] = []
    for i, (name, v) in enumerate(pairs):
        if v == OMIT or name.startswith("@"):
            continue
        try:
            node = ast.parse(f"({v},)" if name == "*" else v, mode="eval").body if v else None
        except SyntaxError:
            continue
        elts = node.elts if name == "*" and isinstance(node, ast.Tuple) else [node] if node is not None else []
        out += [(i, j, e) for j, e in enumerate(elts) if isinstance(e, ast.Constant)
                and type(e.value) in (str, int, float)]
    return out


def _other(value: Any, taken: set[Any]) -> Any:
    """A value of the same type not in ``taken``: the next letter for a one-letter string (``'x'`` -> ``'y'``)."""
    for k in range(1, 40):
        if isinstance(value, str):
            new: Any = chr((ord(value) - 97 + k) % 26 + 97) if len(value) == 1 and 'a' <= value <= 'z' else f"{value}{k + 1}"
        else:
            new = value + k
        if new not in taken:
            return new
    return None


def distinct(before: list[tuple[str, str]], after: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """``after``'s (name, value source) pairs with a literal it passes twice, and ``before`` does not, passed as
    another value of its type the second time (``CompoundFactor('x', 'x')`` -> ``('x', 'y')``: two factors
    that are the same one say nothing to a reader); None when it passes no literal twice."""
    seen_before: dict[tuple[type, Any], int] = {}
    for _, _, e in _consts(before):
        seen_before[(type(e.value), e.value)] = seen_before.get((type(e.value), e.value), 0) + 1
    consts = _consts(after)
    taken = {e.value for _, _, e in consts}
    counts: dict[tuple[type, Any], int] = {}
    changed: dict[tuple[int, int], Any] = {}
    for i, j, e in consts:
        key = (type(e.value), e.value)
        counts[key] = counts.get(key, 0) + 1
        if counts[key] > 1 and seen_before.get(key, 0) < 2 and (new := _other(e.value, taken)) is not None:
            taken.add(new)
            changed[(i, j)] = new
    if not changed:
        return None
    out = list(after)
    for i, (name, v) in enumerate(after):
        if not any(k[0] == i for k in changed):
            continue
        node = ast.parse(f"({v},)" if name == "*" else v, mode="eval").body
        elts = node.elts if name == "*" and isinstance(node, ast.Tuple) else [node]
        parts = [repr(changed[(i, j)]) if (i, j) in changed else ast.unparse(e) for j, e in enumerate(elts)]
        out[i] = (name, ", ".join(parts))
    return out


def distinct_call(run: Any, render: Any, plan: dict[str, Any], before: list[Any], c: Any) -> Any:
    """The clean call ``c`` (source, constructor args, args) with its repeated literals made distinct
    (``distinct``) when that call runs clean too (``run`` gives None), else ``c`` itself."""
    k = len(c[1]) if c[1] is not None else 0
    new = distinct(before, [*(c[1] or []), *c[2]])
    if new is None:
        return c
    ctor = new[:k] if c[1] is not None else None
    src = render(plan["module"], plan["call"], ctor, new[k:])
    return (src, ctor, new[k:]) if run(src) is None else c
