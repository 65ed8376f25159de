"""Statements that only change bindings: assignments (locals, ``self.x`` in ``__init__``, class constants
and message tables, lambdas bound to a name), ``+=``, returns and function-local imports (part of
``Walker``, see ``walker.py``): plain functions returning the new bindings chain, no sites."""

from __future__ import annotations

import ast

from errdex.extract import env as envmod
from errdex.extract import kwkeys, packitems, returnedlists
from errdex.extract import stmts as st
from errdex.extract.forwarded import current_exception, exc_info_target
from errdex.extract.imports import class_like, const_str, dotted_source, import_bindings
from errdex.extract.ir import Hole, Node, Param
from errdex.extract.messages import Scope
from errdex.extract.msgbase import MESSAGE_TABLE, dict_call, translated_text
from errdex.extract.properties import returned_text
from errdex.extract.summary import FuncSummary
from errdex.extract.walkstate import _STRISH, Env, State, WalkerBase


class BindingsMixin(WalkerBase):
    """Assignments, ``+=``, returns and imports: what they bind, and the tables and constants they fill."""

    def assign(self, node: ast.Assign, state: State, env: Env) -> Env:
        value = node.value
        if not state.in_function:
            value = _viewed_dict(value)  # `MappingProxyType({...})`: the table it shows
            if state.cls is not None and isinstance(value, _STRISH) and not (
                    isinstance(value, ast.Constant) and value.value is None):  # `code = None`: set by subclasses
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.class_constants[f"{state.cls}.{t.id}"] = value
                        # (read through `self`, a class constant that a method assigns again, `expr = ""`
                        # then `self.expr = expr` in `eval`, holds the instance's value: no constant)
                        if state.self_attrs is not None and t.id not in state.rebound:
                            state.self_attrs[t.id] = self.builder.arg(value, Scope())
                            # (kept as the node itself: read through `self` in the class's __init__/__str__,
                            # the raised subclass's own constant, ``owntexts``)
                            self.builder.class_texts[f"{state.cls}.{t.id}"] = state.self_attrs[t.id]
            elif state.cls is not None and (isinstance(value, ast.Dict) or dict_call(value)):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self._message_table(state.cls, t.id, value)
            elif state.cls is None and isinstance(value, ast.Lambda) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                self._lambda(node.targets[0].id, value)  # a module-level `name = lambda ...: "..."`
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Call):
                self.factory_application(value.func, state, env)  # `get = on_http_error(GetError)(_get)`
            return env
        f = state.func
        if f is not None and f.is_init and f.vararg and len(node.targets) == 1 \
                and (shift := packitems.shifted(node.targets[0], value, f.vararg)) is not None:
            # `args = tuple(list(args)[1:])` after `msg += " " + str(args[0])`: `*args` stays the pack, shifted
            f.vararg_skip = shift[0]
            f.pack_names.update(shift[1])  # `first, *args = args`: `first` is `args[0]`
            return env
        if isinstance(value, ast.Call) and not isinstance(value.func, ast.Lambda):
            # `matches = validate(status_line_re, line, "illegal status line: {!r}", line)` (h11): a helper that
            # raises the text it is passed and returns a value otherwise passes it as a statement call does
            self._call_site(value, dotted_source(value.func), state, env)
        for t in node.targets:
            if (caught := exc_info_target(t, value)) is not None and (h := _handler(state)) is not None:
                # `_, err, _ = sys.exc_info()` in `except ValueError:`: `err` is what `except ValueError as err` names
                env = envmod.bind(st.bind_opaque(env, t), caught, envmod.Binding(caught=h))
            elif isinstance(t, ast.Name):
                local = None
                if isinstance(value, ast.Lambda):  # `err = lambda x: E(f"...")`: called like a nested def
                    local = self._lambda(".".join((*state.qual, "<locals>", t.id)), value)
                    if isinstance(value.body, ast.Call):  # `lambda n: raise_(ValueError, f"...")`: a call that raises
                        self._call_site(value.body, dotted_source(value.body.func), state, env)
                env = envmod.bind(env, t.id, envmod.Binding(value, env, local_def=local))
            elif (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                  and state.func is not None and state.func.is_init):
                state.func.self_attrs[t.attr] = self._init_attr(node.value, state, env)
            elif state.func is not None and state.func.is_init and (
                    key := kwkeys.set_key(t, state.func.varkw, self.module_env, self.class_constants)) is not None:
                # `kwargs[Keys.REASON] = Reason.X` before `super().__init__(args, **kwargs)`: a keyword passed on
                state.func.kw_set.append((key, self.builder.arg(node.value, self.scope(state, env))))
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id != "self" \
                    and st.MSG_NAME.search(t.attr):
                self._attr_text(t.value.id, t.attr, node.value, state, env)
            elif state.func is not None and state.func.unpacked and st.target_names(t) == list(state.func.unpacked):
                continue  # `a, b, c = args[:3]`: the names stay the arguments they are (``unpacked_varargs``)
            elif isinstance(t, ast.Tuple) and (items := self._table_items(t, value)):
                for name, item in items:  # `error_class, default_message = TABLE[code]`: each the entry's item
                    env = envmod.bind(env, name, envmod.Binding(item, env))
            else:
                env = st.bind_opaque(env, t)
        return env

    def _table_items(self, t: ast.Tuple, value: ast.expr) -> list[tuple[str, ast.expr]]:
        """``a, b = TABLE[key]`` with ``TABLE`` a module-level dict (not a slice's key): each name and the
        ``TABLE[key][i]`` it holds (``messages._table_item``); empty for any other unpacking."""
        if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
                and isinstance(self.module_env.get(value.value.id), ast.Dict)
                and not isinstance(value.slice, ast.Slice)
                and all(isinstance(e, ast.Name) for e in t.elts)):
            return []
        return [(e.id, ast.copy_location(ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load()), value))
                for i, e in enumerate(t.elts) if isinstance(e, ast.Name)]

    def _attr_text(self, name: str, attr: str, value: ast.expr, state: State, env: Env) -> None:
        """``rep.problem_msg = f"data code {code} not supported"`` on a local built as ``rep = Report(...)``
        (nibabel's header checks; ``Report.log_raise`` raises ``self.error(self.problem_msg)``): the text,
        for the class's own raises of that attribute (``attrtexts.py``)."""
        b = envmod.lookup(env, name)
        if b is None or b.prev is not None or b.options or not isinstance(b.value, ast.Call):
            return
        written = dotted_source(b.value.func)
        target = self.builder.resolve_name(written) if written is not None and class_like(written) else None
        if target is not None:
            self.attr_texts.append((target, attr, self.builder.arg(value, self.scope(state, env))))

    def _lambda(self, key: str, lam: ast.Lambda) -> str | None:
        """A lambda bound to a name whose body looks like a message or an exception: a summary like a
        nested ``def`` returning its body (closure variables read as placeholders)."""
        if not st.message_like(lam.body, None):
            return None
        a = lam.args
        params = tuple(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs))
        scope = Scope(frozenset([*params, *(x.arg for x in (a.vararg, a.kwarg) if x is not None)]))
        self.functions[key] = FuncSummary(params, (self.builder.arg(lam.body, scope),))
        return f"{self.module}.{key}" if self.module else key

    def _message_table(self, cls: str, name: str, table: ast.expr) -> None:
        """A class's table of messages by key (``default_error_messages = {"invalid": "Not a valid
        integer."}``, marshmallow's and Django's fields; ``messages = dict(tooLow=_("..."))``,
        formencode's): each entry a class constant ``Cls.name[key]``, read by
        ``self.error_messages[key]`` (``messages.py``, expanded in phase 2 over the class, its
        subclasses and its bases).  An entry is text, or text marked for translation (``_("...")``)."""
        if not MESSAGE_TABLE.search(name):
            return
        if isinstance(table, ast.Dict):
            items = [(k.value, v) for k, v in zip(table.keys, table.values, strict=True)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(table, ast.Call):  # `dict(key=value, ...)`; a `**more` / positional mapping is not read
            items = [(kw.arg, kw.value) for kw in table.keywords if kw.arg is not None]
        else:
            return
        for key, v in items:
            if (isinstance(v, _STRISH) and not (isinstance(v, ast.Constant) and not isinstance(v.value, str))) \
                    or translated_text(v):
                self.class_constants[f"{cls}.{name}[{key}]"] = v

    def ann_assign(self, node: ast.AnnAssign, state: State, env: Env) -> Env:
        if not state.in_function and state.cls is not None and isinstance(node.value, ast.Dict) \
                and isinstance(node.target, ast.Name):
            self._message_table(state.cls, node.target.id, node.value)
        if state.in_function and isinstance(node.target, ast.Name) and node.value is not None:
            env = envmod.bind(env, node.target.id, envmod.Binding(node.value, env))
        elif (isinstance(node.target, ast.Attribute) and isinstance(node.target.value, ast.Name)
              and node.target.value.id == "self" and node.value is not None and state.func is not None
              and state.func.is_init):  # `self.error: str = error or self.default_message`
            state.func.self_attrs[node.target.attr] = self._init_attr(node.value, state, env)
        elif not state.in_function and state.cls is not None and isinstance(node.target, ast.Name) \
                and node.value is not None and const_str(node.value) is not None:
            self.class_constants.setdefault(f"{state.cls}.{node.target.id}", node.value)  # `REASON: Final = "reason"`
        return env

    def _init_attr(self, value: ast.expr, state: State, env: Env) -> Node:
        """What ``self.x = value`` in ``__init__`` keeps: ``kwargs.pop(KEY)`` of its own ``**kwargs`` is the
        keyword ``KEY`` a raise passes (a parameter of its own, ``kwkeys``), else the value as an argument."""
        assert state.func is not None
        key = kwkeys.popped_key(value, state.func.varkw, self.module_env, self.class_constants)
        if key is None:
            return self.builder.arg(value, self.scope(state, env))
        if key not in state.func.params and key not in state.func.kw_params:
            state.func.kw_params.append(key)
        return Param(key)

    def aug_assign(self, node: ast.AugAssign, state: State, env: Env) -> Env:
        if state.in_function and isinstance(node.target, ast.Name):
            name = node.target.id
            if isinstance(node.op, ast.Add):
                prev = envmod.lookup(env, name)
                if prev is None:  # `msg += "..."` on a parameter: extends the parameter's text
                    prev = envmod.Binding(ast.Name(id=name, ctx=ast.Load(), lineno=node.lineno,
                                                   col_offset=node.target.col_offset,
                                                   end_lineno=node.target.end_lineno,
                                                   end_col_offset=node.target.end_col_offset), env
                                          ) if name in state.params and _texty(node.value, env) else None
                if prev is None and name in state.params:  # `dim += ndim` on a parameter: arithmetic, no text
                    return envmod.bind(env, name, envmod.Binding())
                env = envmod.bind(env, name, envmod.Binding(node.value, env, prev=prev if prev is not None
                                                            else envmod.Binding()))
            elif isinstance(node.op, ast.Mod):
                # `err_msg %= (val_int, val_size)` (pyModbusTCP's `get_2comp`): as `err_msg = err_msg % (...)`,
                # the name read in the bindings before the statement
                value = ast.copy_location(ast.BinOp(left=ast.copy_location(
                    ast.Name(id=name, ctx=ast.Load()), node.target), op=ast.Mod(), right=node.value), node)
                env = envmod.bind(env, name, envmod.Binding(value, env))
            else:
                env = envmod.bind(env, name, envmod.Binding())
        return env

    def return_(self, node: ast.Return, state: State, env: Env) -> Env:
        c = state.func
        if len(state.qual) == 1 and state.cls is None and isinstance(node.value, (ast.Name, ast.Dict)) and (
                lists := returnedlists.returned_lists(self.builder, node.value, self.scope(state, env))):
            # a module function returning the lists of texts it collected (hdmf's `__parse_args`): its callers'
            # joins of them read those texts (``returnedlists``)
            name = state.qual[0]
            self.builder.helper_lists[name] = returnedlists.merged(self.builder.helper_lists.get(name, {}), lists)
        if (uncast := self._uncast(node.value)) is not None:
            # `return cast(MissingContextError, self.error('XPDY0002', message))` (elementpath): the value
            node = ast.copy_location(ast.Return(value=uncast), node)
        if c is not None and c.is_init and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and node.value.func.attr == "__init__":
            self._super_call(node.value, state, env)  # `return super().__init__(...)` (avro): the call, as a statement
            return env
        value, at = st.returned_instance(node.value, env, frozenset(c.params)) \
            if c is not None and node.value is not None else (node.value, env)
        if c is not None and isinstance(value, ast.Call) and (picked := self._table_class_call(value, state, at)):
            c.returns.append(picked)  # `return TABLE.get(code, Default)(*args, **kwargs)` (``classtables``)
        elif c is not None and node.value is not None and value is not None and (
                st.message_like(value, at, alias=state.cls_alias)
                or (state.exc_class and state.qual[-1:] == ("__str__",))  # an exception's __str__: its text
                or returned_text(value, state.qual, state.properties)  # its `message` property's `self.args[0]`
                or current_exception(node.value)  # `return sys.exc_info()[1]`: the caught text (forwarded.py)
                # `return cls(message, line, column)` of a parameter `cls=EqlSemanticError`: a factory (``factories``)
                or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in c.class_params)):
            scope = self.scope(state, at)
            # a property's `return self.args[0]`: as text, the raise's first argument (properties.py)
            ir = (self.builder.text if returned_text(value, state.qual, state.properties) else self.builder.arg)(
                value, scope)
            if isinstance(ir, Hole) and isinstance(value, ast.Call):  # return exception(line, col, *args)
                ir = self.builder.factory_call(value, scope) or ir
            c.returns.append(ir)
        elif c is not None and isinstance(node.value, ast.Name) and node.value.id in c.params:
            # `if not indices: return container` in a helper that formats its text otherwise: the text as
            # passed is one of the texts it returns (kept only when another return is a message)
            c.param_returns.append(self.builder.arg(node.value, self.scope(state, env)))
        elif c is not None and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            # `return dictionary_description(self.tag)` beside `return "Private Creator"`: another text,
            # unknown here (kept for a property whose other returns are text, ``walkclasses._record``)
            c.call_returns.append(Hole(self.src.segment(node.value), unresolved=True))
        if isinstance(node.value, ast.Call):  # `return tokenizer.raise_syntax_error("...")`: a call that raises
            self._call_site(node.value, dotted_source(node.value.func), state, env)
        return env

    def _table_class_call(self, value: ast.Call, state: State, env: Env) -> Node | None:
        """A call of the class a dict display of classes holds under a key (``classtables``): each class (and the
        default), called with the call's arguments; None for any other call."""
        return self.builder.picked_call(value, self.scope(state, env))

    def _uncast(self, node: ast.expr | None) -> ast.expr | None:
        """``typing.cast(T, value)``'s value (a no-op at run time), else None."""
        return self.builder.uncast(node)

    def import_(self, node: ast.Import | ast.ImportFrom, state: State, env: Env) -> Env:
        if state.in_function:  # a function-local import: visible to that function's raises
            for local, target in import_bindings(node, self.module, self.package):
                self.imports.setdefault(local, target)
        return env


