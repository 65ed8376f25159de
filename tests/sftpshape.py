"""An SFTP client's status errors in the shape of asyncssh 2.24.1's ``sftp.py`` (issue 17's forty-eighth round),
shared by the extraction and the matching tests of classes picked from a table: ``SFTPError.construct`` binds
``exc = _sftp_error_map[code](reason, lang)`` (an annotated module-level display of classes) in a ``try`` whose
``except KeyError`` builds ``SFTPError(code, f"{reason} (error {code})", lang)``, returns ``exc``, and
``_process_status`` raises what it returns; ``_process_data`` re-raises a saved exception, the loose raise the class
fallback named before."""

SFTP = '''from typing import Callable, Dict

FX_OK = 0
FX_EOF = 1
FX_NO_SUCH_FILE = 2


class Error(Exception):
    def __init__(self, code, reason, lang="en-US"):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.lang = lang

    def __str__(self):
        return self.reason


class SFTPError(Error):
    @staticmethod
    def construct(packet):
        code = packet.get_uint32()
        reason = packet.get_string().decode("utf-8")
        lang = packet.get_string().decode("ascii")
        if code == FX_OK:
            return None
        else:
            try:
                exc = _sftp_error_map[code](reason, lang)
            except KeyError:
                exc = SFTPError(code, f"{reason} (error {code})", lang)
            exc.decode(packet)
            return exc

    def decode(self, packet):
        pass


class SFTPEOFError(SFTPError):
    def __init__(self, reason="", lang="en-US"):
        super().__init__(FX_EOF, reason, lang)


class SFTPNoSuchFile(SFTPError):
    def __init__(self, reason, lang="en-US"):
        super().__init__(FX_NO_SUCH_FILE, reason, lang)


_sftp_error_map: Dict[int, Callable[[str, str], SFTPError]] = {
    FX_EOF: SFTPEOFError,
    FX_NO_SUCH_FILE: SFTPNoSuchFile,
}


class SFTPClientHandler:
    def _process_status(self, packet):
        exc = SFTPError.construct(packet)
        if exc:
            raise exc

    def _process_data(self, packet, saved_exc):
        if saved_exc:
            raise saved_exc
        return packet.get_string()
'''
