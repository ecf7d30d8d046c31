"""Boards on the same network find each other: mDNS/DNS-SD with zeroconf, as broadcast does.

The host announces a service of type :data:`SERVICE_TYPE` with the pairing code's nameplate
(its first two digits, no secret) in a TXT property; the guest browses for that type and
connects to the board whose nameplate is the one typed. A stranger's board with the same
nameplate gets nowhere: the key exchange needs the whole code (companion.link.pairing), so the
guest just tries the next one. zeroconf's own threads; nothing here touches the game.
"""

from __future__ import annotations

import socket
import threading

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from ..broadcast.discovery import announce_addresses, instance_name

SERVICE_TYPE = "_companion-link._tcp.local."
RESOLVE_MS = 3000


def _zeroconf(interfaces: list[str] | None) -> Zeroconf:
    return Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only) if interfaces else \
        Zeroconf(ip_version=IPVersion.V4Only)


class LinkAnnouncer:
    """The host board, announced under its name with its nameplate while it waits and plays."""

    def __init__(self, name: str, nameplate: str, host: str, port: int, interfaces: list[str] | None = None) -> None:
        addresses = announce_addresses(host)
        inst = instance_name(f"{name} {nameplate}")
        self.info = ServiceInfo(SERVICE_TYPE, f"{inst}.{SERVICE_TYPE}", port=port,
                                addresses=[socket.inet_aton(a) for a in addresses],
                                properties={"nameplate": nameplate, "version": "1"},
                                server=f"{''.join(c if c.isalnum() else '-' for c in inst.lower())[:50]}.local.")
        self.interfaces = interfaces or ([host] if host and host not in ("0.0.0.0", "::") else None)
        self.zc: Zeroconf | None = None

    def start(self) -> None:
        self.zc = _zeroconf(self.interfaces)
        self.zc.register_service(self.info, allow_name_change=True)

    def stop(self) -> None:
        if self.zc is not None:
            try:
                self.zc.unregister_service(self.info)
            finally:
                self.zc.close()
                self.zc = None


class LinkFinder:
    """The guest: the address of a board announcing ``nameplate`` (None until one is seen).
    Give :meth:`find` to companion.link.transport.TcpGuest."""

    def __init__(self, nameplate: str, interfaces: list[str] | None = None) -> None:
        self.nameplate = nameplate
        self._found: list[tuple[str, int]] = []
        self._lock = threading.Lock()
        self.zc = _zeroconf(interfaces)
        self.browser = ServiceBrowser(self.zc, SERVICE_TYPE, handlers=[self._changed])

    def _changed(self, zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            return
        threading.Thread(target=self._resolve, args=(name,), daemon=True).start()

    def _resolve(self, name: str) -> None:
        info = self.zc.get_service_info(SERVICE_TYPE, name, RESOLVE_MS) if self.zc else None
        if info is None or (info.properties or {}).get(b"nameplate") != self.nameplate.encode():
            return
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if addresses and info.port:
            with self._lock:
                if (addresses[0], info.port) not in self._found:
                    self._found.append((addresses[0], info.port))

    def find(self) -> tuple[str, int] | None:
        """The next board announcing the nameplate (in turn, so a stranger's does not block)."""
        with self._lock:
            if not self._found:
                return None
            first = self._found.pop(0)
            self._found.append(first)
            return first

    def stop(self) -> None:
        self.browser.cancel()
        self.zc.close()
