"""A loopback Chat Completions test server (http.server on 127.0.0.1 only) with scripted replies.

The request's `model` names the behaviour, so one server serves them all:

| model | reply |
| --- | --- |
| legal | a legal action: the last legal move listed in the prompt, no ability |
| illegal | move 3 with target 10 and the Ultimate (never legal at tick 0: no enemy is seen) |
| illegal-then-legal | illegal on a first request, legal on the corrective re-prompt |
| malformed | text that is not JSON |
| empty | an empty message |
| slow | legal, after `slow_s` seconds |
| 429-then-legal | HTTP 429 on every first attempt of a conversation, then legal |
| 500 | HTTP 500, always |
| echo-key | HTTP 401 whose body repeats the Authorization header (a careless server) |

Every request is logged (`requests`: start and end times, model, Authorization header), so tests
can measure how calls overlap.
"""

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LEGAL_MOVES = re.compile(r"Legal moves \(id name\): ([^\n]*)")
AGENT = re.compile(r"^## Agent (\w\d)$", re.M)


def legal_reply(prompt: str) -> str:
    """A legal reply for the (single- or per-team) prompt: each agent's last legal move."""
    moves = [int(line.split(",")[-1].split()[0]) for line in LEGAL_MOVES.findall(prompt)]
    agents = AGENT.findall(prompt)
    if agents:
        pairs = zip(agents, moves, strict=True)
        return json.dumps({a: {"move": m, "target": 0, "ultimate": 0} for a, m in pairs})
    return json.dumps({"move": moves[-1] if moves else 0, "target": 0, "ultimate": 0})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # ten agents connect at once; the default 5 drops SYNs (1 s stalls)


class ChatServer:
    """Start with `with ChatServer() as server:`; `server.url` is the base URL (…/v1)."""

    def __init__(self, slow_s: float = 5.0):
        self.slow_s = slow_s
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._httpd.server_port}/v1"

    def __enter__(self):
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as vLLM and hosted APIs do

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):  # noqa: N802 - http.server's name
                start = time.monotonic()
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status, text = server.answer(body)
                payload = {
                    "id": "test",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": sum(len(m["content"]) for m in body["messages"]) // 4,
                        "completion_tokens": len(text) // 4,
                        "total_tokens": 0,
                    },
                }
                if status != 200:
                    payload = {"error": {"message": text, "type": "test", "code": status}}
                if body["model"] == "echo-key":
                    status = 401
                    payload = {"error": {"message": f"bad key {self.headers['Authorization']}"}}
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): expected for the slow model
                with server.lock:
                    server.requests.append(
                        {
                            "start": start,
                            "end": time.monotonic(),
                            "model": body["model"],
                            "auth": self.headers.get("Authorization", ""),
                            "messages": len(body["messages"]),
                            "body": body,
                        }
                    )

        return Handler

    def answer(self, body: dict) -> tuple[int, str]:
        """(HTTP status, reply text) for one request."""
        model, chat = body["model"], body["messages"]
        prompt = chat[-1]["content"]
        with self.lock:
            first_try = not any(
                r["model"] == model and r["body"]["messages"] == chat for r in self.requests
            )
        corrective = chat[-1]["role"] == "user" and "could not be used" in prompt
        if corrective:
            prompt = next(m["content"] for m in reversed(chat) if "Legal moves" in m["content"])
        if model == "slow":
            time.sleep(self.slow_s)
        if model == "illegal" or (model == "illegal-then-legal" and not corrective):
            return 200, json.dumps({"move": 3, "target": 10, "ultimate": 1})
        if model == "malformed":
            return 200, "I will move north and attack!"
        if model == "empty":
            return 200, ""
        if model == "500":
            return 500, "internal error"
        if model == "429-then-legal" and first_try:
            return 429, "slow down"
        return 200, legal_reply(prompt)
