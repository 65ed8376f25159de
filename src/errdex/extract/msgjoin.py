"""Joins: ``sep.join(items)`` over a list literal, a local list grown by ``append``/``extend``/``+=``
(under ``if``s, capped), a comprehension's element (``joinedparts``), ``self.args`` in an exception's
method (part of ``MessageBuilder``, see ``messages.py``).

Apart from ``msgforms.py`` because a join's text is a list's possible contents, read through the
bindings that grew it, where the other forms read one expression."""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterable

from errdex.extract import env as envmod
from errdex.extract import joinedparts, returnedlists, yielded
from errdex.extract.filtered import filter_none_items, kept_combinations
from errdex.extract.ir import Hole, Lit, Node, alt, cat, literal_text
from errdex.extract.msgbase import MAX_LIST_DEPTH, MAX_LIST_OPTIONS, Builder, Scope

# What a binding's items were found to be, by (binding, depth, emptiness the path tested), within one join:
# a list grown under N independent ``if``s is N merges whose two options share everything before them, so
# following each option anew visits 2**N paths (metar 2.0.2's ``Metar.string``, 40 ``if x: lines.append``,
# held one index for hours); each (binding, depth) is read once. The scope is kept with the items: two scopes
# built for one binding are told apart by identity, and keeping them alive keeps their ``id`` unique.
_Memo = dict[tuple[int, int, int, bool | None], tuple[Scope, "list[tuple[Node, ...]] | None"]]


