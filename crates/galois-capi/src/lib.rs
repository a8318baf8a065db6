//! The C ABI (being written: the interfaces issue).
