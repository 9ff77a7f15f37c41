"""Matches of a simulation as Ray tasks: on a Ray cluster, or on a Ray started on this machine. Ray is an
optional extra (`pip install 'ruledeck[ray]'`); every node must be able to read the ruleset's files (a shared
folder, or the same checkout at the same path)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from typing import Any

from interpreter.errors import RuledeckError


class RayUnavailable(RuledeckError):
    """Ray is not installed, or its cluster cannot be reached."""


def play_chunks(play: Callable[[Any, list[int]], list[Any]], job: Any, chunks: list[list[int]], workers: int,
                address: str | None, done: Callable[[int], None]) -> list[list[Any]]:
    """`play(job, seeds)` for every chunk of seeds, as Ray tasks; the chunks' results in the chunks' order,
    `done(n)` called as each chunk of n matches finishes."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("the Ray backend needs Ray: pip install 'ruledeck[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
            else:
                _check_reachable(address)
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayUnavailable(f"cannot start or reach Ray{f' at {address}' if address else ''}: {error}") \
                from None
    try:
        task = ray.remote(play)
        pending = {task.remote(job, chunk): index for index, chunk in enumerate(chunks)}
        results: list[list[Any] | None] = [None] * len(chunks)
        waiting = list(pending)
        try:
            while waiting:
                finished, waiting = ray.wait(waiting, num_returns=1)
                for reference in finished:
                    index = pending[reference]
                    results[index] = ray.get(reference)
                    done(len(chunks[index]))
        except _task_failure(ray) as failed:  # a match failed in a task: its own error, as locally
            _cancel(ray, waiting)
            cause = getattr(failed, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise
        except BaseException:  # interrupted (Ctrl-C) or failed: the tasks not finished are cancelled
            _cancel(ray, waiting)
            raise
        return [chunk for chunk in results if chunk is not None]
    finally:
        if started_here:
            ray.shutdown()


def _task_failure(ray: Any) -> Any:
    """The exception Ray raises for a task that failed (none to catch for a Ray that names none)."""
    return getattr(getattr(ray, "exceptions", None), "RayTaskError", ())


def _cancel(ray: Any, references: list[Any]) -> None:
    """Cancel Ray tasks, ending those already running (a cluster would play them on after the run is gone)."""
    for reference in references:
        try:
            ray.cancel(reference, force=True)
        except Exception:  # finished meanwhile, or Ray is going down: nothing left to cancel
            continue


ADDRESS_FORM = "expected HOST:PORT (or ray://HOST:PORT, or auto)"


def address_parts(address: str) -> tuple[str, int] | None:
    """A cluster's `HOST:PORT` (or `ray://HOST:PORT`) as its host and port; None for another form."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    return (host, int(port)) if host and port.isdigit() and port.isascii() else None


def _check_reachable(address: str) -> None:
    """Fail at once, saying so, when a cluster's `HOST:PORT` (or `ray://HOST:PORT`) does not answer: Ray itself
    would retry for minutes."""
    if address == "auto":
        return
    parts = address_parts(address)
    if parts is None:
        raise RayUnavailable(f"--address {address}: {ADDRESS_FORM}")
    host, port = parts
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        raise RayUnavailable(f"no Ray cluster answers at {address}: {error}") from None
