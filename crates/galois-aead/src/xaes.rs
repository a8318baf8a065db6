//! XAES-256-GCM (c2sp.org/XAES-256-GCM): AES-256-GCM with 192-bit nonces.
//!
//! Per message, the key K and the first 96 bits of the nonce N give a
//! fresh AES-256-GCM key by the NIST SP 800-108r1 counter KDF with
//! CMAC-AES-256 as PRF (label "X", context N\[..12\], 16-bit counter, no L):
//!
//! 1. L = AES-256(K, 0^128); K1 = L << 1, xor 0x87 into the last byte if
//!    the top bit of L was set (the CMAC subkey; computed once per key);
//! 2. M_i = 0x00 || i || 0x58 || 0x00 || N\[..12\] for i = 1, 2;
//! 3. K_x = AES-256(K, M_1 xor K1) || AES-256(K, M_2 xor K1);
//!
//! and the message is sealed with AES-256-GCM under K_x and the nonce
//! N\[12..24\]. Random nonces are safe: the spec gives 2^80 messages per key
//! with a collision probability of 2^-32. Like AES-256-GCM, XAES-256-GCM is
//! neither nonce-misuse resistant nor key-committing.

use crate::aes::{Aes, AesBackend};
use crate::block::BlockCipher128;
use crate::ct;
use crate::error::{Error, Result};
#[cfg(target_arch = "x86_64")]
use crate::gcm::kernels::KernelMsg;
use crate::gcm::{AesGcm, Options};
use crate::gf128::GhashBackend;
use zeroize::Zeroize;

/// One message's AES-256-GCM key, built by [`XAes256Gcm::key_in`] in a
/// [`MessageSlot`] of the caller's frame. On AES-NI with a stitched GHASH
/// backend: the subkey's AES-NI schedule and the stitched kernel over a
/// GHASH key with only the powers of H the message can use
/// (`gf128::MessageKey`), no allocation; elsewhere a whole [`AesGcm`].
enum MessageGcm<'a> {
    #[cfg(target_arch = "x86_64")]
    Lean {
        rk: &'a crate::block::round_keys::AesRoundKeys,
        kernel: crate::gcm::kernels::Kernel<'a>,
    },
    Gcm(&'a AesGcm),
}

/// Room for one message's key in the caller's frame (built in place: no
/// key is returned by value, which copied the 240-byte schedule with each
/// move, nor lent to a closure, whose captured arguments were copied into
/// its environment). Every part wipes itself on drop.
struct MessageSlot {
    /// The subkey's schedule, written once by `AesNi::derive256_in` (no
    /// zeros first); initialized if `ni_set`.
    #[cfg(target_arch = "x86_64")]
    ni: core::mem::MaybeUninit<crate::aes::aesni::AesNi>,
    #[cfg(target_arch = "x86_64")]
    ni_set: bool,
    #[cfg(target_arch = "x86_64")]
    table: crate::gf128::MessageTable,
    gcm: Option<AesGcm>,
}