_MAPPING_VIEWS = frozenset({"MappingProxyType", "types.MappingProxyType", "dict"})


def _viewed_dict(node: ast.expr) -> ast.expr:
    """``MappingProxyType({...})`` (a read-only view of the display) or ``dict({...})`` (a copy of it): the
    display itself, whose entries are the class's table (dynaconf's ``Validator.default_messages``, read
    through ``self.messages = dict(self.default_messages)``)."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
            and isinstance(node.args[0], ast.Dict) and dotted_source(node.func) in _MAPPING_VIEWS:
        return node.args[0]
    return node


_TEXT_CALLS = frozenset({"format", "join", "str", "repr", "strip", "lower", "upper", "replace"})


def _texty(value: ast.expr, env: Env, depth: int = 0) -> bool:
    """Whether what ``+=`` adds to a parameter may be text (a string, an f-string, a list of lines, a
    ``.format``/``str(...)`` call, a name bound to one, or one not bound here); not a number or a name bound
    to a count (``scatter_dimension += ndim`` with ``ndim = len(shape)``: jax's reduce_scatter printed
    ``{scatter_dimension}{ndim}`` in its message, rating 9: 027b's Related title)."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    if isinstance(value, (ast.JoinedStr, ast.List, ast.Tuple, ast.BinOp)):
        return not isinstance(value, ast.BinOp) or _texty(value.left, env, depth + 1) or _texty(
            value.right, env, depth + 1)
    if isinstance(value, ast.Call):
        f = value.func
        return (f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "") in _TEXT_CALLS
    if isinstance(value, ast.Name):
        b = envmod.lookup(env, value.id)
        return b is None or b.value is None or depth > 3 or _texty(b.value, b.env or env, depth + 1)
    return True


def _handler(state: State) -> ast.ExceptHandler | None:
    """The ``except`` clause the walk is in (the innermost), whose exception ``sys.exc_info()`` gives."""
    for spec in reversed(state.guards):
        if spec.kind == "except" and not spec.negated and isinstance(spec.node, ast.ExceptHandler):
            return spec.node
    return None
