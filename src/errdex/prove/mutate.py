"""After-variants of a distilled script: the same public call with its arguments changed.

Only the focus nodes change (the raising statement's calls, the parametrized values): a keyword
argument dropped (back to its default), a bool flipped, a number or string replaced by another
value the library's tests used or a simple one of the same type, an element of a literal list or
tuple dropped (an option and its value together), a positional argument after the first dropped, a
literal positional argument given in a list (a leaf where a container is expected).
The call itself never changes, so "after" makes the same public call with other arguments.
"""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Callable, Iterator, Sequence

from errdex.prove.distill import Distilled, mutates
from errdex.prove.trace_adapters import TraceAdapter, trace_adapter
from errdex.prove.tracing import Swap, import_alias, traced_variants

MAX_VARIANTS = 48
RAISING_KEPT = 4  # the raising call's own value edits kept past the cap
Edit = Callable[[ast.AST], bool]


def _fixed(node: ast.AST) -> bool:
    return bool(getattr(node, "errdex_fixed", False))


def _consts(node: ast.AST) -> list[ast.Constant]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and not _fixed(n)]


def _replacements(v: object) -> list[object]:
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [x for x in (1, 0, 2) if x != v]
    if isinstance(v, float):
        return [x for x in (1.0, 0.5) if x != v]
    if isinstance(v, str):
        if v.startswith("-"):
            return []
        return [x for x in ("1", "x") if x != v]
    return []


def _edits(node: ast.AST, nested: bool = False) -> Iterator[tuple[str, Edit]]:
    """(why, edit) pairs for one focus node; an edit changes the node in place, False if it cannot.
    ``nested``: the node is inside another call's arguments (a spec, a dtype), so even its first positional
    argument may go (``P('x')`` -> ``P()``); the call the statement makes keeps it."""
    if isinstance(node, ast.Call):
        for i, k in enumerate(node.keywords):
            if k.arg is None or _fixed(k.value):
                continue
            name = k.arg

            def drop(n: ast.AST, i: int = i) -> bool:
                assert isinstance(n, ast.Call)
                del n.keywords[i]
                return True
            yield f"without {name}=", drop
        for i in range(0 if nested else 1, len(node.args)):
            def drop_pos(n: ast.AST, i: int = i) -> bool:
                assert isinstance(n, ast.Call)
                if isinstance(n.args[i], ast.Starred):
                    return False
                del n.args[i]
                return True
            yield f"without positional {i + 1}", drop_pos
        for i, a in enumerate(node.args):  # a leaf given where a container (a tree, a sequence) is expected
            if isinstance(a, ast.Constant) and not isinstance(a.value, bool) and a.value is not None \
                    and not _fixed(a):
                def wrap(n: ast.AST, i: int = i) -> bool:
                    assert isinstance(n, ast.Call)
                    n.args[i] = ast.List([n.args[i]], ast.Load())
                    return True
                yield f"{a.value!r} -> [{a.value!r}] (in a list)", wrap
    if isinstance(node, ast.Dict):
        for i, key in enumerate(node.keys):
            if key is None:
                continue

            def drop_key(n: ast.AST, i: int = i) -> bool:
                assert isinstance(n, ast.Dict)
                del n.keys[i]
                del n.values[i]
                return True
            yield f"without key {ast.unparse(key)}", drop_key
    if isinstance(node, (ast.List, ast.Tuple)):
        elts = node.elts
        for i, e in enumerate(elts):
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.startswith("-") \
                    and i + 1 < len(elts):
                def drop_pair(n: ast.AST, i: int = i) -> bool:
                    assert isinstance(n, (ast.List, ast.Tuple))
                    del n.elts[i:i + 2]
                    return True
                yield f"without {e.value} and its value", drop_pair

            def drop_one(n: ast.AST, i: int = i) -> bool:
                assert isinstance(n, (ast.List, ast.Tuple))
                del n.elts[i]
                return True
            yield f"without element {i}", drop_one
    inner = _inner_containers(node)
    if inner:  # containers where leaves are expected (a tree prefix): each given as its first element
        def leaves(n: ast.AST) -> bool:
            return _to_leaves(n)
        yield f"{ast.unparse(node)[:40]} with leaves for its containers", leaves


def _children(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Dict):
        return list(node.values)
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    return []


