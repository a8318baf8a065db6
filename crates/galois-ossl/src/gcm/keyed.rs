//! The key objects of one context and its message in progress: one-shot
//! while the text comes in one piece, on-line from the second.

use super::TAG_MAX;
use crate::params::Res;
use galois_aead::gcm::online::{Encryptor, UnverifiedDecryptor};
use galois_aead::{Aes, AesGcm, Options, Tag};
use std::ptr::NonNull;
use zeroize::Zeroizing;

/// An on-line message: text in several pieces.
pub(super) enum Stream<'k> {
    Enc(Encryptor<'k, Aes>),
    Dec(UnverifiedDecryptor<'k, Aes>),
}

impl Stream<'_> {
    pub(super) fn aad(&mut self, aad: &[u8]) -> Res {
        match self {
            Stream::Enc(e) => e.aad(aad)?,
            Stream::Dec(d) => d.aad(aad)?,
        }
        Ok(())
    }

    /// A copy that continues independently on `keyed`'s key objects (the
    /// same key): for `dupctx`. A decryption's copy uses the object for
    /// `tag_len`-byte tags; galois-aead refuses one of another tag length.
    pub(super) fn copy_onto(&self, keyed: &mut Keyed, tag_len: usize) -> Res<Stream<'static>> {
        Ok(match self {
            Stream::Enc(e) => Stream::Enc(e.clone_for(keyed.key(TAG_MAX)?)?),
            Stream::Dec(d) => Stream::Dec(d.clone_for(keyed.key(tag_len)?)?),
        })
    }

    pub(super) fn text(&mut self, buf: &mut [u8]) -> Res {
        match self {
            Stream::Enc(e) => e.encrypt(buf)?,
            Stream::Dec(d) => d.decrypt_unverified(buf)?,
        }
        Ok(())
    }
}

/// The message in progress. Most messages (a TLS 1.3 record, a packet)
/// are AAD and then one piece of text: that piece goes through one one-shot
/// call of the library (its fastest path), and only a second piece of text
/// turns the message into an on-line [`Stream`].
pub(super) enum Message {
    /// The AAD so far; no text yet.
    Aad(Vec<u8>),
    /// An encryption whose one piece of text so far was sealed in one call:
    /// its AAD and ciphertext (to go on-line from if more text follows) and
    /// its tag.
    Sealed {
        aad: Vec<u8>,
        ct: Vec<u8>,
        tag: Tag,
    },
    /// A decryption whose one piece of text so far verified against the tag
    /// set before it: more text cannot match that tag.
    Opened,
    Stream(Stream<'static>),
}

/// AAD is kept for a one-shot call up to this size; beyond, it goes on-line.
pub(super) const AAD_KEEP: usize = 1 << 16;

/// A key's GCM objects and the message in progress, which may borrow one of
/// them. The key objects live on the heap at fixed addresses from creation
/// until `Drop`, which drops the message first; a [`Stream`] never leaves
/// this struct (or the function building it), so its `'static` is never
/// observed.
pub(super) struct Keyed {
    pub(super) msg: Option<Message>,
    /// 16-byte tags: every encryption, and decryption with a full tag.
    pub(super) full: NonNull<AesGcm>,
    /// Decryption with a truncated tag (set before the ciphertext): a key
    /// object of that tag length, kept for the following messages.
    pub(super) short: Option<(usize, NonNull<AesGcm>)>,
    /// The key itself, for `dupctx` and the truncated-tag key object.
    pub(super) raw: Zeroizing<Vec<u8>>,
    /// Buffers of ended messages (AAD, ciphertext; never plaintext), kept
    /// so that a message allocates nothing.
    pub(super) spare: Vec<Vec<u8>>,
}

pub(super) fn boxed(gcm: AesGcm) -> NonNull<AesGcm> {
    NonNull::from(Box::leak(Box::new(gcm)))
}

/// Frees a key object made by [`boxed`] (it wipes itself on drop).
///
/// # Safety
/// `p` came from [`boxed`], is freed once, and nothing borrows it.
pub(super) unsafe fn free(p: NonNull<AesGcm>) {
    // SAFETY: the caller's contract: `p` is a leaked Box no one borrows.
    drop(unsafe { Box::from_raw(p.as_ptr()) });
}

impl Drop for Keyed {
    fn drop(&mut self) {
        self.msg = None;
        // SAFETY: both came from `boxed`; the only borrower, a stream in
        // `msg`, is gone, and they are freed here only.
        unsafe {
            free(self.full);
            if let Some((_, p)) = self.short.take() {
                free(p);
            }
        }
    }
}

impl Keyed {
    pub(super) fn new(key: &[u8]) -> Res<Self> {
        let full = boxed(AesGcm::new(key)?);
        Ok(Keyed {
            msg: None,
            full,
            short: None,
            raw: Zeroizing::new(key.to_vec()),
            spare: Vec::new(),
        })
    }

    /// An empty buffer, from an ended message if there is one.
    pub(super) fn buffer(&mut self) -> Vec<u8> {
        self.spare.pop().unwrap_or_default()
    }

    pub(super) fn give_back(&mut self, mut v: Vec<u8>) {
        if self.spare.len() < 2 {
            v.clear();
            self.spare.push(v);
        }
    }

    /// Ends the message in progress, keeping its buffers.
    pub(super) fn end(&mut self) {
        match self.msg.take() {
            Some(Message::Aad(aad)) => self.give_back(aad),
            Some(Message::Sealed { aad, ct, .. }) => {
                self.give_back(aad);
                self.give_back(ct);
            }
            _ => {}
        }
    }

    /// The key object for tags of `tag_len` bytes. Called only while no
    /// stream exists (`msg` is taken out and holds none), so replacing the
    /// truncated-tag object frees nothing borrowed.
    pub(super) fn key(&mut self, tag_len: usize) -> Res<&'static AesGcm> {
        let p = if tag_len == TAG_MAX {
            self.full
        } else {
            match self.short {
                Some((n, p)) if n == tag_len => p,
                _ => {
                    let opts = Options::new().permissive_tag_len(tag_len)?;
                    let p = boxed(AesGcm::with_options(&self.raw, opts)?);
                    if let Some((_, old)) = self.short.replace((tag_len, p)) {
                        // SAFETY: from `boxed`; no stream exists (see above).
                        unsafe { free(old) };
                    }
                    p
                }
            }
        };
        // SAFETY: `p` lives at a fixed address until `Drop` (or a `short`
        // replacement, which happens only with no stream); every stream that
        // borrows it is stored in `msg` or dropped before either.
        Ok(unsafe { p.as_ref() })
    }

    /// A new on-line message under `iv` that has taken `aad`; a decryption
    /// verifies a `tag_len`-byte tag at the end.
    pub(super) fn stream(
        &mut self,
        enc: bool,
        iv: &[u8],
        tag_len: usize,
        aad: &[u8],
    ) -> Res<Stream<'static>> {
        let mut s = if enc {
            Stream::Enc(self.key(TAG_MAX)?.encryptor(iv)?)
        } else {
            Stream::Dec(self.key(tag_len)?.unverified_decryptor(iv)?)
        };
        s.aad(aad)?;
        Ok(s)
    }
}
