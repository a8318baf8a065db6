//! The library half of the `galois` command: the known-answer runner
//! ([`kat`]) that `galois kat`, `galois selftest` and the tests share, and
//! the SVG plotter ([`plot`]) of `galois bench --plot` and `galois-bench`,
//! and the timing ([`timing`]) both benchmarks measure with.
//!
//! ```
//! use galois_cli::kat::{VectorFile, AUTO};
//! let file = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "Poly1305", "tests": [
//!   {"id": "rfc8439-2.5.2", "result": "valid",
//!    "key": "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
//!    "msg": "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
//!    "tag": "a8061dc1305136c6c22b8baf0c0127a9"}]}"#).unwrap();
//! assert_eq!(file.run(AUTO).counts(), "1 passed, 0 failed, 0 unsupported");
//! ```

pub mod kat;
pub mod plot;
pub mod timing;