def _inner_containers(node: ast.AST) -> list[int]:
    """Indexes of the literal's elements (a dict's values) that are non-empty lists or tuples of constants."""
    return [i for i, e in enumerate(_children(node)) if isinstance(e, (ast.List, ast.Tuple)) and e.elts
            and all(isinstance(x, ast.Constant) for x in e.elts) and not _fixed(e)]


def _to_leaves(node: ast.AST) -> bool:
    for i in _inner_containers(node):
        seq = node.values if isinstance(node, ast.Dict) else node.elts  # type: ignore[attr-defined]
        box = seq[i]
        assert isinstance(box, (ast.List, ast.Tuple))
        seq[i] = box.elts[0]
    return True


def _constant_edits(node: ast.AST) -> Iterator[tuple[int, str, object]]:
    """(index among the node's constants, why, new value)."""
    for j, c in enumerate(_consts(node)):
        for v in _replacements(c.value):
            yield j, f"{c.value!r} -> {v!r}", v


def _ints(node: ast.List | ast.Tuple) -> bool:
    return bool(node.elts) and all(isinstance(e, ast.Constant) and type(e.value) is int and not _fixed(e)
                                   for e in node.elts)


def _priority(why: str) -> int:
    """Bool flips first (a switch turned around), then an argument dropped (back to its default),
    then strings, list elements, numbers."""
    if why in ("True -> False", "False -> True"):
        return 0
    if why.startswith("without ") and why.endswith("="):
        return 1
    if why.endswith("(another case of the test)") or why.startswith("with "):
        return 1
    if why.startswith("'") or why.endswith(" -> as floats"):  # a name defined above among them
        return 2
    if why.startswith("without"):
        return 3
    return 4


def variants(d: Distilled, guard_names: Sequence[str] = (), package: str = "") -> list[tuple[str, str]]:
    """(why, source) of after-candidates, most specific first, without duplicates.  ``guard_names``:
    names the site's guards read; one the raising call does not pass is tried passed (empty list).
    ``package``: the library, whose trace adapter (``trace_adapters.py``) adds transform keywords and
    traceable twins to the generic edits of the functions the script hands to it (``tracing.py``)."""
    return [(why, src) for why, src, _, _ in variant_modules(d, guard_names, package)]


