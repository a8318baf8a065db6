//! The portable AES of the `aes` crate. Built without AES instructions it
//! is fixsliced and constant time; `zeroize` wipes its round keys on drop.

use crate::block::Block;
use aes::cipher::{BlockCipherEncrypt, KeyInit};

/// This backend's key, as the AES table holds it (boxed inside).
pub(crate) type Key = Portable;
/// The names of its AES-128, -192 and -256 keys.
pub(crate) const NAMES: [&str; 3] = ["aes-128/portable", "aes-192/portable", "aes-256/portable"];

/// Expands a key of 16, 24 or 32 bytes (checked by the caller).
pub(crate) fn key(key: &[u8]) -> Option<Key> {
    Some(Portable::new(key))
}

/// Each size in a box of its own size: a box of the enum would hold a
/// shorter key's schedule plus bytes after it that the move copied in from
/// the stack, which no wipe covers (tests/security.rs saw them freed).
pub(crate) enum Portable {
    A128(Box<aes::Aes128>),
    A192(Box<aes::Aes192>),
    A256(Box<aes::Aes256>),
}

macro_rules! each {
    ($self:ident, $k:ident => $e:expr) => {
        match $self {
            Portable::A128($k) => $e,
            Portable::A192($k) => $e,
            Portable::A256($k) => $e,
        }
    };
}

impl Portable {
    /// `key` has 16, 24 or 32 bytes (checked by the caller).
    pub(super) fn new(key: &[u8]) -> Self {
        match key.len() {
            16 => Portable::A128(Box::new(
                aes::Aes128::new_from_slice(key).expect("16-byte key"),
            )),
            24 => Portable::A192(Box::new(
                aes::Aes192::new_from_slice(key).expect("24-byte key"),
            )),
            _ => Portable::A256(Box::new(
                aes::Aes256::new_from_slice(key).expect("32-byte key"),
            )),
        }
    }

    pub(super) fn key_len(&self) -> usize {
        match self {
            Portable::A128(_) => 16,
            Portable::A192(_) => 24,
            Portable::A256(_) => 32,
        }
    }

    pub(super) fn round_keys(&self) -> Option<&crate::block::round_keys::AesRoundKeys> {
        None
    }

    pub(super) fn encrypt_block(&self, block: &mut Block) {
        each!(self, k => k.encrypt_block(block.into()))
    }

    pub(super) fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let blocks = aes::Block::cast_slice_from_core_mut(blocks);
        each!(self, k => k.encrypt_blocks(blocks))
    }
}
