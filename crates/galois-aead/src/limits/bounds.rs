//! The security bounds of "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004; Theorems 1 and 2, Corollary 1).

/// The parameters of Theorems 1 and 2 of "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004).
///
/// ```
/// use galois_aead::limits::Bounds;
/// // Corollary 1's IPsec setting: 2^32 packets of 1500 bytes, 12-byte tags.
/// let b = Bounds::aes_gcm(2f64.powi(32), 1500.0, 12.0);
/// assert!(b.distinguishing() < 2f64.powi(-50));
/// assert!(b.forgery() >= b.distinguishing());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Block width w in bits (128 for AES, 64 for TDEA).
    pub block_bits: f64,
    /// Number of queries q (packets sealed plus forgery attempts).
    pub queries: f64,
    /// Longest len(C) + len(A) of one query, in bits (l).
    pub max_query_bits: f64,
    /// Total plaintext bits over all queries (l_P).
    pub total_plaintext_bits: f64,
    /// Longest IV, in bits (l_IV).
    pub iv_bits: f64,
    /// Tag length t, in bits.
    pub tag_bits: f64,
}

impl Bounds {
    /// AES-GCM with 96-bit IVs: q packets of `packet_bytes` (ciphertext plus
    /// AAD, all counted as plaintext for l_P) and `tag_bytes`-byte tags.
    ///
    /// ```
    /// let b = galois_aead::limits::Bounds::aes_gcm(1e6, 1500.0, 16.0);
    /// assert_eq!((b.block_bits, b.iv_bits, b.tag_bits), (128.0, 96.0, 128.0));
    /// ```
    pub fn aes_gcm(q: f64, packet_bytes: f64, tag_bytes: f64) -> Self {
        Bounds {
            block_bits: 128.0,
            queries: q,
            max_query_bits: packet_bytes * 8.0,
            total_plaintext_bits: q * packet_bytes * 8.0,
            iv_bits: 96.0,
            tag_bits: tag_bytes * 8.0,
        }
    }

    fn terms(&self, extra: f64) -> f64 {
        let w = self.block_bits;
        let q = self.queries;
        let blocks = self.total_plaintext_bits / w + 2.0 * q;
        let ctr = blocks * blocks * (-w - 1.0).exp2();
        let iv = (blocks + extra) * (self.iv_bits / w + 1.0).ceil() * (1.0 - w).exp2();
        let tag = (self.max_query_bits / w + 1.0).ceil() * (-self.tag_bits).exp2();
        ctr + q * (iv + tag)
    }

    /// Theorem 1: the distinguishing advantage beyond the cipher's own,
    /// capped at 1.
    ///
    /// ```
    /// use galois_aead::limits::Bounds;
    /// let mut b = Bounds::aes_gcm(1.0, 64.0, 16.0);
    /// b.queries = 2f64.powi(70); // far too many: the bound is capped at 1
    /// b.total_plaintext_bits = b.queries * 512.0;
    /// assert_eq!(b.distinguishing(), 1.0);
    /// ```
    pub fn distinguishing(&self) -> f64 {
        self.terms(0.0).min(1.0)
    }

    /// Theorem 2: the forgery advantage beyond the cipher's own, capped at 1.
    ///
    /// ```
    /// let b = galois_aead::limits::Bounds::aes_gcm(2f64.powi(20), 1500.0, 16.0);
    /// assert!(b.forgery() > b.distinguishing() && b.forgery() < 1e-20);
    /// ```
    pub fn forgery(&self) -> f64 {
        self.terms(1.0).min(1.0)
    }
}

/// Theorem 1 for AES-GCM with 96-bit IVs, q packets of `packet_bytes`
/// bytes (len(C) + len(A)) and `tag_bytes`-byte tags.
///
/// ```
/// use galois_aead::limits::distinguishing_bound;
/// assert!(distinguishing_bound(2f64.powi(40), 1500.0, 16.0) > distinguishing_bound(2f64.powi(30), 1500.0, 16.0));
/// ```
pub fn distinguishing_bound(q: f64, packet_bytes: f64, tag_bytes: f64) -> f64 {
    Bounds::aes_gcm(q, packet_bytes, tag_bytes).distinguishing()
}

/// Theorem 2 for AES-GCM with 96-bit IVs (see [`distinguishing_bound`]).
///
/// ```
/// use galois_aead::limits::forgery_bound;
/// // Shorter tags: easier forgery.
/// assert!(forgery_bound(1e9, 1500.0, 4.0) > forgery_bound(1e9, 1500.0, 16.0));
/// ```
pub fn forgery_bound(q: f64, packet_bytes: f64, tag_bytes: f64) -> f64 {
    Bounds::aes_gcm(q, packet_bytes, tag_bytes).forgery()
}

/// Corollary 1's closed form for IPsec parameters: q^2 2^-116 + q 2^-89.4.
///
/// ```
/// // 2^48 packets: about 2^-20, below the 2^-18 galois uses for packet keys.
/// let adv = galois_aead::limits::corollary1_distinguishing(2f64.powi(48));
/// assert!(adv < 2f64.powi(-18) && adv > 2f64.powi(-21));
/// ```
pub fn corollary1_distinguishing(q: f64) -> f64 {
    (q * q * (-116f64).exp2() + q * (-89.4f64).exp2()).min(1.0)
}

/// Corollary 1's forgery form: q^2 2^-116 + q 2^-89.4 + q 2^-128.
///
/// ```
/// use galois_aead::limits::{corollary1_distinguishing, corollary1_forgery};
/// let q = 2f64.powi(40);
/// assert!(corollary1_forgery(q) > corollary1_distinguishing(q));
/// ```
pub fn corollary1_forgery(q: f64) -> f64 {
    (q * q * (-116f64).exp2() + q * (-89.4f64).exp2() + q * (-128f64).exp2()).min(1.0)
}

/// The largest q (a power of two or in between, found by bisection) for
/// which both bounds stay at or below `target`.
///
/// ```
/// use galois_aead::limits::{forgery_bound, max_queries};
/// let q = max_queries(2f64.powi(-32), 1500.0, 16.0);
/// assert!(forgery_bound(q as f64, 1500.0, 16.0) <= 2f64.powi(-32));
/// assert!(forgery_bound((q + 1) as f64, 1500.0, 16.0) > 2f64.powi(-32));
/// ```
pub fn max_queries(target: f64, packet_bytes: f64, tag_bytes: f64) -> u64 {
    let ok = |q: f64| {
        let b = Bounds::aes_gcm(q, packet_bytes, tag_bytes);
        b.distinguishing() <= target && b.forgery() <= target
    };
    if !ok(1.0) {
        return 0;
    }
    let (mut lo, mut hi) = (1u64, u64::MAX);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid as f64) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
