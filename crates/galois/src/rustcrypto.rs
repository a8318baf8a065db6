//! RustCrypto `aead` / `universal-hash` traits for galois types (being written: the interfaces issue).