def variant_modules(d: Distilled, guard_names: Sequence[str] = (), package: str = "",
                    limit: int = MAX_VARIANTS) -> list[tuple[str, str, ast.Module, bool]]:
    """``variants`` with each variant's module (the edited copy: node attributes such as a focus mark
    survive) and whether it edits a function the script hands to the library (``tracing.py``)."""
    out: list[tuple[int, int, str, str, ast.Module, bool]] = []
    seen = {d.source}
    nodes = list(ast.walk(d.module))
    adapter = trace_adapter(package)

    def emit(why: str, module: ast.Module, priority: int | None = None, traced: bool = False) -> None:
        try:
            src = ast.unparse(ast.fix_missing_locations(module)) + "\n"
        except ValueError:  # an edit no source can express (a number where an f-string has text)
            return
        if src not in seen:
            seen.add(src)
            out.append((_priority(why) if priority is None else priority, len(out), why, src, module, traced))

    inner = {id(x) for n in nodes if isinstance(n, ast.Call) for a in [*n.args, *(k.value for k in n.keywords)]
             for x in ast.walk(a) if isinstance(x, ast.Call)}
    defined = [s.name for s in d.module.body[:d.raising] if isinstance(s, (ast.FunctionDef, ast.ClassDef))
               and not s.name.startswith("_")][:3]
    raising_ids = {id(n) for n in ast.walk(d.module.body[d.raising])} if d.raising < len(d.module.body) else set()
    raising_edits: set[int] = set()  # the out positions of the raising statement's value edits
    for idx in d.focus:
        target = nodes[idx]
        # values replaced (the guard turned around), things dropped
        for j, c in enumerate(_consts(target)):  # a name looked up: one the script defines (a command)
            for name in defined if isinstance(c.value, str) and c.value.isidentifier() else []:
                m = copy.deepcopy(d.module)
                _consts(list(ast.walk(m))[idx])[j].value = name
                emit(f"{c.value!r} -> {name!r} (defined above)", m)
        for j, why, value in _constant_edits(target):
            m = copy.deepcopy(d.module)
            c = _consts(list(ast.walk(m))[idx])[j]
            c.value = value  # type: ignore[assignment]
            first = id(target) in raising_ids and not any(why.startswith(w.split(" -> ")[0] + " -> ")
                                                          for w in (out[i][2] for i in raising_edits))
            emit(why, m)
            if first and out and out[-1][2] == why:
                raising_edits.add(len(out) - 1)
        for why, edit in _edits(target, id(target) in inner):
            m = copy.deepcopy(d.module)
            if edit(list(ast.walk(m))[idx]):
                emit(why, m)
        for sub in ast.walk(target):
            if isinstance(sub, (ast.List, ast.Tuple)) and _ints(sub) and not _fixed(sub):  # integers as floats (a dtype)
                m = copy.deepcopy(d.module)
                for c in list(ast.walk(m))[nodes.index(sub)].elts:  # type: ignore[attr-defined]
                    c.value = float(c.value)
                emit(f"{ast.unparse(sub)} -> as floats", m)
            if sub is target or not isinstance(sub, (ast.List, ast.Tuple, ast.Call, ast.Dict)) or _fixed(sub):
                continue
            sub_idx = nodes.index(sub)
            for why, edit in _edits(sub, id(sub) in inner):
                m = copy.deepcopy(d.module)
                if edit(list(ast.walk(m))[sub_idx]):
                    emit(why, m)
    for k, stmt in enumerate(d.module.body[:d.raising]):  # an object changed before the call: left alone
        if mutates(stmt):
            m = copy.deepcopy(d.module)
            del m.body[k]
            emit(f"without {ast.unparse(stmt)[:60]}", m)
    passed_once: set[str] = set()
    for idx in d.focus[:3]:  # the guard reads a parameter the call left out: pass it
        target = nodes[idx]
        if not isinstance(target, ast.Call) or not (target.keywords or target.args):
            continue
        passed = {k.arg for k in target.keywords}
        missing = [n for n in guard_names if n not in passed]
        combos = [[n] for n in missing] + [list(c) for c in itertools.combinations(missing, 2)]
        for names in combos + ([missing] if len(missing) > 2 else []):
            if "with " + ", ".join(f"{n}=[]" for n in names) in passed_once:
                continue  # the same names passed to an inner call of the raising statement: once is enough
            passed_once.add("with " + ", ".join(f"{n}=[]" for n in names))
            m = copy.deepcopy(d.module)
            call = list(ast.walk(m))[idx]
            assert isinstance(call, ast.Call)
            call.keywords.extend(ast.keyword(n, ast.List([], ast.Load())) for n in names)
            emit("with " + ", ".join(f"{n}=[]" for n in names), m)
    for why, m in traced_variants(d.module, adapter):  # the function handed to the library
        emit(why, m, 1, True)
    for why, m in itertools.islice(_argument_edits(d, nodes, adapter), 32):  # types and shapes: after the rest
        emit(why, m, 5)
    for idx, values in d.alternatives:  # a value another parameter set of the same test passes
        for v in values:
            m = copy.deepcopy(d.module)
            parent = next(n for n in ast.walk(m) if isinstance(n, ast.Assign)
                          and n.value is list(ast.walk(m))[idx])
            parent.value = copy.deepcopy(v)
            emit(f"{ast.unparse(nodes[idx])} -> {ast.unparse(v)} (another case of the test)", m)
    out.sort(key=lambda t: (t[0], t[1]))
    kept = out[:limit]
    # the raising call's own numbers and strings changed stay in, even when a long script's earlier
    # statements give more edits than the cap (each number once: the first value tried)
    late = [t for t in out[limit:] if t[1] in raising_edits][:RAISING_KEPT]
    if late:
        kept = [t for t in kept if t[1] in raising_edits or t[0] <= 1]
        kept = kept[:limit - len(late)] + late
    return [(why, src, m, traced) for _, _, why, src, m, traced in kept]


def _argument_edits(d: Distilled, nodes: list[ast.AST], adapter: TraceAdapter | None = None
                    ) -> Iterator[tuple[str, ast.Module]]:
    """Edits of the raising call's arguments by type and shape, the four kinds taken in turn (each
    gets a share of the variants): values (``_value_edits``), swaps (``_swap_edits``), shapes
    (``_shape_edits``), values the script does not have (``_fill_edits``)."""
    kinds = [_value_edits(d, nodes), _shape_edits(d, nodes), _swap_edits(d, nodes), _fill_edits(d, nodes, adapter)]
    for group in itertools.zip_longest(*kinds):
        yield from (g for g in group if g is not None)


