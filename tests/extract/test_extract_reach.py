"""Messages that live somewhere else than the raise: one small inline package per mechanism.

Each test writes a package, extracts it inline and checks the templates of one site; every
case was unresolved (a lone ``{expr}`` placeholder) before its mechanism existed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.resolve import MAX_CALLER_TEMPLATES
from errdex.model import ErrorSite, ExtractResult


def _extract(tmp_path: Path, files: dict[str, str]) -> ExtractResult:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "pkg" / "__init__.py").touch()
    return extract_dir(tmp_path)


def _site(result: ExtractResult, qualname: str, index: int = 0) -> ErrorSite:
    found = sorted((s for s in result.sites if s.qualname == qualname), key=lambda s: (s.path, s.line))
    assert len(found) > index, f"no site #{index} in {qualname}: {[(s.path, s.qualname) for s in result.sites]}"
    return found[index]


def _rendered(site: ErrorSite) -> list[str]:
    return [t.render() for t in site.templates]


def test_format_of_a_receiver_that_already_holds_placeholders(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def check_unique(op_name, perm):
            msg = f"{op_name} sources and destinations must be unique, got {{}}."
            raise ValueError(msg.format(perm))


        def check_args(fun_name, pos):
            msg = f"{fun_name} requires array arguments at position {pos}."
            raise TypeError(msg.format(fun_name, pos))


        def own_braces(prefix):
            raise ValueError((prefix + " got {}").format(1))
    '''})
    unique = _site(result, "check_unique")
    assert _rendered(unique) == ["{op_name} sources and destinations must be unique, got {perm}."]
    assert unique.unresolved == ()
    # no field in the literal runs: .format leaves the text as it is
    assert _rendered(_site(result, "check_args")) == ["{fun_name} requires array arguments at position {pos}."]
    # text of unknown content may hold braces of its own: still unresolved
    assert _site(result, "own_braces").unresolved == ('(prefix + " got {}").format(1)',)


def test_lambdas_and_bound_format_methods_called_like_helpers(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        _too_many = """
        The function was called with {} arguments, but takes one.
        """.format

        missing = lambda name: f"the option {name} is missing from the config"


        def check_scalar(x, aval):
            msg = "Gradient only defined for scalar-output functions. Output {}.".format
            if x:
                raise TypeError(msg(f"had shape: {aval.shape}"))
            raise TypeError(_too_many(len(x)))


        def pad(axis_size):
            error_msg = lambda: f"the axis size (= {axis_size}) is larger than 1"
            raise ValueError(error_msg())


        def option(name):
            raise KeyError(missing(name))


        def grad(mode):
            unimplemented = lambda fn_name, m: NotImplementedError(f"Unimplemented {fn_name} in mode {m.name}.")

            def grad_x_dims():
                raise unimplemented("grad_x_dims", mode)
            return grad_x_dims
    '''})
    scalar = _site(result, "check_scalar")
    assert _rendered(scalar) == ["Gradient only defined for scalar-output functions. Output had shape: {aval.shape}."]
    assert _rendered(_site(result, "check_scalar", 1)) == ["\nThe function was called with {len(x)} arguments, but takes one.\n"]
    assert _rendered(_site(result, "pad")) == ["the axis size (= {axis_size}) is larger than 1"]
    assert _rendered(_site(result, "option")) == ["'the option {name} is missing from the config'"]
    nested = _site(result, "grad.<locals>.grad_x_dims")
    assert _rendered(nested) == ["Unimplemented grad_x_dims in mode {m.name}."]  # attributes of a parameter stay
    assert (nested.exception, nested.exception_resolved) == ("NotImplementedError", "NotImplementedError")


def test_assignment_expression_in_a_test_binds_the_message(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def _forgot_tuple(name, shape, dtype):
            if isinstance(dtype, int) and isinstance(shape, int):
                return f"Cannot interpret '{dtype}' as a data type. Did you mean {name}(({shape}, {dtype}))?"


        def zeros(shape, dtype=None):
            if (m := _forgot_tuple("zeros", shape, dtype)):
                raise TypeError(m)


        def _describe(queue):
            if queue:
                return f"the queue still holds {len(queue)} jobs"


        def drain(queue):
            while (problem := _describe(queue)) is not None:
                raise RuntimeError("cannot drain: " + problem)
    '''})
    assert _rendered(_site(result, "zeros")) == [
        "Cannot interpret '{dtype}' as a data type. Did you mean zeros(({shape}, {dtype}))?"]
    assert _rendered(_site(result, "drain")) == ["cannot drain: the queue still holds {len(queue)} jobs"]


def test_lists_built_by_append_and_joined(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        import os
        import textwrap


        def mismatch(what1, what2, errs):
            msg = []
            msg.append(f"{what1} must have the same structure as {what2}, but there are differences:")
            for path, explanation in errs:
                msg.append(f"  * at {path}, {explanation};")
            raise TypeError("\\n".join(msg)[:-1])


        def k8s(e):
            lines = [f"Kubernetes API Error: {e.status}"]
            if e.status == 403:
                lines.extend(["forbidden", textwrap.fill("the service account may not read pods", width=20)])
            lines += ["see the docs"]
            raise RuntimeError("\\n".join(lines))


        def typecheck(prim, param):
            msg = f"invalid {prim} param of type {type(param).__name__}, required:"
            param_str = str(param)
            sep = os.linesep if "\\n" in param_str else " "
            raise ValueError(sep.join([msg, param_str]))


        def filled_elsewhere(diagnostics):
            lines = ["Cannot lower the module with verifier errors:"]
            def emit(d):
                lines.append(f"  {d.message}")
            for d in diagnostics:
                emit(d)
            raise ValueError("\\n".join(lines))
    '''})
    assert _rendered(_site(result, "mismatch")) == [
        "{what1} must have the same structure as {what2}, but there are differences",
        "{what1} must have the same structure as {what2}, but there are differences:\n  * at {path}, {explanation}",
    ]
    assert _rendered(_site(result, "k8s")) == [
        "Kubernetes API Error: {e.status}\nforbidden\nthe service account\nmay not read pods\nsee the docs",
        "Kubernetes API Error: {e.status}\nsee the docs",
    ]
    # a separator we cannot read is a placeholder between the known items
    assert _rendered(_site(result, "typecheck")) == [
        "invalid {prim} param of type {type(param).__name__}, required:{sep}{param_str}"]
    # a nested function fills the list: its items are not all visible, the join stays one placeholder
    filled = _site(result, "filled_elsewhere")
    assert _rendered(filled) == ['{"\\n".join(lines)}']


def test_exception_classes_held_in_variables_and_returned_by_helpers(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"errors.py": '''
        class KeyReuseError(RuntimeError):
            pass


        def error_with_traceback(message, traceback):
            err = KeyReuseError(message)
            if traceback is not None:
                err.__cause__ = traceback
            return err
    ''', "mod.py": '''
        from pkg.errors import error_with_traceback


        def convert(rounding, hw_limitation):
            err_type = ValueError if hw_limitation else NotImplementedError
            raise err_type(f"Only nearest rounding is supported, but got {rounding}")


        def consume(funcname, key):
            msg = f"Previously-consumed key passed to {funcname}"
            raise error_with_traceback(msg, key.traceback)


        def unreachable(*_, exc_type, message):
            raise exc_type(message)


        class Constraint:
            def make_error(self, left):
                return ValueError(f"The constraint does not hold for {left}")

            def check(self, left):
                raise self.make_error(left)
    '''})
    convert = _site(result, "convert")
    assert _rendered(convert) == ["Only nearest rounding is supported, but got {rounding}"]
    # one of two classes chosen into a local: named as the local, no one class (``resolve._instantiations``)
    assert (convert.exception, convert.exception_resolved) == ("err_type", "err_type")
    consume = _site(result, "consume")
    assert _rendered(consume) == ["Previously-consumed key passed to {funcname}"]
    assert consume.exception_resolved == "pkg.errors.KeyReuseError"
    # the class is a parameter and nobody in the package calls the function: the builtin rule for the text
    unreachable = _site(result, "unreachable")
    assert (_rendered(unreachable), unreachable.unresolved) == (["{message}"], ("message",))
    check = _site(result, "Constraint.check")
    assert (_rendered(check), check.exception_resolved) == (["The constraint does not hold for {left}"], "ValueError")


CHECKS = '''
    import warnings


    def check(pred, msg):
        if not pred:
            raise ValueError(msg)


    def check_positive(x, message):
        check(x > 0, message)


    def deprecate(deprecation_id, message, stacklevel, *, error_class=ValueError):
        if deprecation_id.startswith("accelerated-"):
            raise error_class(message)
        warnings.warn(message, category=DeprecationWarning, stacklevel=stacklevel + 1)


    def lonely(msg):
        raise RuntimeError(msg)
'''


def test_message_parameters_bound_by_the_callers(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"checks.py": CHECKS, "api.py": '''
        from pkg import checks
        from pkg.checks import check, check_positive, lonely


        def dot(lhs, rhs):
            msg = f"dot requires matching batch dimensions, got {lhs} and {rhs}."
            check(lhs == rhs, msg)
            check(lhs is not None, "dot requires a left-hand side")
            check(rhs is not None, "dot requires a left-hand side")  # the same text: one template
            check(lhs, lhs.name)  # a runtime value says no more than the parameter: no template


        def size(n):
            check_positive(n, "the size must be positive")


        def one_hot(x):
            checks.deprecate("one-hot-float", f"one_hot input should be integer-typed; got {x.dtype}", stacklevel=1)


        def array_dtype():
            checks.deprecate("array-dtype", "Implicit conversion of an array to a dtype is deprecated",
                             stacklevel=2, error_class=TypeError)


        lonely(None)
    '''})
    check = _site(result, "check")
    assert _rendered(check) == [
        "dot requires matching batch dimensions, got {lhs} and {rhs}.",
        "dot requires a left-hand side",
        "the size must be positive",  # passed on through check_positive's own parameter
    ]
    assert check.unresolved == ()
    raised = _site(result, "deprecate")
    assert _rendered(raised) == ["one_hot input should be integer-typed; got {x.dtype}",
                                 "Implicit conversion of an array to a dtype is deprecated"]
    assert raised.exception_resolved == "ValueError"  # the first caller's: the default
    warned = _site(result, "deprecate", 1)
    assert (warned.kind, _rendered(warned)) == ("warning", _rendered(raised))
    # nobody passes text: still the parameter, unresolved
    lonely = _site(result, "lonely")
    assert (_rendered(lonely), lonely.unresolved) == (["{msg}"], ("msg",))


def test_callers_beyond_the_cap_leave_the_site_unresolved(tmp_path: Path) -> None:
    calls = "\n".join(f"    check(x, 'message number {i} of many')" for i in range(MAX_CALLER_TEMPLATES + 1))
    result = _extract(tmp_path, {"checks.py": CHECKS, "api.py": f"from pkg.checks import check\n\n\ndef f(x):\n{calls}\n"})
    site = _site(result, "check")
    assert (_rendered(site), site.unresolved) == (["{msg}"], ("msg",))


def test_a_helper_method_of_a_generic_base_gets_its_subclasses_messages(tmp_path: Path) -> None:
    # click's ParamType.fail(message, param, ctx): every type's convert calls self.fail(...)
    result = _extract(tmp_path, {"types.py": '''
        import typing as t


        class BadParameter(Exception):
            pass


        class ParamType(t.Generic[t.Any]):
            def fail(self, message, param=None):
                raise BadParameter(message)


        class IntType(ParamType[int]):
            def convert(self, value, param):
                try:
                    return int(value)
                except ValueError:
                    self.fail(f"{value!r} is not a valid integer.", param)


        class Choice(ParamType[str]):
            def convert(self, value, param):
                if value not in self.choices:
                    self.fail("{value!r} is not one of {choices}.".format(value=value, choices=self.choices), param)
                return value
    '''})
    site = _site(result, "ParamType.fail")
    assert _rendered(site) == ["{value} is not a valid integer.", "{value} is not one of {self.choices}."]
    assert site.unresolved == ()


def test_messages_in_class_tables_read_by_key(tmp_path: Path) -> None:
    # marshmallow's and Django's fields: `default_error_messages` per class, `self.error_messages[key]`
    result = _extract(tmp_path, {"fields.py": '''
        class ValidationError(Exception):
            pass


        class Field:
            default_error_messages: dict = {"null": "Field may not be null.", "invalid": "Invalid value."}

            def make_error(self, key, **kwargs):
                msg = self.error_messages[key]
                if isinstance(msg, str):
                    msg = msg.format(**kwargs)
                return ValidationError(msg)

            def validate(self, value):
                if value is None:
                    raise self.make_error("null")


        class Number(Field):
            default_error_messages = {"invalid": "Not a valid number.", "too_large": "Number too large."}

            def convert(self, value):
                try:
                    return float(value)
                except ValueError:
                    raise self.make_error("invalid", input=value)


        class Integer(Number):
            default_error_messages = {"invalid": "Not a valid integer."}


        class Strict(Number):
            pass
    '''})
    assert _rendered(_site(result, "Number.convert")) == ["Not a valid number.", "Not a valid integer."]
    assert _rendered(_site(result, "Field.validate")) == ["Field may not be null."]


def test_a_class_attribute_message_unless_the_caller_gives_one(tmp_path: Path) -> None:
    # marshmallow's validators: `default_message`, `self.error = error or self.default_message`
    result = _extract(tmp_path, {"validate.py": '''
        class ValidationError(Exception):
            pass


        class URL:
            default_message = "Not a valid URL."

            def __init__(self, error=None):
                self.error = error or self.default_message

            def _format_error(self, value):
                return self.error.format(input=value)

            def __call__(self, value):
                message = self._format_error(value)
                if not value:
                    raise ValidationError(message)
                return value
    '''})
    assert "Not a valid URL." in _rendered(_site(result, "URL.__call__"))


def test_percent_format_whose_default_is_set_when_none(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def check_is_fitted(estimator, msg=None):
            if msg is None:
                msg = "This %(name)s instance is not fitted yet. Call 'fit' first."
            if not hasattr(estimator, "coef_"):
                raise ValueError(msg % {"name": type(estimator).__name__})
    '''})
    assert _rendered(_site(result, "check_is_fitted")) == [
        "This {type(estimator).__name__} instance is not fitted yet. Call 'fit' first."]


def test_str_of_an_attribute_kept_by_init(tmp_path: Path) -> None:
    # attrs' NotCallableError: __init__ keeps msg, __str__ returns str(self.msg)
    result = _extract(tmp_path, {"mod.py": '''
        class NotCallableError(TypeError):
            def __init__(self, msg, value):
                super(TypeError, self).__init__(msg, value)
                self.msg = msg
                self.value = value

            def __str__(self):
                return str(self.msg)


        def check(name, value):
            if not callable(value):
                msg = f"'{name}' must be callable (got {value!r} that is a {value.__class__!r})."
                raise NotCallableError(msg=msg, value=value)
    '''})
    assert _rendered(_site(result, "check")) == ["'{name}' must be callable (got {value} that is a {value.__class__})."]


def test_repeated_text_and_a_parameter_extended_with_plus_equals(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        import warnings


        def leaked(tracer):
            raise RuntimeError("Encountered an unexpected tracer.\\n" + "-" * 10 + f"\\n{tracer}")


        def update_layout(mat, n_dense, on_inefficient):
            def _maybe_err_or_warn(msg):
                if on_inefficient == "error":
                    msg += " To disable this error, set on_inefficient to 'warn' or None."
                    raise ValueError(msg)
                warnings.warn(msg)

            if n_dense > mat.n_dense:
                _maybe_err_or_warn(f"increasing n_dense to {n_dense} results in inefficient storage.")
            return mat
    '''})
    leaked = _site(result, "leaked")
    assert (_rendered(leaked), leaked.unresolved) == (
        ["Encountered an unexpected tracer.\n----------\n{tracer}"], ())
    err = _site(result, "update_layout.<locals>._maybe_err_or_warn")
    assert _rendered(err) == [
        "increasing n_dense to {n_dense} results in inefficient storage. To disable this error, set on_inefficient to "
        "'warn' or None."]
    assert err.unresolved == ()


def test_a_local_holding_a_caught_exception_names_its_class(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        import operator


        def canonicalize(dim):
            try:
                return operator.index(dim)
            except TypeError as e:
                type_error = e
            raise type_error


        def sync(client):
            exception = None
            try:
                client.wait()
            except (TimeoutError, ConnectionError) as e:
                exception = e
            if exception:
                raise exception
    '''})
    canon = _site(result, "canonicalize")
    assert (canon.exception_resolved, _rendered(canon), canon.unresolved) == ("TypeError", ["{type_error}"], ("type_error",))
    assert _site(result, "sync").exception_resolved == "TimeoutError"


def test_a_module_level_exception_instance(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        functionalization_error = ValueError(
            "Cannot abstractly evaluate a check which was not functionalized.")


        def abstract_eval(pred):
            raise functionalization_error
    '''})
    site = _site(result, "abstract_eval")
    assert (_rendered(site), site.exception, site.exception_resolved) == (
        ["Cannot abstractly evaluate a check which was not functionalized."], "ValueError", "ValueError")


def test_classmethod_factories_that_return_cls(tmp_path: Path) -> None:
    # mlflow raises ~1,000 of its errors as `MlflowException.invalid_parameter_value("...")`: before,
    # a lone placeholder of the whole call, and 21% of mlflow 3.18's sites had literal text (now 86%)
    result = _extract(tmp_path, {"exceptions.py": '''
        INVALID_PARAMETER_VALUE = 1000


        class MlflowException(Exception):
            def __init__(self, message, error_code=None, **kwargs):
                message = str(message)  # the caller's text, still
                self.message = message
                self.error_code = error_code
                super().__init__(message)

            @classmethod
            def invalid_parameter_value(cls, message, **kwargs):
                """Constructs an `MlflowException` object with the `INVALID_PARAMETER_VALUE` error code."""
                return cls(message, error_code=INVALID_PARAMETER_VALUE, **kwargs)

            @classmethod
            def for_field(klass, field):
                err = klass(f"field {field!r} is not set")
                return err


        class NotFound(MlflowException):
            pass
    ''', "chat.py": '''
        from pkg.exceptions import MlflowException, NotFound


        def convert(message):
            if not isinstance(message, dict):
                raise MlflowException.invalid_parameter_value(
                    f"Message must be either a dict or a Message object, but got: {type(message)}."
                )


        def lookup(name):
            raise NotFound.for_field(name)


        def shadowed(cls):
            raise cls("a parameter named cls outside a classmethod is just a parameter")
    '''})
    convert = _site(result, "convert")
    assert convert.exception == "MlflowException"
    assert convert.exception_resolved == "pkg.exceptions.MlflowException"
    assert _rendered(convert) == ["Message must be either a dict or a Message object, but got: {type(message)}."]
    assert convert.unresolved == ()
    found = _site(result, "lookup")  # another first-parameter name, through a local, called on a subclass
    assert _rendered(found) == ["field {name} is not set"]
    assert (found.exception, found.exception_resolved) == ("NotFound", "pkg.exceptions.NotFound")  # cls: the caller's class
    assert _site(result, "shadowed").exception == "cls"


def test_str_of_an_exception_that_reads_self_args(tmp_path: Path) -> None:
    # SQLAlchemy's errors render `self.args[0]` through helper methods, plus a link when they have
    # a code: the raise's own text used to be lost behind `{message} {self._code_str()}`
    result = _extract(tmp_path, {"exc.py": '''
        class HasDescriptionCode:
            code = None

            def _code_str(self):
                if not self.code:
                    return ""
                return f"(Background on this error at: https://sqlalche.me/e/20/{self.code})"


        class SQLAlchemyError(HasDescriptionCode, Exception):
            def _message(self):
                if len(self.args) == 1:
                    arg_text = self.args[0]
                    if isinstance(arg_text, bytes):
                        text = arg_text.decode("utf-8", "backslashreplace")
                    else:
                        text = str(arg_text)
                    return text
                return str(self.args)

            def _sql_message(self):
                message = self._message()
                if self.code:
                    message = "%s %s" % (message, self._code_str())
                return message

            def __str__(self):
                return self._sql_message()


        class ResourceClosedError(SQLAlchemyError):
            code = "rcls"


        class Tagged(Exception):
            def __init__(self, tag, detail):
                self.tag = tag
                super().__init__(detail)

            def __str__(self):
                return f"[{self.tag}] {self.args[0]}"
    ''', "engine.py": '''
        from pkg import exc


        def close(conn):
            if conn is None:
                raise exc.ResourceClosedError("This Connection is closed")


        def tagged(x):
            raise exc.Tagged("io", f"cannot read {x}")
    '''})
    closed = _rendered(_site(result, "close"))
    # the link a code adds comes from a method of the exception: its text, `self.code` a value
    assert closed[0].startswith("This Connection is closed")  # the first template: the one the id hashes
    assert "This Connection is closed (Background on this error at: https://sqlalche.me/e/20/{self.code})" in closed
    assert "This Connection is closed" in closed
    assert _rendered(_site(result, "tagged")) == ["[io] cannot read {x}"]


def test_text_filled_to_a_width_we_cannot_see(tmp_path: Path) -> None:
    # SymPy raises ~190 errors through `filldedent`: its text must survive the refilling
    result = _extract(tmp_path, {"misc.py": """
        from textwrap import dedent, fill


        def filldedent(s, w=70, **kwargs):
            return '\\n' + fill(dedent(str(s)).strip('\\n'), width=w, **kwargs)
    """, "calculus.py": '''
        from pkg.misc import filldedent


        def singularities(expression, symbol):
            raise NotImplementedError(filldedent("""
                Algorithms finding singularities for non-rational
                functions are not yet implemented."""))


        def named(name):
            raise ValueError(filldedent(f"""
                The symbol {name} is not
                a real variable."""))
    '''})
    text = _rendered(_site(result, "singularities"))[0]
    assert " ".join(text.split()) == (
        "Algorithms finding singularities for non-rational functions are not yet implemented.")
    assert " ".join(_rendered(_site(result, "named"))[0].split()) == "The symbol {name} is not a real variable."