impl MessageSlot {
    #[inline(always)]
    fn new() -> Self {
        // Field by field, `ni` left as it is: built as a struct literal,
        // LLVM wrote zeros over the uninitialized schedule (257 bytes of
        // `memset` per message), as it may for uninitialized bytes.
        let mut s = core::mem::MaybeUninit::<Self>::uninit();
        let p = s.as_mut_ptr();
        // SAFETY: every field but `ni` (a MaybeUninit, which needs no
        // initialization) is written before the struct is assumed
        // initialized.
        unsafe {
            #[cfg(target_arch = "x86_64")]
            {
                core::ptr::addr_of_mut!((*p).ni_set).write(false);
                core::ptr::addr_of_mut!((*p).table).write(crate::gf128::MessageTable::new());
            }
            core::ptr::addr_of_mut!((*p).gcm).write(None);
            s.assume_init()
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Drop for MessageSlot {
    fn drop(&mut self) {
        if self.ni_set {
            // SAFETY: initialized (`ni_set`), dropped once, here (the
            // schedule wipes itself).
            unsafe { self.ni.assume_init_drop() }
        }
    }
}

/// The key length (32 bytes).
pub const KEY_BYTES: usize = 32;
/// The nonce length (24 bytes).
pub const NONCE_BYTES: usize = 24;
/// The tag length (16 bytes).
pub const TAG_BYTES: usize = 16;

/// XAES-256-GCM: a 32-byte key, 24-byte nonces, 16-byte tags. Nonces may
/// be drawn at random ([`XAes256Gcm::random_nonce`]) for about 2^80
/// messages per key (collision probability 2^-32, the spec's bound),
/// instead of AES-GCM's 2^32. The key, its CMAC subkey and every
/// per-message key are wiped on drop.
///
/// ```
/// use galois_aead::XAes256Gcm;
/// let x = XAes256Gcm::new(&[0x42u8; 32])?;
/// let nonce = XAes256Gcm::random_nonce()?;
/// let sealed = x.seal(&nonce, b"header", b"secret")?;
/// assert_eq!(x.open(&nonce, b"header", &sealed)?, b"secret");
/// assert!(x.open(&nonce, b"other header", &sealed).is_err());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct XAes256Gcm {
    aes: Aes,
    /// M_1 xor K1 and M_2 xor K1 with a zero nonce: 0x00 || i || 0x58 ||
    /// 0x00 || 0^96, xor the CMAC subkey K1 (the nonce goes in per message).
    mbase: [[u8; 16]; 2],
    backend: Option<GhashBackend>,
}

impl Drop for XAes256Gcm {
    fn drop(&mut self) {
        ct::wipe_now(self.mbase.as_flattened_mut());
    }
}

impl crate::Aead for XAes256Gcm {
    const NAME: &'static str = "xaes-256-gcm";
    const NONCE_LEN: usize = NONCE_BYTES;
}

impl crate::AeadInit for XAes256Gcm {
    const KEY_LENS: &'static [usize] = &[KEY_BYTES];

    fn with_options(key: &[u8], opts: crate::Options) -> Result<Self> {
        let backend = opts.backends_only()?;
        if key.len() != KEY_BYTES {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let aes = opts.aes_key(key)?;
        // Steps 1 and 2: L = AES-256(K, 0); K1 = dbl(L) in CMAC's sense.
        let mut l = [0u8; 16];
        aes.encrypt_block(&mut l);
        let mut lv = u128::from_be_bytes(l);
        let mut k1 = (lv << 1) ^ (0x87 & ct::mask128(lv >> 127));
        l.zeroize();
        lv.zeroize();
        let m = |i: u128| ((i << 112) | (0x58 << 104)) ^ k1;
        let mbase = [m(1).to_be_bytes(), m(2).to_be_bytes()];
        k1.zeroize();
        Ok(XAes256Gcm {
            aes,
            mbase,
            backend,
        })
    }
}

crate::aead::aead_core! {
    impl for XAes256Gcm;
    check_lens = AesGcm::check_lengths;
    fn seal_core(self, nonce, aad, src, buf) {
        let len = aad.len().saturating_add(buf.len());
        let mut slot = MessageSlot::new();
        match self.key_in(&mut slot, nonce, len)? {
            #[cfg(target_arch = "x86_64")]
            MessageGcm::Lean { rk, kernel } => {
                let t = kernel.seal(rk, KernelMsg::new(&Self::y0(nonce), true, aad, src, buf));
                Ok(crate::gcm::Tag::full(t.to_be_bytes()))
            }
            MessageGcm::Gcm(g) => g.seal_core(&nonce[12..], aad, src, buf),
        }
    }
    fn open_core(self, nonce, aad, src, buf, tag) {
        let len = aad.len().saturating_add(buf.len());
        let mut slot = MessageSlot::new();
        match self.key_in(&mut slot, nonce, len)? {
            #[cfg(target_arch = "x86_64")]
            MessageGcm::Lean { rk, kernel } => {
                let mut t = kernel
                    .open(rk, KernelMsg::new(&Self::y0(nonce), true, aad, src, buf))
                    .to_be_bytes();
                let ok = ct::eq(&t, tag);
                ct::wipe_now(&mut t);
                Ok(ok)
            }
            MessageGcm::Gcm(g) => g.open_core(&nonce[12..], aad, src, buf, tag),
        }
    }
}

impl XAes256Gcm {
    crate::aead::aead_methods!("galois_aead::XAes256Gcm", "[7u8; 32]", "[1u8; 24]");

    crate::aead::aead_init_methods!("galois_aead::XAes256Gcm", "[7u8; 32]");

    /// A fresh random nonce from the operating system.
    ///
    /// ```
    /// let a = galois_aead::XAes256Gcm::random_nonce()?;
    /// assert_ne!(a, galois_aead::XAes256Gcm::random_nonce()?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn random_nonce() -> Result<[u8; NONCE_BYTES]> {
        let mut n = [0u8; NONCE_BYTES];
        getrandom::fill(&mut n).map_err(|_| Error::RandomSourceFailed)?;
        Ok(n)
    }

    /// The GHASH backend of the per-message AES-256-GCM keys.
    ///
    /// ```
    /// use galois_aead::{GhashBackend, XAes256Gcm};
    /// let x = XAes256Gcm::with_options(&[0u8; 32], galois_aead::Options::new().backend(GhashBackend::Ctmul64))?;
    /// assert_eq!(x.backend(), GhashBackend::Ctmul64);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> GhashBackend {
        self.backend
            .unwrap_or_else(crate::gf128::GhashBackend::auto)
    }

    /// The AES backend in use.
    ///
    /// ```
    /// use galois_aead::{AesBackend, GhashBackend, XAes256Gcm};
    /// let x = XAes256Gcm::with_options(&[0u8; 32], galois_aead::Options::new().backend(GhashBackend::Ctmul64).aes_backend(AesBackend::Portable))?;
    /// assert_eq!(x.aes_backend(), AesBackend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aes_backend(&self) -> AesBackend {
        self.aes.backend()
    }