def _swap_edits(d: Distilled, nodes: list[ast.AST]) -> Iterator[tuple[str, ast.Module]]:
    """A variable or module attribute in the call's arguments replaced by another of the script (``x_i32``
    -> ``x_f32``, ``np.float32`` -> ``np.float16``); the raising statement run before the one above it."""
    assigned = [t.id for st in d.module.body[:d.raising] if isinstance(st, ast.Assign) and not mutates(st)
                for t in st.targets if isinstance(t, ast.Name) and not isinstance(st.value, ast.Lambda)]
    attrs = list(dict.fromkeys(ast.unparse(n) for n in ast.walk(d.module) if isinstance(n, ast.Attribute)
                               and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)))
    prev = d.module.body[d.raising - 1] if d.raising > 0 else None
    if isinstance(prev, ast.Expr) and not any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(prev)):
        # configured before, not after (never before the test instance's own set-up)
        m = copy.deepcopy(d.module)
        m.body[d.raising - 1], m.body[d.raising] = m.body[d.raising], m.body[d.raising - 1]
        yield f"{ast.unparse(d.module.body[d.raising])[:40]} before {ast.unparse(d.module.body[d.raising - 1])[:30]}", m
    for idx in d.focus[:4]:
        for j, sub in enumerate(_arg_nodes(nodes[idx])):
            if isinstance(sub, ast.Name) and sub.id in assigned:
                others = [a for a in assigned if a != sub.id]
            elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                others = [a for a in attrs if a.startswith(sub.value.id + ".") and a != ast.unparse(sub)]
            else:
                continue
            for other in others[:3]:
                m = copy.deepcopy(d.module)
                old = _arg_nodes(list(ast.walk(m))[idx])[j]
                Swap(old, ast.parse(other, mode="eval").body).visit(m)
                yield f"{ast.unparse(sub)} as {other}", m


def _value_edits(d: Distilled, nodes: list[ast.AST]) -> Iterator[tuple[str, ast.Module]]:
    """A number given as a float, a string given as a number, a number or string replaced by another the
    script uses (shapes that agree, a value the script declares)."""
    ints = sorted({c.value for c in _consts(d.module) if type(c.value) is int and 0 < c.value < 1024})
    strs = list(dict.fromkeys(c.value for c in _consts(d.module) if isinstance(c.value, str) and len(c.value) < 40))
    for idx in d.focus[:4]:
        text = {id(v) for n in ast.walk(nodes[idx]) if isinstance(n, ast.JoinedStr) for v in n.values}
        for j, c in enumerate(_consts(nodes[idx])):
            if id(c) in text:  # an f-string's literal text: only a string can stand there
                continue
            olds: list[object]
            if type(c.value) is int:
                olds = [float(c.value), *(v for v in ints if v != c.value)]
            elif isinstance(c.value, str):
                olds = [1.0, *ints[:1], *(v for v in strs if v != c.value)]
            else:
                continue
            for v in olds[:4]:
                m = copy.deepcopy(d.module)
                _consts(list(ast.walk(m))[idx])[j].value = v  # type: ignore[assignment]
                yield f"{c.value!r} as {v!r}", m


def _shape_edits(d: Distilled, nodes: list[ast.AST]) -> Iterator[tuple[str, ast.Module]]:
    """A tuple or list argument given as its first element, the positional arguments given as one
    tuple, keyword arguments given positionally."""
    for idx in d.focus[:4]:
        target = nodes[idx]
        if not isinstance(target, ast.Call):
            continue
        for i, a in enumerate(target.args):
            if isinstance(a, (ast.Tuple, ast.List)) and a.elts and not _fixed(a):
                m = copy.deepcopy(d.module)
                call = list(ast.walk(m))[idx]
                assert isinstance(call, ast.Call)
                call.args[i] = call.args[i].elts[0]  # type: ignore[attr-defined]
                yield f"{ast.unparse(a)[:30]} given as its first element", m
        if len(target.args) > 1 and not any(isinstance(a, ast.Starred) for a in target.args):
            m = copy.deepcopy(d.module)
            call = list(ast.walk(m))[idx]
            assert isinstance(call, ast.Call)
            call.args = [ast.Tuple(call.args, ast.Load())]
            yield "positional arguments given as one tuple", m
        if target.keywords and all(k.arg for k in target.keywords):
            m = copy.deepcopy(d.module)
            call = list(ast.walk(m))[idx]
            assert isinstance(call, ast.Call)
            call.args = [*call.args, *(k.value for k in call.keywords)]
            call.keywords = []
            yield "keyword arguments given positionally", m


