//! The known-answer file parser and runner of `galois kat` (galois-cli's
//! `kat` module) fed arbitrary bytes and mutated vector files: it must
//! answer with an error or a summary, never panic (the runner's own
//! catch_unwind does not hide a panic here: libFuzzer's panic hook aborts
//! first). Errors must say something; counts must add up.
//!
//! Input: the file's bytes (read as UTF-8, invalid sequences replaced).
#![no_main]

use galois_cli::kat::{VectorFile, AUTO};
use galois_fuzz::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match VectorFile::parse(&text) {
        Err(e) => check!(!e.trim().is_empty(), "empty error message"),
        Ok(f) => {
            let n = f.tests().len();
            let imps = f.implementations();
            check!(!imps.is_empty(), "no implementation listed");
            // Automatic selection, then one pinned implementation chosen by
            // the input's length (all of them over a run).
            for imp in [AUTO, imps[data.len() % imps.len()].as_str()] {
                let s = f.run(imp);
                check!(
                    s.passed + s.failed + s.unsupported == n,
                    "counts do not add up for {imp}"
                );
                check!(s.failures.len() == s.failed, "failure list for {imp}");
                check!(
                    !s.failures.iter().any(|m| m.contains("panicked")),
                    "a case panicked under {imp}"
                );
            }
        }
    }
});
