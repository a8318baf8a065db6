//! Timing for the benchmarks (`galois bench` and `galois-bench`): calls
//! per sample calibrated to a target length, samples, medians, and the
//! time-stamp counter's rate.

use std::time::{Duration, Instant};

/// Calls per sample so that one sample lasts about `target`.
///
/// ```
/// use std::time::Duration;
/// let mut n = 0u64;
/// let iters = galois_cli::timing::calibrate(&mut || n += 1, Duration::from_micros(100));
/// assert!(iters >= 1);
/// ```
pub fn calibrate<F: FnMut()>(f: &mut F, target: Duration) -> u64 {
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let e = t.elapsed();
        if e >= target / 8 || iters >= 1 << 30 {
            return ((iters as f64) * target.as_secs_f64() / e.as_secs_f64().max(1e-9))
                .ceil()
                .max(1.0) as u64;
        }
        iters *= 4;
    }
}

/// Nanoseconds per call over one sample of `iters` calls.
///
/// ```
/// let mut n = 0u64;
/// assert!(galois_cli::timing::sample(&mut || n += 1, 1000) >= 0.0);
/// assert_eq!(n, 1000);
/// ```
pub fn sample<F: FnMut()>(f: &mut F, iters: u64) -> f64 {
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    t.elapsed().as_nanos() as f64 / iters as f64
}

/// The median of a list (NaN for an empty one).
///
/// ```
/// use galois_cli::timing::median;
/// assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
/// assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
/// assert!(median(&mut []).is_nan());
/// ```
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The time-stamp counter on x86-64; 0 elsewhere.
///
/// ```
/// let (a, b) = (galois_cli::timing::rdtsc(), galois_cli::timing::rdtsc());
/// assert!(b >= a);
/// ```
pub fn rdtsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc has no preconditions on x86-64.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// TSC ticks per nanosecond, measured against the monotonic clock over
/// 100 ms (0 where there is no TSC).
///
/// ```
/// let r = galois_cli::timing::tsc_per_ns();
/// assert!(r > 0.0 || !cfg!(target_arch = "x86_64"));
/// ```
pub fn tsc_per_ns() -> f64 {
    if !cfg!(target_arch = "x86_64") {
        return 0.0;
    }
    let t0 = rdtsc();
    let i = Instant::now();
    while i.elapsed() < Duration::from_millis(100) {}
    (rdtsc() - t0) as f64 / i.elapsed().as_nanos() as f64
}