def _arg_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes inside a call's arguments (positional, then keyword values); nothing for another node."""
    if not isinstance(node, ast.Call):
        return []
    return [n for a in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(a)]


def _fill_edits(d: Distilled, nodes: list[ast.AST], adapter: TraceAdapter | None) -> Iterator[tuple[str, ast.Module]]:
    """Values no edit of the script's own values gives, for the direct arguments of the focus calls: an
    empty container given one element (the script's first integer: ``shape=()`` -> ``shape=(1,)``), a
    variable given as one element of it (``int(arr)`` -> ``int(arr[0])``), a call given as a scalar
    (``grad(f)(zeros(3))`` -> ``grad(f)(1.0)``), a type given as a value of it (``f(jnp.int32)`` ->
    ``f(jnp.int32(1))``); with the library's adapter, an empty container given as an array, ``None`` as
    the adapter's value (a dtype), a variable passed through the adapter's converters."""
    ints = sorted({c.value for c in _consts(d.module) if type(c.value) is int and 0 < c.value < 1024})
    one = ints[0] if ints else 1
    assigned = {t.id for st in d.module.body[:d.raising] if isinstance(st, ast.Assign)
                for t in st.targets if isinstance(t, ast.Name)}
    for idx in d.focus[:4]:
        call = nodes[idx]
        if not isinstance(call, ast.Call):
            continue
        args = [*call.args, *(k.value for k in call.keywords)]
        for j, a in enumerate(args):
            if _fixed(a) or isinstance(a, ast.Starred):
                continue
            news: list[tuple[str, ast.expr | tuple[str, str]]] = []
            if isinstance(a, (ast.Dict, ast.List, ast.Tuple)) and not _children(a) and not getattr(a, "keys", None):
                news.append((f"{ast.unparse(a)} -> one element", type(a)([ast.Constant(one)], ast.Load())
                             if not isinstance(a, ast.Dict) else ast.List([ast.Constant(one)], ast.Load())))
                news += [(f"{ast.unparse(a)} -> an array", v) for v in (adapter.arrays if adapter else ())]
            elif isinstance(a, ast.Constant) and type(a.value) in (int, float) and a in call.args:
                news += [(f"{a.value!r} -> an array", v) for v in (adapter.arrays if adapter else ())]
            elif isinstance(a, ast.Constant) and a.value is None:
                news += [(f"None -> {v[1]}", v) for v in (adapter.nones if adapter else ())]
            elif isinstance(a, ast.Name) and a.id in assigned:
                news.append((f"{a.id} -> {a.id}[0] (one element)",
                             ast.Subscript(ast.Name(a.id, ast.Load()), ast.Constant(0), ast.Load())))
                news += [(f"{a.id} -> {v[0]}.{v[1]}({a.id})", (v[0], f"{v[1]}({a.id})"))
                         for v in (adapter.converters if adapter else ())]
            elif isinstance(a, ast.Call) and call.args and a is call.args[0] and not call.keywords:
                news.append((f"{ast.unparse(a)[:30]} -> 1.0 (a scalar)", ast.Constant(1.0)))
            elif isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a in call.args:
                news.append((f"{ast.unparse(a)} -> {ast.unparse(a)}({one})",
                             ast.Call(copy.deepcopy(a), [ast.Constant(one)], [])))
            for why, new in news:
                m = copy.deepcopy(d.module)
                twin = list(ast.walk(m))[idx]
                assert isinstance(twin, ast.Call)
                if isinstance(new, tuple):  # (module, expression after its name): imported when missing
                    assert adapter is not None
                    text = f"{import_alias(m, new[0], adapter)}.{new[1]}" if new[0] else new[1]
                    new = ast.parse(text, mode="eval").body
                if j < len(twin.args):
                    twin.args[j] = new
                else:
                    twin.keywords[j - len(twin.args)].value = new
                yield why, m
