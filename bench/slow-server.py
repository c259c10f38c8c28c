"""A keep-alive HTTP/1.1 server on 127.0.0.1 that answers every request after DELAY seconds,
each answer in one write; prints its port. Used by bench/batch to show what afcli's wait costs
when the answer is slow. Stop it with SIGTERM.

    python3 bench/slow-server.py DELAY
"""

import socket
import sys
import threading
import time

DELAY = float(sys.argv[1])
BODY = b'{"hello":"world","n":[1,2,3]}\n'
ANSWER = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
    + str(len(BODY)).encode()
    + b"\r\n\r\n"
    + BODY
)


def serve(connection):
    with connection:
        pending = b""
        while True:
            while b"\r\n\r\n" not in pending:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                pending += chunk
            _, pending = pending.split(b"\r\n\r\n", 1)
            time.sleep(DELAY)
            connection.sendall(ANSWER)


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)
while True:
    connection, _ = listener.accept()
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
