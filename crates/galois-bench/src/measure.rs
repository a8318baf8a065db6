//! Timing: medians of calibrated samples, and TSC cycles.

pub use galois_cli::timing::{calibrate, median, rdtsc, sample, tsc_per_ns};
use std::time::Duration;

/// Rounds and sample length of the per-packet tables (gcm, siv): 3 rounds
/// of 3 ms with `--quick`, else 9 of 15 ms.
pub fn short_samples(quick: bool) -> (usize, Duration) {
    if quick {
        (3, Duration::from_millis(3))
    } else {
        (9, Duration::from_millis(15))
    }
}
