//! Every crash or mismatch the fuzz targets (`fuzz/`) found, as a unit
//! test that reproduces it through the public API.

use galois_aead::limits::UsageLimits;
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::Error;

/// packet_open_arbitrary: once the opener had accepted sequence number
/// 2^64 - 1, refusing an older packet computed the window's lowest number
/// as `highest + 1 - window`, which overflowed (a panic with overflow
/// checks, a wrong `lowest` in the error without).
#[test]
fn packet_window_at_the_last_sequence_number() {
    let key = [7u8; 16];
    let salt = [1, 2, 3, 4];
    let mut sealer = PacketSealer::with_config(
        &key,
        salt,
        Role::Initiator,
        Start::NewKey,
        16,
        UsageLimits::PACKETS,
    )
    .unwrap();
    let mut opener = PacketOpener::with_config(&key, salt, Role::Responder, 2, 16, 64).unwrap();
    let old = sealer.seal(b"hd", b"first").unwrap();
    sealer.resume_at(u64::MAX).unwrap();
    let last = sealer.seal(b"hd", b"last").unwrap();
    assert_eq!(opener.open(&last).unwrap().seq, u64::MAX);
    assert_eq!(
        opener.open(&old),
        Err(Error::OutsideWindow {
            seq: 1,
            lowest: u64::MAX - 63
        })
    );
    assert_eq!(opener.open(&last), Err(Error::Replay { seq: u64::MAX }));
    assert_eq!(opener.highest(), u64::MAX);
    // The sealer is exhausted: no number comes back.
    assert!(sealer.seal(b"hd", b"more").is_err());
}
