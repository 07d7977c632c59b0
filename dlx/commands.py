"""What the ``dlx`` and ``sudoku`` commands share: leaving at once with the right status, a notice
while numba compiles, and argparse types that say why a value is refused."""
from __future__ import annotations

import _thread
import argparse
import contextlib
import errno
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

__all__ = ["NOTICE", "IntermixedParser", "Version", "compile_notice", "exit_now", "whole_number"]


def exit_now(main: Callable[[], int], prog: str = "dlx") -> NoReturn:
    """Run a command's ``main`` and leave the process at once with its status, stdout and stderr
    flushed. Skipping the interpreter's teardown matters: unloading the compiled kernels takes about
    0.4 s, more than answering a small problem, and would delay the end of an interrupted command.
    Output that cannot be written (a full disk, a device error) ends it with one line naming the
    error and status 1, also when only the last flush finds out."""
    sys.unraisablehook = _interrupt_again(sys.unraisablehook)
    status: int | str | None
    try:
        status = main()
    except SystemExit as e:             # argparse's --help, --version and usage errors
        status = e.code
    except BrokenPipeError:             # a reader gone away: stop quietly, as other filters do
        status = 1
    except OSError as e:                # every input error is reported where it happens: output
        status = _cannot_write(prog, e) if e.errno in _OUTPUT_ERRORS else _error(prog, e)
    if isinstance(status, str):
        print(status, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
        except OSError as e:
            if stream is sys.stdout:
                status = status or _cannot_write(prog, e)
        except ValueError:              # a stream closed
            pass
    os._exit(status or 0)


#: What writing the output may fail with.
_OUTPUT_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.EBADF)


def _cannot_write(prog: str, error: OSError) -> int:
    return _error(prog, f"cannot write the output: {error.strerror or error}")


def _error(prog: str, error) -> int:
    with contextlib.suppress(OSError, ValueError):
        print(f"{prog}: error: {error}", file=sys.stderr)
    return 1


def _interrupt_again(hook: Callable) -> Callable:
    """``sys.unraisablehook`` for a command: Python raises Ctrl-C's KeyboardInterrupt wherever the
    main thread is, and one that lands in a finalizer (a Dask future's ``__del__``, say) is printed
    as "Exception ignored" and lost, so the command would go on as if nothing was pressed. This
    hook has it raised again: a thread waiting for lost interrupts calls ``interrupt_main`` once
    the hook has returned (called from the hook, the interrupt would land in the hook itself and
    be lost again). Other unraisable errors go to ``hook``."""
    lost = threading.Semaphore(0)

    def raise_lost() -> None:
        while True:
            lost.acquire()
            _thread.interrupt_main()

    threading.Thread(target=raise_lost, name="dlx-ctrl-c", daemon=True).start()

    def interrupt_again(unraisable) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            lost.release()
        else:
            hook(unraisable)
    return interrupt_again


#: What a command says, once, when numba starts compiling its kernels.
NOTICE = "{prog}: compiling the kernels (first run only, some seconds)..."


@contextlib.contextmanager
def compile_notice(prog: str) -> Iterator[None]:
    """Say once on stderr, while the block runs, that numba is compiling the kernels, when and only
    when it does: numba announces each compile with a ``numba:compile`` event whose start comes
    before its compiler runs, and sends none when it loads a kernel from its cache. So a machine's
    first run (some seconds of compiling) is told why it waits, before it waits, and a run that
    loads the kernels is told nothing, however slow the load on a busy machine."""
    from numba.core import event

    said = threading.Event()

    class Notice(event.Listener):
        def on_start(self, _event: event.Event) -> None:
            if not said.is_set():
                said.set()
                print(NOTICE.format(prog=prog), file=sys.stderr, flush=True)

        def on_end(self, _event: event.Event) -> None:
            pass

    with event.install_listener("numba:compile", Notice()):
        yield


def whole_number(minimum: int):
    """An argparse type: a whole number of at least ``minimum``, with a message saying why not."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(
                "must not be negative" if minimum == 0 else f"must be at least {minimum}: {value}")
        return value
    return parse


class IntermixedParser(argparse.ArgumentParser):
    """A parser that takes arguments and flags in any order (``sudoku solve a.txt --quiet b.txt``,
    ``dlx queens --count 8``), as `argparse.ArgumentParser.parse_intermixed_args` does, also
    as a subcommand's parser (argparse hands a subcommand its words through ``parse_known_args``)."""

    _mixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._mixing:            # parse_known_intermixed_args calls back here (Python < 3.13)
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


class Version(argparse.Action):
    """``--version``: prints ``PROG VERSION`` and exits, reading the version only when asked (the
    installed distribution's metadata costs about 60 ms to read, too much for every start-up)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the program's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from ._version import __version__
        parser.exit(message=f"{parser.prog} {__version__}\n")


def progress_bar(*, disable: bool = False, **options: Any) -> Any:
    """A progress bar on stderr: tqdm's when it is installed (the ``progress`` extra, which the
    ``test`` extra includes), else one that draws nothing; none when ``disable``. tqdm is loaded
    here, on the first bar asked for, so that importing and using the library never loads it."""
    if disable:
        return NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return NoBar()
    return tqdm(file=sys.stderr, **options)


class NoBar:
    """A progress bar that draws nothing (tqdm's methods the commands call)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass
