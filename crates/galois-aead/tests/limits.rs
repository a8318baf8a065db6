//! Usage limits: paper 001's bounds, counters that refuse past the limit,
//! the random-nonce API, and refusing H = 0.

use galois_aead::limits::{
    aes_gcm_refusing_zero_h, corollary1_distinguishing, corollary1_forgery, distinguishing_bound,
    forgery_bound, gcm_refusing_zero_h, max_queries, Bounds, RandomNonceGcm, Usage, UsageLimits,
    MAX_RANDOM_IV_MESSAGES,
};
use galois_aead::{Block, BlockCipher128, Error, Gcm, Options};

#[test]
fn corollary1_matches_the_general_bound_for_ipsec() {
    // IPsec: 96-bit IVs, 96-bit tags, 1500-byte packets.
    for e in [20.0, 32.0, 40.0, 48.0, 56.0] {
        let q = f64::exp2(e);
        let general = distinguishing_bound(q, 1500.0, 12.0);
        let closed = corollary1_distinguishing(q);
        let r = general / closed;
        assert!(
            (0.5..2.0).contains(&r),
            "q=2^{e}: {general:e} vs {closed:e}"
        );
        assert!(forgery_bound(q, 1500.0, 12.0) >= general);
        assert!(corollary1_forgery(q) >= closed);
    }
    // The paper's example: fewer than 2^48 packets, advantage <= 2^-18.
    assert!(corollary1_distinguishing(f64::exp2(48.0)) <= f64::exp2(-18.0));
    assert!(distinguishing_bound(f64::exp2(48.0), 1500.0, 12.0) <= f64::exp2(-18.0));
    // The bound grows with q and shrinks with the tag.
    assert!(distinguishing_bound(1e9, 1500.0, 12.0) < distinguishing_bound(1e10, 1500.0, 12.0));
    assert!(forgery_bound(1e6, 64.0, 16.0) < forgery_bound(1e6, 64.0, 4.0));
    // Capped at 1 once meaningless.
    assert_eq!(distinguishing_bound(f64::exp2(70.0), 1500.0, 16.0), 1.0);
}

#[test]
fn bounds_for_64_bit_blocks_are_much_weaker() {
    let mut b = Bounds::aes_gcm(f64::exp2(20.0), 1500.0, 8.0);
    let d128 = b.distinguishing();
    b.block_bits = 64.0;
    b.iv_bits = 32.0;
    // 2^20 packets of 1500 bytes: the birthday term (l_P/w)^2 2^-65 is about 2^-10.
    assert!(b.distinguishing() > d128 * f64::exp2(20.0));
    assert!(b.distinguishing() > f64::exp2(-11.0));
}

#[test]
fn max_queries_is_the_largest_q_within_target() {
    let target = f64::exp2(-32.0);
    let q = max_queries(target, 1500.0, 16.0);
    assert!(q > 1 << 20 && q < 1 << 48, "{q}");
    let b = |q: f64| Bounds::aes_gcm(q, 1500.0, 16.0);
    assert!(b(q as f64).forgery() <= target);
    assert!(b((q + 1) as f64 * 1.0001).forgery() > target);
    assert_eq!(
        UsageLimits::from_bound(target, 1500.0, 16.0).max_messages,
        q
    );
}

#[test]
fn usage_counter_refuses_past_limits() {
    let mut u = Usage::new(UsageLimits::messages(3));
    for _ in 0..3 {
        u.charge(10).unwrap();
    }
    assert!(matches!(u.charge(0), Err(Error::LimitReached { .. })));
    assert_eq!(u.messages(), 3);
    let mut u = Usage::new(UsageLimits {
        max_messages: 100,
        max_total_bytes: 25,
    });
    u.charge(20).unwrap();
    assert!(matches!(u.charge(6), Err(Error::LimitReached { .. })));
    u.charge(5).unwrap();
    assert_eq!(u.bytes(), 25);
    // Defaults as documented.
    assert_eq!(UsageLimits::RANDOM_IV.max_messages, 1 << 32);
    assert_eq!(UsageLimits::RANDOM_IV.max_total_bytes, 1 << 68);
    assert_eq!(UsageLimits::PACKETS.max_messages, 1 << 48);
}

#[test]
fn random_nonce_sealer_counts_and_refuses() {
    let key = [7u8; 16];
    let mut s = RandomNonceGcm::with_limits(&key, UsageLimits::messages(2)).unwrap();
    let a = s.seal(b"ad", b"hello").unwrap();
    let b = s.seal(b"ad", b"hello").unwrap();
    assert_ne!(a[..12], b[..12], "IVs must differ");
    assert_eq!(s.open(b"ad", &a).unwrap(), b"hello");
    assert_eq!(s.open(b"ad", &b).unwrap(), b"hello");
    assert!(matches!(
        s.seal(b"ad", b"x"),
        Err(Error::LimitReached { .. })
    ));
    assert_eq!(s.usage().messages(), 2);
    let mut bad = a.clone();
    bad[3] ^= 1;
    assert_eq!(s.open(b"ad", &bad), Err(Error::AuthenticationFailed));
    // More than 2^32 random IVs is refused up front.
    assert!(matches!(
        RandomNonceGcm::with_limits(&key, UsageLimits::messages(MAX_RANDOM_IV_MESSAGES + 1)),
        Err(Error::LimitReached { .. })
    ));
    let d = RandomNonceGcm::new(&key).unwrap();
    assert_eq!(d.usage().limits(), UsageLimits::RANDOM_IV);
}

/// A test-only 128-bit "cipher" with E(K, 0) = 0: a byte rotation.
struct ZeroFixing;
impl BlockCipher128 for ZeroFixing {
    fn encrypt_block(&self, b: &mut Block) {
        b.rotate_left(5);
    }
}

#[test]
fn zero_h_is_reported_and_can_be_refused() {
    let g = Gcm::from_cipher(ZeroFixing, Options::new()).unwrap();
    assert!(g.h_is_zero());
    // GHASH is 0 for every input: same IV, any data, same tag.
    let t1 = g.seal_in_place_detached(&[1; 12], b"a", &mut []).unwrap();
    let t2 = g.seal_in_place_detached(&[1; 12], b"b", &mut []).unwrap();
    assert_eq!(t1, t2);
    // And every non-96-bit IV gives the same Y0: two long IVs, same keystream.
    let mut x = [0u8; 16];
    let mut y = [0u8; 16];
    g.seal_in_place_detached(&[1; 20], b"", &mut x).unwrap();
    g.seal_in_place_detached(&[2; 20], b"", &mut y).unwrap();
    assert_eq!(x, y);
    assert_eq!(
        gcm_refusing_zero_h(ZeroFixing, Options::new()).err(),
        Some(Error::InvalidKey {
            reason: "the hash key H = E(K, 0) is zero"
        })
    );
    let ok = aes_gcm_refusing_zero_h(&[3u8; 32], Options::new()).unwrap();
    assert!(!ok.h_is_zero());
}
