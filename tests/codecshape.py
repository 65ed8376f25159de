"""A codec error handler in the shape of codext 1.16.5's ``__common__.handle_error`` (issue 17's ninetieth round),
shared by the extraction and the matching tests of a class returned by a call: its closure builds ``err =
getattr(builtins, exc)(f"'{ename}' codec can't ...")`` (a class looked up by a name made at run time), sets an
attribute on it and raises it; its base-2^n codecs raise ``'base{n}' codec can't decode character ...``
themselves (``BASE2N``), the nearest text of another raise."""

COMMON = '''
import builtins


def exc_name(ename):
    return "".join(p.capitalize() for p in ename.split("-"))


def handle_error(ename, errors, decode=False, kind="character", item="position"):
    exc = f"{exc_name(ename)}{['En', 'De'][decode]}codeError"

    def _handle_error(token, position, output=""):
        if errors == "strict":
            err = getattr(builtins, exc)(f"'{ename}' codec can't {['en', 'de'][decode]}code {kind} '{token}' "
                                         f"in {item} {position}")
            err.output = output
            raise err
        elif errors == "replace":
            return "?"
        raise ValueError(f"Unsupported error handling '{errors}'")
    return _handle_error
'''

BASE2N = '''
class Base2NDecodeError(ValueError):
    pass


def base2n_decode(text, n, alphabet):
    for i, c in enumerate(text):
        if c not in alphabet:
            raise Base2NDecodeError(f"'base{n}' codec can't decode character '{c}' in position {i}")
    return text
'''