class JoinMixin(Builder):
    """The text of ``sep.join(...)`` and the items a list expression can hold."""

    __slots__ = ()

    def _join(self, node: ast.Call, receiver: ast.expr, scope: Scope) -> Node:
        """``sep.join(items)`` over a list literal, a local list grown by ``append``/``extend``/``+=``,
        or a sum of those; a separator we cannot read is a placeholder between known items."""
        if len(node.args) != 1 or node.keywords:
            return Hole(self.src.segment(node))
        seq = node.args[0]
        own = self._own_args_items(seq, scope)
        if own is not None:
            return own
        options = self._list_items(seq, scope, 0)
        if options is not None and not isinstance(seq, (ast.List, ast.Tuple)):
            # A list built up before the join: an option with no items says nothing, and an item of
            # unknown text makes the whole join a guess; then keep it one placeholder, as for a list
            # we cannot see at all.
            pieces = isinstance(seq, ast.Name) and seq.id == yielded.PARTS
            if not pieces:  # a generator's pieces: it may yield nothing, a value is a piece of the text
                options = [o for o in options if o]
            if options and joinedparts.over_own_param(seq, scope.params, scope.env, scope.in_exception):
                options = [*options, ()]  # an exception's `reasons=[]` left out: the join prints nothing
            if not options or (not pieces and any(isinstance(i, Hole) and i.unresolved for o in options for i in o)) or (
                    isinstance(seq, ast.Name) and not self._only_grown(seq, node, scope)):
                options = None
        if options is None:
            return Hole(self.src.segment(node))
        sep = literal_text(self.text(receiver, scope))
        sep_node: Node = Lit(sep) if sep is not None else Hole(self.src.segment(receiver))
        out: list[Node] = []
        for items in options:
            parts: list[Node] = []
            for i, item in enumerate(items):
                if i:
                    parts.append(sep_node)
                parts.append(item)
            out.append(cat(*parts))
        return alt(out)

    def _own_args_items(self, seq: ast.expr, scope: Scope) -> Node | None:
        """``sep.join(str(a) for a in self.args)`` (or ``sep.join(self.args)``) in an exception's method: the constructor's
        arguments one after the other. A raise passes one argument far more often than several, so
        the text is the item for ``self.args[0]`` (an unbound later argument would only guess)."""
        if _is_self_args(seq) and scope.class_qualname is not None:
            # pypng's `self.__class__.__name__ + ': ' + ' '.join(self.args)`: the items as they are
            return self.text(ast.copy_location(ast.Subscript(value=seq, slice=ast.Constant(0), ctx=ast.Load()), seq),
                             scope)
        if not (isinstance(seq, (ast.GeneratorExp, ast.ListComp)) and len(seq.generators) == 1):
            return None
        gen = seq.generators[0]
        it = gen.iter
        if (gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name) or scope.class_qualname is None
                or not (isinstance(it, ast.Attribute) and it.attr == "args"
                        and isinstance(it.value, ast.Name) and it.value.id == "self")):
            return None
        first = ast.Subscript(value=it, slice=ast.Constant(0), ctx=ast.Load())
        elt = _Rename(gen.target.id, first).visit(_copy(seq.elt))
        ast.copy_location(elt, seq.elt)
        ast.fix_missing_locations(elt)
        return self.text(elt, scope)

    def _list_items(self, node: ast.expr, scope: Scope, depth: int,
                    memo: _Memo | None = None) -> list[tuple[Node, ...]] | None:
        """The items a list expression can hold, as text, one tuple per combination (capped)."""
        memo = {} if memo is None else memo
        if depth > MAX_LIST_DEPTH:
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return None
            return [tuple(self.text(e, scope) for e in node.elts)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self._list_items(node.left, scope, depth + 1, memo)
            right = self._list_items(node.right, scope, depth + 1, memo) if left is not None else None
            if left is None or right is None:
                return None
            return _capped(_grown(a, b) for a in left for b in right)
        if (collected := returnedlists.helper_items(self, node, scope)) is not None:
            # `', '.join(parsed.get(error_type))` of `parsed = __parse_args(...)` (hdmf's docval): one of the
            # texts the module's helper appended to the lists it returned (``returnedlists``)
            return collected
        if isinstance(node, ast.Name):
            b = envmod.lookup(scope.env, node.id)
            return self._binding_items(b, scope, depth + 1, None, memo) if b is not None else None
        if (listed := filter_none_items(node)) is not None:
            # `"\n".join(filter(None, [f"{kind}: {msg}", context, hint]))` (parglare): the items that may be empty
            # are there or not
            return kept_combinations([self.text(e, scope) for e in listed])
        if (kept := _truthy_filter(node)) is not None:
            # `[line for line in text if line]` (everett's `build_msg`): the items, empty texts left out
            items = self._list_items(kept, scope, depth + 1, memo)
            if items is None:
                return None
            return _capped(tuple(i for i in o if literal_text(i) != "") for o in items)
        if (comp := joinedparts.comprehension_element(node, self._module_name)) is not None:
            # `"".join("{0}: {1}\n".format(k, e) for k, e in errors)`: the element once or twice (``joinedparts``)
            element = self.text(comp[0], scope.at(joinedparts.shadowed(scope.env, comp[1])))
            return joinedparts.repeated_items(element) if joinedparts.has_literal(element) else None
        return None

    def _module_name(self, name: str) -> bool:
        """Whether a name means something in the module: a module-level name, an import, a builtin."""
        return name == "self" or name in self.module_env or self.resolve_name(name) is not None

    def _only_grown(self, name: ast.Name, join: ast.Call, scope: Scope) -> bool:
        """Whether, between the list's creation and the join, its name appears only where the walk
        saw it built (assignments, ``append``/``extend``/``+=``): a list that a nested function or a
        callee fills, or that the code reads (``if len(lines) == 1: ...``), is not trusted."""
        b = envmod.lookup(scope.env, name.id)
        allowed: set[int] = set()
        stack: list[envmod.Binding | None] = [b]
        seen: set[int] = set()  # each binding once: the options of N ``if``s share their past (2**N paths)
        while stack and len(allowed) < 4 * MAX_LIST_DEPTH:
            cur = stack.pop()
            if cur is None or id(cur) in seen:
                continue
            seen.add(id(cur))
            if cur.grow:
                allowed.add(cur.line)
            elif cur.value is not None:
                allowed.add(cur.value.lineno)
            stack.append(cur.prev)
            stack.extend(cur.options)
        if not allowed:
            return False
        first, last = min(allowed), join.end_lineno or join.lineno
        allowed.update(range(join.lineno, last + 1))
        lines = self.src.lines[first - 1 : last]
        word = re.compile(rf"\b{re.escape(name.id)}\b")
        # `if kwargs:` reads whether the list is empty, not its items (the branches are the options)
        test = re.compile(rf"\s*(?:el)?if\s+(?:not\s+)?{re.escape(name.id)}\s*:\s*(?:#.*)?$")
        return all(first + i in allowed or test.match(text) for i, text in enumerate(lines) if word.search(text))

    def _binding_items(self, b: envmod.Binding, scope: Scope, depth: int,
                       only: tuple[envmod.Binding, bool] | None, memo: _Memo) -> list[tuple[Node, ...]] | None:
        """The item tuples a list binding can hold; ``only``: (a binding, non-empty?) the path that reaches
        here passed an ``if name:`` that read that binding, so only its values of that emptiness count."""
        key = (id(b), depth, id(only[0]) if only is not None else 0, only[1] if only is not None else None)
        known = memo.get(key)
        if known is not None and known[0] is scope:
            return known[1]
        items = self._items_of(b, scope, depth, only, memo)
        if items is not None and only is not None and b is only[0]:
            items = [i for i in items if bool(i) == only[1]]
        memo[key] = (scope, items)
        return items

    def _items_of(self, b: envmod.Binding, scope: Scope, depth: int,
                  only: tuple[envmod.Binding, bool] | None, memo: _Memo) -> list[tuple[Node, ...]] | None:
        if depth > MAX_LIST_DEPTH:
            return None
        if b.options:
            found: list[tuple[Node, ...]] = []
            for k, o in enumerate(b.options):
                if o is None:
                    continue  # unbound on that path: the join would fail there
                path = only
                if b.tested is not None:  # option 0 is the branch taken when the tested list was non-empty
                    path = (b.tested[0], b.tested[1] if k == 0 else not b.tested[1])
                items = self._binding_items(o, scope, depth + 1, path, memo)
                if items is None:
                    return None
                found.extend(items)
            return _capped(found)
        if b.value is None:
            return None
        here = scope.at(b.env)
        if b.prev is None:
            start = self._list_items(b.value, here, depth + 1, memo)
            if start is not None and isinstance(b.value, (ast.GeneratorExp, ast.ListComp)):
                start = [(), *start]  # a comprehension may give no item: those grown after it alone
            return start
        before = self._binding_items(b.prev, scope, depth + 1, only, memo)
        if before is None:
            return None
        if b.grow == "reverse":  # `lines.reverse()` (zope.configuration's `_with_details`: the opening first)
            return _capped(tuple(reversed(p)) for p in before)
        if b.grow == "prepend":  # `parts.insert(0, x)`
            item = self.text(b.value, here)
            return _capped((item, *p) for p in before)
        if b.grow == "append":
            item = self.text(b.value, here)
            return _capped(_grown(p, (item,)) for p in before)
        more = self._list_items(b.value, here, depth + 1, memo)  # extend, or `+=` of a list
        if more is not None and isinstance(b.value, (ast.GeneratorExp, ast.ListComp)):
            more = [(), *more]  # generated parts (``joinedparts``): there may be none
        if more is None:
            if not isinstance(b.value, _SOME_ITEMS):
                return None
            # `lines.extend(fmt(x) for x in xs)`: none, one or more items of unknown text after those known
            # (graphql's `output = [self.message]`, `output.extend(print_location(...) for ...)`,
            # `"\n\n".join(output)`): the known items alone, or followed by one placeholder for the rest
            shown = " ".join(self.src.segment(b.value).split())
            more = [(), (Hole(shown[1:-1] if isinstance(b.value, ast.GeneratorExp) and shown[:1] == "(" else shown),)]
        return _capped(_grown(p, m) for p in before for m in more)


# an extend / `+=` whose items are computed: their number and text are known only at run time
_SOME_ITEMS = (ast.GeneratorExp, ast.ListComp, ast.Call)


def _capped(options: Iterable[tuple[Node, ...]]) -> list[tuple[Node, ...]]:
    """Distinct item tuples in order, at most ``MAX_LIST_OPTIONS``.

    Past the cap the combinations share their first items and differ after: a list grown under many
    independent ``if`` statements (xmlschema's ``__str__`` appends a reason, a schema component, one of two
    instance lines and a path, each when present: 32 combinations) keeps its first items and one
    placeholder for the rest, cut after as many items as keep the options within the cap, rather than
    the first combinations in order (all with the
    ``Instance (line N):`` form, none with a bare ``Instance:``)."""
    out: list[tuple[Node, ...]] = []
    for o in options:
        if o not in out:
            out.append(o)
    if len(out) <= MAX_LIST_OPTIONS:
        return out
    for k in range(max(len(o) for o in out) - 1, 0, -1):
        cut: list[tuple[Node, ...]] = []
        for o in out:
            c = o if len(o) <= k or o[k:] == (MORE_ITEMS,) else (*o[:k], MORE_ITEMS)
            if c not in cut:
                cut.append(c)
        if len(cut) <= MAX_LIST_OPTIONS:
            return cut
    # No cut keeps a known first item (cantools' `UnsupportedDatabaseFormatError` appends one chunk per
    # format that failed, five optional appends: a format asked for gives one chunk, none asked gives all):
    # each item alone and the fullest lists, rather than one placeholder for everything.
    singles = [o for o in out if len(o) <= 1 and MORE_ITEMS not in o]
    if any(singles) and len(singles) < MAX_LIST_OPTIONS:
        longest = sorted((o for o in out if len(o) > 1), key=len, reverse=True)
        return singles + longest[: MAX_LIST_OPTIONS - len(singles)]
    return [(MORE_ITEMS,)]


def _truthy_filter(node: ast.expr) -> ast.expr | None:
    """``[x for x in items if x]``: the list ``items`` filtered of its empty items, else None."""
    if not (isinstance(node, (ast.ListComp, ast.GeneratorExp)) and len(node.generators) == 1):
        return None
    gen = node.generators[0]
    t = gen.target
    if not (isinstance(t, ast.Name) and isinstance(node.elt, ast.Name) and node.elt.id == t.id and not gen.is_async
            and len(gen.ifs) == 1 and isinstance(gen.ifs[0], ast.Name) and gen.ifs[0].id == t.id):
        return None
    return gen.iter


# the later items of a list whose combinations were cut (``_capped``): it absorbs whatever follows
MORE_ITEMS = Hole("...")


def _grown(items: tuple[Node, ...], more: tuple[Node, ...]) -> tuple[Node, ...]:
    """``items`` followed by ``more``, unless its last item already stands for every later one."""
    return items if items[-1:] == (MORE_ITEMS,) else items + more


def _copy(node: ast.expr) -> ast.expr:
    """A deep copy of an expression, so renaming in it leaves the module's tree as it was."""
    return copy.deepcopy(node)


class _Rename(ast.NodeTransformer):
    """Replace a loop variable by the expression it stands for (``i`` -> ``self.args[0]``)."""

    def __init__(self, name: str, by: ast.expr) -> None:
        self.name, self.by = name, by

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.copy_location(_copy(self.by), node)
        return node


def _is_self_args(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "args" and isinstance(node.value, ast.Name) \
        and node.value.id == "self"
