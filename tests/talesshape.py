"""A template engine in the shape of zope.tales 7.0's ``tales.py``, shared by the extraction and the matching tests of a
class returned by a call (issue 17's ninetieth round): ``Engine.getCompilerError()`` returns the class its
expressions raise, ``raise engine.getCompilerError()('Path element may not be empty in %r' % path)``."""

ENGINE = '''
class CompilerError(Exception):
    """Expression compilation error."""


class Engine:
    def getCompilerError(self):
        return CompilerError
'''
