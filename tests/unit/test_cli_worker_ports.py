"""The model bridge of each CLI-agent sample gets its own loopback port, even when the kernel hands a port
just closed by one probe to the next probe (the samples of a ``local`` sandbox share one network)."""

from __future__ import annotations

import collections
import socket
from collections.abc import Iterator

import pytest

from putnam_solver.run.agent import cli_worker


class _ProbeSocket:
    """A socket whose bound port comes from a script, as the kernel may choose it."""

    ports: Iterator[int] = iter(())

    def __enter__(self) -> _ProbeSocket:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def bind(self, address: tuple[str, int]) -> None:
        assert address == ("127.0.0.1", 0)

    def getsockname(self) -> tuple[str, int]:
        return ("127.0.0.1", next(self.ports))


@pytest.fixture
def scripted_ports(monkeypatch: pytest.MonkeyPatch) -> type[_ProbeSocket]:
    monkeypatch.setattr(socket, "socket", _ProbeSocket)
    monkeypatch.setattr(cli_worker, "_PORTS_GIVEN", collections.deque(maxlen=256))
    return _ProbeSocket


def test_a_port_handed_out_twice_by_the_kernel_goes_to_one_sample_only(scripted_ports: type[_ProbeSocket]) -> None:
    scripted_ports.ports = iter([40001, 40001, 40001, 40002])
    assert [cli_worker._unused_port(), cli_worker._unused_port()] == [40001, 40002]


def test_no_fresh_port_is_an_error_not_a_shared_port(scripted_ports: type[_ProbeSocket]) -> None:
    scripted_ports.ports = iter([40001] * 65)
    assert cli_worker._unused_port() == 40001
    with pytest.raises(RuntimeError, match="no free loopback port"):
        cli_worker._unused_port()


def test_real_probes_give_distinct_free_ports() -> None:
    ports = [cli_worker._unused_port() for _ in range(5)]
    assert len(set(ports)) == 5 and all(1024 <= port < 65536 for port in ports)