    /// Step 3: the subkey K_x for this (checked) nonce (on AES-NI with a
    /// stitched backend, [`XAes256Gcm::key_in`] derives it in registers).
    fn subkey(&self, nonce: &[u8]) -> [u8; 32] {
        let n: &[u8; 12] = nonce[..12].try_into().expect("a checked 24-byte nonce");
        let mut m = self.mbase;
        for b in m.iter_mut() {
            for (x, v) in b[4..].iter_mut().zip(n) {
                *x ^= v;
            }
        }
        self.aes.encrypt_blocks(&mut m);
        let mut kx = [0u8; 32];
        kx.copy_from_slice(m.as_flattened());
        ct::wipe_now(m.as_flattened_mut());
        kx
    }

    /// The AES-256-GCM key for this (checked) nonce and a message of `len`
    /// bytes of AAD and text, built in `slot`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    #[inline(always)]
    fn key_in<'s>(
        &self,
        slot: &'s mut MessageSlot,
        nonce: &[u8],
        len: usize,
    ) -> Result<MessageGcm<'s>> {
        let backend = self.backend();
        #[cfg(target_arch = "x86_64")]
        if let Some(ni) = self
            .aes
            .as_aesni()
            .filter(|_| crate::gcm::kernels::has_kernel(backend))
        {
            let n: &[u8; 12] = nonce[..12].try_into().expect("a checked 24-byte nonce");
            let (aes, h) = ni.derive256_in(&self.mbase, n, &mut slot.ni);
            slot.ni_set = true;
            let hash = crate::gf128::MessageKey::new(
                &mut slot.table,
                h,
                backend,
                len,
                crate::gcm::kernels::lean_powers(backend),
            )?;
            // These backends' message keys are all stitched.
            let kernel = hash
                .wide()
                .and_then(crate::gcm::kernels::Kernel::for_wide)
                .ok_or(Error::BackendUnavailable {
                    backend: backend.name(),
                })?;
            return Ok(MessageGcm::Lean {
                rk: aes.keys(),
                kernel,
            });
        }
        let mut kx = self.subkey(nonce);
        let opts = Options::new()
            .backend(backend)
            .aes_backend(self.aes.backend());
        let gcm = AesGcm::with_options(&kx, opts);
        ct::wipe_now(&mut kx);
        Ok(MessageGcm::Gcm(slot.gcm.insert(gcm?)))
    }

    /// The GCM counter block Y0 of a (checked) nonce: its last 12 bytes || 1.
    #[cfg(target_arch = "x86_64")]
    fn y0(nonce: &[u8]) -> [u8; 16] {
        crate::gcm::y0_96(nonce[12..24].try_into().expect("a checked 24-byte nonce"))
    }
}

/// The backends, never the key.
impl core::fmt::Debug for XAes256Gcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("XAes256Gcm")
            .field("backend", &self.backend())
            .field("aes_backend", &self.aes_backend())
            .finish_non_exhaustive()
    }
}
