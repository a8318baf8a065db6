//! The Zen 4 tuning numbers of the stitched kernels, each with the
//! measurement that chose it (docs/speed.md, "Tuning constants of the wide
//! kernels", has the tables). The field-side ones, blocks per reduction and
//! powers at key setup, are `gf128::wide::MAX_BATCH` and `LOW_POWERS`.

/// Vectors of counter blocks in flight through AES per batch (8 L blocks:
/// 8, 16 or 32). The GHASH of one vector of the previous batch is
/// multiplied in after each of the first eight rounds (spread over all the
/// rounds for AES-192/256). 16 vectors per batch measured no faster.
pub(crate) const BATCH_VECTORS: usize = 8;

/// Batches a message needs before its partial chunk goes first (hashed
/// stitched into the next batch) instead of last: below eight batches
/// (1500 B) the extra first batch measured slower than a tail hashed alone.
pub(crate) const HEAD_MIN_BATCHES: usize = 8;

/// The alignment the head chunk gives the whole batches: on Zen 4 a 512-bit
/// access is two 256-bit halves, and a half crossing a cache line (chunks
/// at 16 or 48 mod 64) cost about 12% of the 16 KiB rate (11.1 against
/// 12.7 GB/s).
pub(crate) const BATCH_ALIGN: usize = 32;
