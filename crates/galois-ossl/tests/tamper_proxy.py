#!/usr/bin/env python3
"""A TCP proxy that flips one bit in the first encrypted TLS record (content
type 23) the server sends, and forwards everything else as is.

Usage: tamper_proxy.py LISTEN_PORT SERVER_PORT PORT_FILE
Prints the listening port to PORT_FILE once it accepts (LISTEN_PORT 0: any
free port), serves one connection, and exits when both sides have closed.
"""
import socket
import sys
import threading


def pump(src, dst, tamper):
    buf = b""
    flipped = False
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            if not tamper or flipped:
                dst.sendall(data)
                continue
            # Parse records until the first application-data record is whole.
            buf += data
            out = b""
            while len(buf) >= 5:
                n = int.from_bytes(buf[3:5], "big")
                if len(buf) < 5 + n:
                    break
                rec, buf = buf[: 5 + n], buf[5 + n :]
                if rec[0] == 23 and not flipped:
                    mid = 5 + n // 2
                    rec = rec[:mid] + bytes([rec[mid] ^ 0x01]) + rec[mid + 1 :]
                    flipped = True
                    print("tamper_proxy: flipped a bit of a %d-byte record" % n, file=sys.stderr)
                out += rec
            if flipped:
                out, buf = out + buf, b""
            dst.sendall(out)
    except OSError:
        pass
    finally:
        for s in (dst, src):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    listen_port, server_port, port_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    lsock = socket.socket()
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", listen_port))
    lsock.listen(1)
    lsock.settimeout(30)
    with open(port_file, "w") as f:
        f.write("%d\n" % lsock.getsockname()[1])
    client, _ = lsock.accept()
    server = socket.create_connection(("127.0.0.1", server_port), timeout=30)
    threads = [
        threading.Thread(target=pump, args=(client, server, False)),
        threading.Thread(target=pump, args=(server, client, True)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)


if __name__ == "__main__":
    main()
