"""Open a table's port by URL with pyserial: ``/dev/ttyUSB0``, ``COM3``, ``socket://h:p``,
``rfc2217://h:p``, ``loop://``, ``spy://...`` and simulator paths all go through one call."""

from __future__ import annotations

import serial

from hardware.errors import TableOffline

#: Errors that mean "the cable or the device went away", as opposed to a protocol problem.
LINK_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError)


NETWORK_SCHEMES = ("socket", "rfc2217")


def open_port(url: str, baudrate: int = 115200, read_timeout: float = 0.02) -> serial.SerialBase:
    """Open ``url`` for binary I/O; raises ``TableOffline`` naming the URL if it cannot."""
    if not url:
        raise TableOffline("no table port given (use a device path or a URL like socket://h:p)")
    check_network_url(url)
    try:
        # exclusive: two programs driving one table would steal each other's replies.
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=read_timeout,
                                     write_timeout=1.0, exclusive=True)
    except ValueError as exc:
        raise TableOffline(f"cannot open table port {url}: {exc}") from None
    except LINK_ERRORS as exc:
        if "exclusively lock" in str(exc):
            raise TableOffline(f"cannot open table port {url}: another program already has "
                               f"it open") from None
        cause = exc.__context__ if isinstance(exc.__context__, OSError) else exc
        reason = getattr(cause, "strerror", None) or str(exc)
        raise TableOffline(f"cannot open table port {url}: {reason}") from None
    return port


def check_network_url(url: str) -> None:
    """Refuse a ``socket://`` or ``rfc2217://`` URL without a host or a port 1..65535.

    pyserial would answer with its internal messages ("'<=' not supported between ...").
    """
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in NETWORK_SCHEMES:
        return
    host, colon, port = rest.split("/", 1)[0].split("?", 1)[0].rpartition(":")
    if not colon:
        raise TableOffline(f"table port {url}: a {scheme}:// URL needs a port, like "
                           f"{scheme}://{rest.split('/')[0] or 'host'}:5000")
    if not host:
        raise TableOffline(f"table port {url}: a {scheme}:// URL needs a host, like "
                           f"{scheme}://127.0.0.1:{port or 5000}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise TableOffline(f"table port {url}: the port must be a number 1..65535, got {port!r}")


def read_some(port: serial.SerialBase) -> bytes:
    """What has arrived, waiting at most the port's read timeout for the first byte."""
    waiting = port.in_waiting
    return bytes(port.read(waiting if waiting else 1))
