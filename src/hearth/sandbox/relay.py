"""Inside the sandbox: listen on 127.0.0.1:PORT, relay each connection to the proxy's Unix socket.

`python -I -S relay.py SOCKET PORT -- argv...` binds first, then runs the
command as its child and exits with its exit code. Standard library only.
"""

import os
import selectors
import socket
import sys
import threading


def pump(a: socket.socket, b: socket.socket) -> None:
    sel = selectors.DefaultSelector()
    sel.register(a, selectors.EVENT_READ, b)
    sel.register(b, selectors.EVENT_READ, a)
    try:
        while True:
            for key, _ in sel.select():
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                if not data:
                    return
                key.data.sendall(data)
    except OSError:
        return
    finally:
        a.close()
        b.close()


def serve(listener: socket.socket, path: str) -> None:
    while True:
        conn, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX)
        try:
            upstream.connect(path)
        except OSError:
            conn.close()
            continue
        threading.Thread(target=pump, args=(conn, upstream), daemon=True).start()


def main() -> int:
    path, port = sys.argv[1], int(sys.argv[2])
    argv = sys.argv[sys.argv.index("--") + 1 :]
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    threading.Thread(target=serve, args=(listener, path), daemon=True).start()
    pid = os.fork()
    if pid == 0:
        listener.close()
        os.execvp(argv[0], argv)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
