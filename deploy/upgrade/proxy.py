#!/usr/bin/env python3
"""A small round-robin TCP proxy in front of the upgrade test's API nodes (deploy/upgrade/test.sh).

Each client connection goes to the next backend in rotation and is piped both ways until either side closes; the
proxy never reads HTTP. Which backends are in rotation is in the control file, one `host:port` a line (no file: all
of them). The proxy reads it again on SIGHUP, and also whenever it changed before a connection is accepted; after each
read it writes the state file (JSON: the backends in rotation, the generation of the control file it applied, and the
connections each backend holds), so the test knows when a backend is out of rotation before it stops that node, and
when the connections it held are gone.

A connection whose backend refuses it (a node that died, or that stopped listening while draining) is tried on the
next backend in rotation, since nothing was sent yet; with none left the client's connection is closed.

`--fault-502 RATIO` answers that share of connections with `502 Bad Gateway` without asking a backend: a fault to show
that the test's audit catches answers it must not see.

Python 3.11, the standard library only.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time


class Proxy:
    def __init__(self, backends, control, state, fault_502):
        self.backends = backends
        self.control = control
        self.state = state
        self.fault_502 = fault_502
        self.enabled = list(backends)
        self.generation = None
        self.control_stamp = None
        self.next = 0
        self.active = {b: 0 for b in backends}
        self.total = {b: 0 for b in backends}
        self.refused = {b: 0 for b in backends}
        self.faults = 0
        self.dropped = 0

    def log(self, message):
        print(f"{time.strftime('%H:%M:%S')} proxy: {message}", flush=True)

    def reload(self, force=False):
        try:
            st = os.stat(self.control)
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            stamp = None
        if not force and stamp == self.control_stamp:
            return
        self.control_stamp = stamp
        if stamp is None:
            enabled, generation = list(self.backends), None
        else:
            enabled, generation = [], None
            with open(self.control) as f:
                for line in f:
                    line = line.strip()
                    if line.startswith("# generation "):
                        generation = line.split()[-1]
                    elif line and not line.startswith("#"):
                        if line not in self.backends:
                            self.log(f"ignoring unknown backend {line!r} in {self.control}")
                            continue
                        enabled.append(line)
        if enabled != self.enabled or generation != self.generation:
            self.log(f"in rotation: {', '.join(enabled) or 'none'} (generation {generation})")
        self.enabled, self.generation = enabled, generation
        self.write_state()

    def write_state(self):
        doc = {
            "enabled": self.enabled,
            "generation": self.generation,
            "active": self.active,
            "total": self.total,
            "refused": self.refused,
            "faults_502": self.faults,
            "dropped": self.dropped,
        }
        tmp = f"{self.state}.tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f)
        os.replace(tmp, self.state)

    def pick(self, tried):
        candidates = [b for b in self.enabled if b not in tried]
        if not candidates:
            return None
        # Round robin over the backends in rotation, whatever the rotation was when the last one was picked.
        self.next = (self.next + 1) % len(self.backends)
        for offset in range(len(self.backends)):
            b = self.backends[(self.next + offset) % len(self.backends)]
            if b in candidates:
                self.next = (self.next + offset) % len(self.backends)
                return b
        return candidates[0]

    async def handle(self, reader, writer):
        self.reload()
        if self.fault_502 > 0 and random.random() < self.fault_502:
            self.faults += 1
            body = b'{"code":"bad_gateway","status":502}'
            writer.write(
                b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            await close(writer)
            return
        tried = set()
        while True:
            backend = self.pick(tried)
            if backend is None:
                self.dropped += 1
                self.log(f"no backend left for a connection (tried {sorted(tried)})")
                await close(writer)
                return
            tried.add(backend)
            host, port = backend.rsplit(":", 1)
            try:
                up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 10)
                break
            except (OSError, asyncio.TimeoutError):
                self.refused[backend] += 1
                continue
        self.active[backend] += 1
        self.total[backend] += 1
        upstream = asyncio.create_task(pipe(reader, up_writer))
        try:
            # The backend's side ends the exchange: once it has closed (its answer is whole, or its node stopped), so
            # does the client's connection, whatever the client still sends.
            await pipe(up_reader, writer)
        finally:
            upstream.cancel()
            self.active[backend] -= 1
            await close(up_writer)
            await close(writer)

    async def report(self):
        while True:
            await asyncio.sleep(0.5)
            self.reload()
            self.write_state()


async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (OSError, asyncio.CancelledError):
        # One side is gone: cut the other, so the client sees the end of what it was answered.
        writer.transport.abort()


async def close(writer):
    try:
        writer.close()
        await writer.wait_closed()
    except OSError:
        pass


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", default="127.0.0.1:18800", help="host:port to listen on")
    parser.add_argument("--backend", action="append", required=True, help="host:port of an API node (repeat)")
    parser.add_argument("--control", required=True, help="file naming the backends in rotation, one a line")
    parser.add_argument("--state", required=True, help="file the proxy writes what it applied to")
    parser.add_argument("--fault-502", type=float, default=float(os.environ.get("UPGRADE_PROXY_FAULT_502", "0")))
    args = parser.parse_args()

    proxy = Proxy(args.backend, args.control, args.state, args.fault_502)
    proxy.reload(force=True)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGHUP, lambda: proxy.reload(force=True))
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    host, port = args.listen.rsplit(":", 1)
    server = await asyncio.start_server(proxy.handle, host, int(port), backlog=1024, reuse_address=True)
    proxy.log(f"listening on {args.listen}, backends {', '.join(args.backend)}"
              + (f", answering {args.fault_502:.1%} of connections 502" if args.fault_502 else ""))
    reporter = asyncio.create_task(proxy.report())
    await stop.wait()
    reporter.cancel()
    server.close()
    proxy.log(f"stopped; connections per backend {proxy.total}, refused {proxy.refused}, "
              f"502 faults {proxy.faults}, dropped {proxy.dropped}")
    sys.stdout.flush()
    os._exit(0)  # do not wait for the connections still piped


if __name__ == "__main__":
    asyncio.run(main())
