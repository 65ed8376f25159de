"""A helper interpolating a parameter among its own text, to which the package's callers pass literal text
(imapclient 4.1.0's ``_int_or_error(value, error_text)`` raising ``ProtocolError("%s: %s" % (error_text,
repr(value)))``, called with "invalid message ID" and "invalid UID"; issue 17's forty-ninth round): the site
gets the callers' texts as templates first and keeps its own for a caller outside the package
(``resolve.Resolver._interpolated_callers``); a number or a single word a caller passes is no such text.  A text handed to a helper as ``"".join(parts)`` of a local list is
a caller's message too (suds-community 1.2.0's ``self.__error("".join(msg_parts))``, ``stmts.message_arg``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

PARSER = '''
    class ProtocolError(Exception):
        pass


    def parse_fetch_response(response, value):
        msg_id = _int_or_error(next(response), "invalid message ID")
        uid = _int_or_error(value, "invalid UID")
        return msg_id, uid


    def _int_or_error(value, error_text):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ProtocolError("%s: %s" % (error_text, repr(value)))


    def _checked_count(value, what):
        if value < 0:
            raise ValueError("{} must not be negative, got {!r}".format(what, value))
        return value


    def _checked_size(value, what):
        if value > 1024:
            raise ValueError(f"{what} is too large: {value}")
        return value


    def read_header(header, limit):
        count = _checked_count(header[0], "message count")
        size = _checked_size(header[1], "header size")
        return count, size, _checked_size(limit, limit.name)


    def _frame(value, label):
        raise ProtocolError(f"bad frame {label}: {value}")


    def parse_frame(data, label):
        _frame(data, label)


    def _check_length(text, minlength, description):
        if len(text) < minlength:
            raise ValueError("The {0} is too short: {1}, but minimum is {2}".format(description, len(text), minlength))


    def read_name(data):
        _check_length(data, 4, "user name")


    def import_attr(attr_name, module_name, exception_prefix):
        if "." not in attr_name:
            message = f'{exception_prefix}"{attr_name}" unimportable, as it is no dotted name.'
        elif module_name is None:
            message = f'{exception_prefix}"{attr_name}" unimportable from module "{module_name}".'
        else:
            message = f'{exception_prefix}"{attr_name}" unimportable.'
        raise ImportError(message)


    def die_unless_attr(attr_name, module_name):
        import_attr(attr_name, module_name, "Module attribute ")


    def resolve_hint(hint, func):
        import_attr(hint, None, exception_prefix=f"Function {func.__qualname__}() hint ")
'''

ARGS = '''
    class ArgParser:
        def __init__(self, method_name):
            self.__method_name = method_name
            self.__args = []

        def check(self, args_required):
            if self.__args:
                def plural_suffix(count):
                    if count == 1:
                        return ""
                    return "s"
                given = len(self.__args)
                msg_parts = ["takes %s positional argument" % (args_required,),
                    plural_suffix(args_required), " but %d given" % (given,)]
                self.__error("".join(msg_parts))

        def __error(self, message):
            raise TypeError("%s() %s" % (self.__method_name, message))
'''


def _package(tmp_path: Path, name: str, code: str) -> Path:
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "parser.py").write_text(textwrap.dedent(code))
    return tmp_path


def _shown(site: object) -> list[str]:
    return [t.display() for t in site.templates]  # type: ignore[attr-defined]


def test_callers_texts_reach_the_interpolated_parameter(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "imapish", PARSER))
    site = site_in(result, "imapish/parser.py", "_int_or_error")
    assert _shown(site) == ["invalid message ID: {repr(value)}", "invalid UID: {repr(value)}",
                            "{error_text}: {repr(value)}"]


def test_format_and_fstring_forms_keep_their_own_template_last(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "imapish", PARSER))
    assert _shown(site_in(result, "imapish/parser.py", "_checked_count")) == [
        "message count must not be negative, got {value}", "{what} must not be negative, got {value}"]
    # a caller passing a runtime value (`limit.name`) adds nothing: its own template stays
    assert _shown(site_in(result, "imapish/parser.py", "_checked_size")) == [
        "header size is too large: {value}", "{what} is too large: {value}"]


def test_a_runtime_value_alone_changes_nothing(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "imapish", PARSER))
    assert _shown(site_in(result, "imapish/parser.py", "_frame")) == ["bad frame {label}: {value}"]


def test_a_number_or_a_name_passed_is_no_text(tmp_path: Path) -> None:
    # a user's call passes other lengths and names: `minlength=4` would read `too short: 2, but minimum is 4`
    # better than the raise's own template
    result = extract_dir(_package(tmp_path, "imapish", PARSER))
    assert _shown(site_in(result, "imapish/parser.py", "_check_length")) == [
        "The user name is too short: {len(text)}, but minimum is {minlength}",
        "The {description} is too short: {len(text)}, but minimum is {minlength}"]


def test_every_own_template_is_kept_beside_the_callers(tmp_path: Path) -> None:
    # beartype 0.23.1's `import_module_attr(..., exception_prefix)`: one caller passes "Module attribute ", another a
    # runtime prefix (`Function {...}() hint `), whose text only the raise's own templates read
    result = extract_dir(_package(tmp_path, "bearish", PARSER))
    shown = _shown(site_in(result, "bearish/parser.py", "import_attr"))
    own = [s for s in shown if s.startswith("{exception_prefix}")]
    assert len(own) == 3, shown
    assert any(s.startswith("Module attribute ") for s in shown)


def test_a_joined_list_is_a_callers_message(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "sudsish", ARGS))
    shown = _shown(site_in(result, "sudsish/parser.py", "ArgParser.__error"))
    assert "{self.__method_name}() takes {args_required} positional arguments but {given} given" in shown
    assert "{self.__method_name}() takes {args_required} positional argument but {given} given" in shown


KEYWORDS = '''
    class ProtocolError(Exception):
        pass


    def _int_or_error(value, error_text):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ProtocolError("%s: %s" % (error_text, repr(value)))


    def parse_uid(value, uids):
        uid = _int_or_error(value, error_text="invalid UID")
        uids.append(uid)


    def import_attr(attr_name, module_name=None, exception_prefix="Attribute "):
        if module_name is None:
            message = f'{exception_prefix}"{attr_name}" unimportable.'
        else:
            message = f'{exception_prefix}"{attr_name}" unimportable from module "{module_name}".'
        raise ImportError(message)


    def import_typing_attr(typing_attr_basename):
        typing_attr = import_attr(
            attr_name="typing." + typing_attr_basename,
            exception_prefix='Typing attribute ',
        )
        return typing_attr
'''


def test_texts_passed_by_keyword_from_a_function_raising_nothing(tmp_path: Path) -> None:
    # beartype 0.23.1's `import_module_attr_or_none(attr_name=f'typing.{...}', exception_prefix='Typing attribute ')`
    # in a function that raises nothing itself: walked for its call as one passing `("...")` is
    result = extract_dir(_package(tmp_path, "bearish", KEYWORDS))
    assert _shown(site_in(result, "bearish/parser.py", "_int_or_error")) == [
        "invalid UID: {repr(value)}", "{error_text}: {repr(value)}"]
    shown = _shown(site_in(result, "bearish/parser.py", "import_attr"))
    assert any(s.startswith('Typing attribute "') for s in shown), shown
