"""The exception class of the keyword tests (``test_keywords``, ``test_helper_keywords``): dataclass-wizard
1.0.0's ``ParseError`` shape, whose ``__str__`` prints each extra keyword of its raise as a ``  name: value`` line
(round 24), so the keywords a raise passes show in its text."""

PARSE_ERROR = '''
class ParseError(Exception):
    def __init__(self, base_err, obj, phase, **kwargs):
        super().__init__()
        self.base_error = base_err
        self.obj = obj
        self.phase = phase
        self.kwargs = kwargs

    def __str__(self):
        msg = f"Failed to {self.phase} value {self.obj!r}.\\n  error: {self.base_error}"
        if self.kwargs:
            parts = "\\n  ".join(f"{k}: {v!r}" for k, v in self.kwargs.items())
            msg = f"{msg}\\n  {parts}"
        return msg
'''
