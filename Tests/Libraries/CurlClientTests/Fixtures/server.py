"""Loopback HTTP server for CurlClientTests (standard library only).

Prints its port on stdout, then serves until stdin closes (so it dies with the test process).

  ANY /echo              200, JSON {method, path, headers: [[name, value]...], body: base64}
  GET /slow?seconds=N    waits N seconds, then 200 {"slept": N}
  GET /stream            chunked text/event-stream, one "data: <n>" event every 100 ms, forever
  GET /stall?seconds=N   chunked text/event-stream: one "data: 0" event, then silence for N seconds, then the end
  GET /streams           200 {"open": <number of /stream responses still being written>}
"""

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

open_streams = 0
open_streams_lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def handle_any(self):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        if url.path == "/echo":
            self.send_json({
                "method": self.command,
                "path": self.path,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body": base64.b64encode(body).decode(),
            })
        elif url.path == "/slow":
            seconds = float(parse_qs(url.query).get("seconds", ["10"])[0])
            time.sleep(seconds)
            self.send_json({"slept": seconds})
        elif url.path == "/stream":
            self.stream_events()
        elif url.path == "/stall":
            self.stall(float(parse_qs(url.query).get("seconds", ["10"])[0]))
        elif url.path == "/streams":
            with open_streams_lock:
                self.send_json({"open": open_streams})
        else:
            self.send_json({"error": "not found"}, status=404)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any

    def send_json(self, value, status=200):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def stall(self, seconds):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            event = b"data: 0\n\n"
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
            time.sleep(seconds)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def stream_events(self):
        global open_streams
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        with open_streams_lock:
            open_streams += 1
        try:
            number = 0
            while True:
                event = b"data: %d\n\n" % number
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                self.wfile.flush()
                number += 1
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            with open_streams_lock:
                open_streams -= 1


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # A small backlog drops SYNs under a burst of connects, which shows up as connect timeouts.
    request_queue_size = 1024


def exit_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


server = Server(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
server.serve_forever()
