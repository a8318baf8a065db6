//! The TLS 1.2 record path of an AES-GCM context (RFC 5288): `tlsaad`,
//! `tlsivfixed`, `tlsivgen`, `tlsivinv` and one `cipher` call per record.

use super::*;

impl Ctx {
    /// The next explicit IV of TLS 1.2 encryption: the IV's last 8 bytes,
    /// then counted up (RFC 5288's nonce_explicit as a counter, as
    /// OpenSSL's own GCM does), copied to `out` (its last bytes if
    /// shorter).
    pub(super) fn tls_next_iv(&mut self, out: &mut [u8]) -> Res {
        if !self.tls_iv
            || self.keyed.is_none()
            || self.iv.bytes.len() < TLS_EXPLICIT_IV_LEN
            || out.is_empty()
        {
            return fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: no TLS fixed IV set",
            );
        }
        let n = out.len().min(self.iv.bytes.len());
        let at = self.iv.bytes.len() - n;
        out[..n].copy_from_slice(&self.iv.bytes[at..]);
        let tail = self.iv.bytes.len() - TLS_EXPLICIT_IV_LEN;
        let mut c = [0u8; 8];
        c.copy_from_slice(&self.iv.bytes[tail..]);
        self.iv.bytes[tail..].copy_from_slice(&u64::from_be_bytes(c).wrapping_add(1).to_be_bytes());
        // The IV used for this record is the one before the increment.
        Ok(())
    }

    pub(super) fn tls_record(
        &mut self,
        out: *mut u8,
        outsize: usize,
        input: *const u8,
        inl: usize,
    ) -> Res<usize> {
        let aad = self.tls_aad.unwrap_or_default();
        if inl < TLS_EXPLICIT_IV_LEN + TAG_MAX {
            return fail(
                ffi::PROV_R_INVALID_INPUT_LENGTH,
                "galois: TLS record too short",
            );
        }
        let rec = params::io_slices(out, outsize, input, inl)?;
        let (explicit, rest) = rec.split_at_mut(TLS_EXPLICIT_IV_LEN);
        let (text, tag) = rest.split_at_mut(rest.len() - TAG_MAX);
        if self.enc {
            let mut iv = [0u8; TLS_FIXED_IV_LEN + TLS_EXPLICIT_IV_LEN];
            if self.iv.bytes.len() != iv.len() {
                return fail(
                    ffi::PROV_R_INVALID_IV_LENGTH,
                    "galois: TLS needs a 12-byte IV",
                );
            }
            iv.copy_from_slice(&self.iv.bytes);
            self.tls_next_iv(explicit)?;
            let t = self
                .keyed()?
                .key(TAG_MAX)?
                .seal_in_place_detached(&iv, &aad, text)?;
            tag.copy_from_slice(t.as_bytes());
            crate::count_seal();
            Ok(inl)
        } else {
            self.tls_set_explicit_iv(explicit)?;
            // On failure the library wipes `text`: no unverified plaintext.
            let (k, iv) = self.keyed_iv()?;
            k.key(TAG_MAX)?
                .open_in_place_detached(iv, &aad, text, tag)?;
            crate::count_open();
            Ok(text.len())
        }
    }

    /// `tlsivinv`: the explicit IV of a received record.
    pub(super) fn tls_set_explicit_iv(&mut self, explicit: &[u8]) -> Res {
        if !self.tls_iv || self.enc || self.keyed.is_none() || explicit.len() > self.iv.bytes.len()
        {
            return fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: cannot set the TLS explicit IV",
            );
        }
        let at = self.iv.bytes.len() - explicit.len();
        self.iv.bytes[at..].copy_from_slice(explicit);
        self.iv.ready = true;
        Ok(())
    }

    /// `tlsivfixed`: the fixed IV part from the key block (or the whole IV);
    /// an encrypting context draws the rest at random.
    pub(super) fn tls_set_fixed_iv(&mut self, fixed: &[u8]) -> Res {
        self.keyed()?;
        if fixed.len() == self.iv.len {
            self.iv.bytes = Zeroizing::new(fixed.to_vec());
        } else {
            if fixed.len() < TLS_FIXED_IV_LEN || self.iv.len < fixed.len() + TLS_EXPLICIT_IV_LEN {
                return fail(
                    ffi::PROV_R_INVALID_IV_LENGTH,
                    "galois: bad TLS fixed IV length",
                );
            }
            let mut iv = vec![0u8; self.iv.len];
            iv[..fixed.len()].copy_from_slice(fixed);
            if self.enc && getrandom::fill(&mut iv[fixed.len()..]).is_err() {
                return fail(
                    ffi::PROV_R_CIPHER_OPERATION_FAILED,
                    "galois: no random bytes",
                );
            }
            self.iv.bytes = Zeroizing::new(iv);
        }
        self.tls_iv = true;
        self.iv.ready = true;
        Ok(())
    }

    /// `tlsaad`: the record header; the length it carries loses the
    /// explicit IV (and, decrypting, the tag), as the record's AAD covers
    /// the plaintext length.
    pub(super) fn tls_set_aad(&mut self, aad: &[u8]) -> Res {
        let Ok(mut a) = <[u8; TLS_AAD_LEN]>::try_from(aad) else {
            return fail(
                ffi::PROV_R_INVALID_INPUT_LENGTH,
                "galois: TLS AAD must be 13 bytes",
            );
        };
        let overhead = TLS_EXPLICIT_IV_LEN + if self.enc { 0 } else { TAG_MAX };
        let len = u16::from_be_bytes([a[11], a[12]]) as usize;
        let Some(len) = len.checked_sub(overhead) else {
            return fail(
                ffi::PROV_R_INVALID_INPUT_LENGTH,
                "galois: TLS record too short",
            );
        };
        a[11..].copy_from_slice(&(len as u16).to_be_bytes());
        self.tls_aad = Some(a);
        Ok(())
    }
}
