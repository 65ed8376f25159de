"""A deadline wrapper in the shape of grpclib 0.4.9's ``utils.py`` (issue 17's ninety-second round), shared by the
extraction and the matching tests of an exception object handed to a setter: ``Wrapper.cancel(self, error)``
keeps ``self._error = error``, ``__enter__`` and ``__exit__`` raise it, and ``DeadlineWrapper.start``'s timer
callback hands ``cancel`` an ``asyncio.TimeoutError('Deadline exceeded')`` built on the spot, while ``start``
raises that very text itself when no time is left."""

UTILS = '''
import asyncio
from contextlib import contextmanager
from typing import Optional


class Wrapper:
    _error: Optional[Exception] = None

    def __init__(self) -> None:
        self._tasks = set()

    def __enter__(self) -> None:
        if self._error is not None:
            raise self._error
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError('Called not inside a task')
        self._tasks.add(task)

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        if self._error is not None:
            raise self._error

    def cancel(self, error: Exception) -> None:
        self._error = error
        for task in self._tasks:
            task.cancel()


class DeadlineWrapper(Wrapper):
    @contextmanager
    def start(self, deadline):
        timeout = deadline.time_remaining()
        if not timeout:
            raise asyncio.TimeoutError('Deadline exceeded')

        def callback() -> None:
            self.cancel(asyncio.TimeoutError('Deadline exceeded'))

        timer = asyncio.get_event_loop().call_later(timeout, callback)
        try:
            yield
        finally:
            timer.cancel()
'''
