"""The type stubs match the compiled module (mypy's stubtest), and typed code
using the package type-checks."""
import subprocess
import sys
import textwrap


def test_stubtest():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "galois_aead"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_typed_usage_checks(tmp_path):
    src = tmp_path / "use.py"
    src.write_text(textwrap.dedent("""
        import galois_aead
        key: bytes = galois_aead.AESGCM.generate_key(128)
        a = galois_aead.AESGCM(key, tag_length=16)
        ct: bytes = a.encrypt(b"n" * 12, bytearray(b"x"), None)
        pt: bytes = a.decrypt(memoryview(b"n" * 12), ct, b"")
        n: int = a.encrypt_into(b"n" * 12, b"x", None, bytearray(17))
        tag: bytes = galois_aead.GMAC(key).authenticate(b"n" * 12, b"m")
        p = galois_aead.Poly1305AES(galois_aead.Poly1305AES.generate_key())
        p.verify(bytes(16), b"m", p.authenticate(bytes(16), b"m"))
        e = a.encryptor(b"n" * 12)
        t: bytes = e.update(b"x") + e.finalize() + e.tag
        k: int = e.update_into(b"x", bytearray(1))
        d = a.decryptor(b"n" * 12, tag=None)
        p2: bytes = d.update(t[:1]) + d.finalize_with_tag(t[1:])
        w = galois_aead.AESGCM(key, any_nonce_length=True)
        try:
            w.decrypt(b"n", ct, None)
        except galois_aead.InvalidTag:
            pass
        except galois_aead.InvalidSignature:
            pass
    """))
    bad = tmp_path / "bad.py"
    bad.write_text("import galois_aead\ngalois_aead.AESGCM(b'k').encrypt(b'n', 'text', None)\n")
    ok = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(src)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    ko = subprocess.run([sys.executable, "-m", "mypy", str(bad)], capture_output=True, text=True)
    assert ko.returncode == 1 and "incompatible type" in ko.stdout, ko.stdout + ko.stderr
