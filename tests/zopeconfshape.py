"""A configuration error in the shape of zope.configuration 7.1's ``exceptions.py``, shared by the extraction and
the matching tests of a class's text composed through another of its methods (issue 17's eighty-ninth and
ninety-fourth rounds): ``__str__`` hands ``super().__str__()`` to ``_with_details``, which puts the detail lines that
``add_details`` collected (``traceback.format_exception_only`` of a caught error, indented) under it."""

EXCEPTIONS = '''
import traceback


class ConfigurationError(Exception):
    """There was an error in a configuration"""

    _details = ()

    def add_details(self, info):
        if isinstance(info, BaseException):
            info = traceback.format_exception_only(type(info), info)
            info[-1] = info[-1].rstrip()
            self._details += tuple(info)
        else:
            self._details += (info,)
        return self

    def _with_details(self, opening, detail_formatter):
        lines = ['    ' + detail_formatter(detail) for detail in self._details]
        lines.append(opening)
        lines.reverse()
        return '\\n'.join(lines)

    def __str__(self):
        s = super().__str__()
        return self._with_details(s, str)

    def __repr__(self):
        s = super().__repr__()
        return self._with_details(s, repr)


class ConfigurationWrapperError(ConfigurationError):

    USE_INFO_REPR = False

    def __init__(self, info, exception):
        super().__init__(
            repr(info) if self.USE_INFO_REPR else info)
        self.add_details(exception)
'''
