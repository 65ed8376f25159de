"""Texts a module helper appends to lists it returns, joined by the caller into the text it raises
(hdmf 6.2.0's docval, round 35: ``__parse_args`` appends ``"incorrect type for '%s' (got '%s', expected
'%s')" % fmt_val`` and the like to ``type_errors`` / ``value_errors`` / ``syntax_errors`` and returns them in a
dict under literal keys; the decorated function's ``_check_args`` loops over ``(('type_errors', TypeError),
...)``, reads ``parsed.get(error_type)`` and raises ``'%s: %s' % (func.__qualname__, ', '.join(parse_err))``).
The raise's template was ``{}: {}``; it is now one template per collected text (the keys the loop reads, each
list in turn), a helper's returned text among them.  A list returned itself (``return problems``) is read the
same way; a local list of a caller's own, a helper of unknown lists and a list the helper got from elsewhere
are not (a list of the helper's parameter holds the caller's items too)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

UTILS = '''
    def _shape_message(argname, valshape, allowed):
        return f"incorrect shape for {argname}: got {valshape}, and expected {allowed}"


    def _parse_args(validator, args, kwargs, allow_positional=True):
        type_errors = list()
        value_errors = list()
        syntax_errors = list()
        future_warnings = list()
        ret = dict()
        if args and not allow_positional:
            msg = 'Only keyword arguments (e.g., func(argname=value, ...)) are allowed for this method.'
            syntax_errors.append(msg)
        for arg in validator:
            argname = arg['name']
            if argname not in kwargs:
                type_errors.append("missing argument '%s'" % argname)
            argval = kwargs.get(argname)
            if not isinstance(argval, arg['type']):
                fmt_val = (argname, type(argval).__name__, arg['type'].__name__)
                type_errors.append("incorrect type for '%s' (got '%s', expected '%s')" % fmt_val)
            if 'shape' in arg and len(argval) != arg['shape']:
                value_errors.append(_shape_message(argname, len(argval), arg['shape']))
            if arg.get('deprecated'):
                future_warnings.append("argument '%s' is deprecated" % argname)
            ret[argname] = argval
        return {'args': ret, 'future_warnings': future_warnings, 'type_errors': type_errors,
                'value_errors': value_errors, 'syntax_errors': syntax_errors}


    def docval(*validator):
        def dec(func):
            def _check_args(args, kwargs):
                parsed = _parse_args(validator, args, kwargs)
                for error_type, ExceptionType in (('type_errors', TypeError),
                                                  ('value_errors', ValueError),
                                                  ('syntax_errors', SyntaxError)):
                    parse_err = parsed.get(error_type)
                    if parse_err:
                        msg = '%s: %s' % (func.__qualname__, ', '.join(parse_err))
                        raise ExceptionType(msg)
                return parsed['args']

            def func_call(*args, **kwargs):
                return func(**_check_args(args, kwargs))
            return func_call
        return dec


    def check_value_errors(validator, kwargs):
        parsed = _parse_args(validator, (), kwargs)
        if parsed['value_errors']:
            raise ValueError('; '.join(parsed['value_errors']))


    def _problems(config):
        problems = []
        if 'name' not in config:
            problems.append('no name given')
        for key in config:
            if not key.isidentifier():
                problems.append(f'{key!r} is not an identifier')
        return problems


    def validate(config):
        found = _problems(config)
        if found:
            raise ValueError('invalid config: ' + ', '.join(found))


    def _more_problems(problems, config):
        if not config:
            problems.append('empty config')
        return problems


    def revalidate(config, earlier):
        found = _more_problems(earlier, config)
        raise ValueError('invalid config: ' + ', '.join(found))
'''

QUALNAME = "{func.__qualname__}"


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "dv").mkdir()
    (tmp_path / "dv" / "__init__.py").touch()
    (tmp_path / "dv" / "utils.py").write_text(textwrap.dedent(UTILS))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_the_loop_keys_texts_in_turns(tmp_path: Path) -> None:
    found = _templates(tmp_path)["docval.<locals>.dec.<locals>._check_args"]
    assert found == [
        f"{QUALNAME}: missing argument '{{argname}}'",
        f"{QUALNAME}: incorrect shape for {{argname}}: got {{len(argval)}}, and expected {{arg['shape']}}",
        f"{QUALNAME}: Only keyword arguments (e.g., func(argname=value, ...)) are allowed for this method.",
        f"{QUALNAME}: incorrect type for '{{fmt_val[0]}}' (got '{{fmt_val[1]}}', expected '{{fmt_val[2]}}')",
    ]  # (not the future warnings: no key the loop reads)


def test_a_literal_key_reads_its_list(tmp_path: Path) -> None:
    found = _templates(tmp_path)["check_value_errors"]
    assert found == ["incorrect shape for {argname}: got {len(argval)}, and expected {arg['shape']}"]


def test_a_returned_list(tmp_path: Path) -> None:
    found = _templates(tmp_path)["validate"]
    assert found == ["invalid config: no name given", "invalid config: {key} is not an identifier"]


def test_a_list_the_helper_was_handed_stays_unknown(tmp_path: Path) -> None:
    # its items before the call are the caller's: 'empty config' is only one of them
    assert _templates(tmp_path)["revalidate"] == ["invalid config: {', '.join(found)}"]
