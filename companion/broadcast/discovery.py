"""Finding boards on the local network: mDNS/DNS-SD with the zeroconf library.

A broadcasting board registers a service of type :data:`SERVICE_TYPE` named after the board,
pointing at its HTTP port, with a few TXT properties (the JSON format version and the paths).
A hall browses for that type and follows every board it finds (:class:`Browser` calls
``found(key, url)`` and ``gone(key)``); addresses given by hand work without any of this.

Both run on the asyncio loop of the server's own thread (zeroconf's asyncio API), so they add
no thread of their own. ``interfaces`` limits the network interfaces used (zeroconf's default:
all of them); a board bound to one address announces on that address only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Callable

import ifaddr
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from .snapshot import FORMAT

SERVICE_TYPE = "_companion-board._tcp.local."
RESOLVE_MS = 3000


def instance_name(name: str) -> str:
    """The DNS-SD instance name for a board name (at most 63 bytes, no dots)."""
    clean = "".join(c if c.isalnum() or c in " -_" else "-" for c in name).strip() or "board"
    return clean.encode()[:63].decode(errors="ignore")


def service_info(name: str, port: int, addresses: list[str]) -> AsyncServiceInfo:
    inst = instance_name(name)
    host = "".join(c if c.isalnum() or c == "-" else "-" for c in inst.lower())[:50] or "board"
    return AsyncServiceInfo(
        SERVICE_TYPE, f"{inst}.{SERVICE_TYPE}", port=port,
        addresses=[socket.inet_pton(_family(a), a) for a in addresses],
        properties={"format": str(FORMAT), "json": "/game.json", "pgn": "/game.pgn", "events": "/events"},
        server=f"{host}.local.",
    )


def announce_addresses(host: str) -> list[str]:
    """The addresses to announce: the bound one, or (bound to all) every IPv4 address of the
    machine except loopback (loopback alone when that is all there is)."""
    if host and host not in ("0.0.0.0", "::"):
        return [host]
    addrs = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback]
    return addrs or ["127.0.0.1"]


def _family(address: str) -> int:
    return socket.AF_INET6 if ":" in address else socket.AF_INET


def _zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    if interfaces:
        return AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


class Announcer:
    """Registers the board while its server runs (unregisters with a goodbye on stop)."""

    def __init__(self, name: str, host: str, port: int, interfaces: list[str] | None = None) -> None:
        self.addresses = announce_addresses(host)
        self.interfaces = interfaces or ([host] if host and host not in ("0.0.0.0", "::") else None)
        self.info = service_info(name, port, self.addresses)
        self.zc: AsyncZeroconf | None = None

    async def start(self) -> None:
        self.zc = _zeroconf(self.interfaces)
        # the first call registers; the awaitable it returns sends the announcements
        await (await self.zc.async_register_service(self.info, allow_name_change=True))

    async def stop(self) -> None:
        if self.zc is not None:
            try:
                await (await self.zc.async_unregister_service(self.info))
            finally:
                await self.zc.async_close()
                self.zc = None


class Browser:
    """Follows the boards announced on the network: ``found(key, url)`` when one appears (or
    moves to another address), ``gone(key)`` when it says goodbye or its record expires."""

    def __init__(self, found: Callable[[str, str], None], gone: Callable[[str], None],
                 interfaces: list[str] | None = None) -> None:
        self.found, self.gone, self.interfaces = found, gone, interfaces
        self.zc: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        self.zc = _zeroconf(self.interfaces)
        self.browser = AsyncServiceBrowser(self.zc.zeroconf, SERVICE_TYPE, handlers=[self._changed])

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.browser is not None:
            await self.browser.async_cancel()
        if self.zc is not None:
            await self.zc.async_close()
        self.zc = self.browser = None

    def _changed(self, zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self.gone(name)
            return
        task = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if self.zc is None or not await info.async_request(self.zc.zeroconf, RESOLVE_MS):
            return
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if addresses and info.port:
            self.found(name, f"http://{addresses[0]}:{info.port}")
