//! Nonces that never repeat (paper, section 3).
//!
//! "The sender must never use the same nonce for two different messages.
//! The simplest way to achieve this is for the sender to use an increasing
//! sequence of nonces [...] Store a safe nonce value -- a new nonce larger
//! than any nonce used -- on disk alongside the key."
//!
//! Nonces here are counters in the paper's reverse-lexicographic order: the
//! 16 bytes are a little-endian 128-bit integer.
//!
//! - [`NonceSequence`]: in memory, strictly increasing, refuses to wrap.
//! - [`NonceStore`]: file-backed. Before handing out a nonce it makes sure
//!   the file on disk holds a value larger than that nonce: it reserves a
//!   block of nonces by writing the block's end into the file (in place,
//!   alternating between two checksummed slots) and fsyncing it, and only
//!   then hands out nonces of the block. After a crash or power loss the
//!   store restarts at the persisted end, so no nonce is issued twice (at
//!   most one block is skipped). The file records the [`KeyId`] of its key
//!   and refuses any other. An advisory lock on the file itself keeps a
//!   second handle (in this or another process, through any name of the
//!   file) from opening the same store; a held lock is waited for up to one
//!   second before the open is refused.
//!
//! No file can tell that it was put back from an earlier copy (a restored
//! backup, a resumed VM snapshot): after such a restore, start a new key.

use crate::error::Error;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// An in-memory, strictly increasing nonce counter.
///
/// ```
/// use galois_aead::poly1305::{nonce::NonceSequence, Poly1305Aes};
/// let mac = Poly1305Aes::new(&[0u8; 32])?;
/// let mut nonces = NonceSequence::new();
/// let (n1, n2) = (nonces.next_nonce()?, nonces.next_nonce()?);
/// assert_ne!(mac.authenticate(&n1, b"m")?, mac.authenticate(&n2, b"m")?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct NonceSequence {
    next: Option<u128>,
}

impl NonceSequence {
    /// A sequence whose first nonce is `first` (little-endian).
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceSequence;
    /// let mut s = NonceSequence::starting_at(256);
    /// assert_eq!(s.next_nonce()?, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // little-endian
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn starting_at(first: u128) -> Self {
        NonceSequence { next: Some(first) }
    }

    /// A sequence starting at nonce 0.
    ///
    /// ```
    /// let mut s = galois_aead::poly1305::nonce::NonceSequence::new();
    /// assert_eq!(s.next_nonce()?, [0; 16]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::starting_at(0)
    }

    /// The next nonce, or [`Error::LimitReached`] once 2^128 - 1 has been
    /// issued: the sequence never wraps.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceSequence;
    /// let mut s = NonceSequence::starting_at(u128::MAX);
    /// assert_eq!(s.next_nonce()?, [0xff; 16]);
    /// assert!(matches!(s.next_nonce(), Err(galois_aead::Error::LimitReached { .. }))); // never wraps
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn next_nonce(&mut self) -> crate::Result<[u8; 16]> {
        let n = self.next.ok_or(Error::LimitReached {
            what: "nonce sequence exhausted (2^128 nonces)",
        })?;
        self.next = n.checked_add(1);
        Ok(n.to_le_bytes())
    }

    /// The value the next nonce will have, if any.
    ///
    /// ```
    /// let mut s = galois_aead::poly1305::nonce::NonceSequence::new();
    /// s.next_nonce()?;
    /// assert_eq!(s.peek(), Some(1));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn peek(&self) -> Option<u128> {
        self.next
    }
}

impl Default for NonceSequence {
    fn default() -> Self {
        Self::new()
    }
}

/// Identifies the key a [`NonceStore`] belongs to. Not secret, and says
/// nothing about the key: make one with [`KeyId::random`] when you make the
/// key, and keep it next to the key. A store refuses to open under any
/// other identifier, so a store file is never used with another key's
/// counter.
///
/// ```
/// use galois_aead::poly1305::nonce::KeyId;
/// let id = KeyId::random()?;
/// assert_eq!(KeyId::from_bytes(*id.as_bytes()), id);
/// assert_ne!(KeyId::random()?, id);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyId([u8; 16]);

impl KeyId {
    /// 16 random bytes from the operating system.
    ///
    /// ```
    /// assert_ne!(galois_aead::poly1305::nonce::KeyId::random()?.as_bytes(), &[0; 16]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn random() -> crate::Result<Self> {
        let mut b = [0u8; 16];
        getrandom::fill(&mut b).map_err(|_| Error::RandomSourceFailed)?;
        Ok(KeyId(b))
    }

    /// An identifier saved earlier.
    ///
    /// ```
    /// let id = galois_aead::poly1305::nonce::KeyId::from_bytes([7; 16]);
    /// assert_eq!(id.as_bytes(), &[7; 16]);
    /// ```
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        KeyId(bytes)
    }

    /// Its 16 bytes, to save next to the key.
    ///
    /// ```
    /// let id = galois_aead::poly1305::nonce::KeyId::from_bytes([1; 16]);
    /// assert_eq!(id.as_bytes().len(), 16);
    /// ```
    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

/// First line of a store file (version 2: key identifier, two slots).
const MAGIC: &str = "galois-nonce-store-v2";
/// The version-1 format (one value, no key identifier), refused.
const MAGIC_V1: &str = "galois-poly1305-nonce-store-v1";
/// The two slots sit in separate 512-byte sectors, so a torn write of one
/// cannot reach the other.
const SLOT_AT: [u64; 2] = [512, 1024];
/// `slot <gen 16 hex> <safe 32 hex> <check 16 hex>\n`
const SLOT_LEN: usize = 5 + 16 + 1 + 32 + 1 + 16 + 1;
const FILE_LEN: usize = 1024 + SLOT_LEN;

/// A file-backed nonce source that survives crashes without reuse.
///
/// The file holds the *safe nonce*: every nonce issued so far is below it.
/// Nonces are reserved `block` at a time, so a store costs one write and
/// one fsync per `block` nonces. The file also records the [`KeyId`] of
/// the key it counts for; opening it under another identifier is refused.
///
/// The value is written in place (the file is never replaced), in one of
/// two checksummed slots in turn: a write torn by a crash leaves the other
/// slot, which holds the last value made durable. The store is locked on
/// the file itself (`flock` on its inode), so every name of one store (a
/// symlink, a hard link) contends for the same lock.
///
/// What no store can survive: a copy of the file taken earlier and put
/// back (a restored backup, a resumed VM or container snapshot, a cloned
/// disk) restarts the count from the copy and reissues nonces. After any
/// such restore, use a new key (with a new store).
///
/// ```
/// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
/// let path = std::env::temp_dir().join(format!("galois-doc-store-{}", std::process::id()));
/// # let _ = std::fs::remove_file(&path);
/// let id = KeyId::random()?; // made with the key, kept with it
/// let mut store = NonceStore::create(&path, id, 100)?;
/// assert_eq!(store.next_nonce()?, 0u128.to_le_bytes());
/// drop(store); // a crash here loses the rest of the block, never reuses a nonce
/// let mut store = NonceStore::open(&path, id, 100)?;
/// assert_eq!(store.next_nonce()?, 100u128.to_le_bytes());
/// # drop(store);
/// assert!(NonceStore::open(&path, KeyId::random()?, 100).is_err()); // another key's store
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct NonceStore {
    path: PathBuf,
    key_id: KeyId,
    next: u128,
    reserved_end: u128,
    block: u128,
    /// Generation of the last slot written (the next goes to slot
    /// `(gen + 1) % 2`).
    generation: u64,
    /// The store file, opened read-write and exclusively `flock`ed while
    /// the store is open: two live handles on one store would hand out the
    /// same nonces. The kernel drops the lock when the process dies, so a
    /// crash does not leave it behind.
    file: File,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

impl NonceStore {
    /// Creates a new store at `path` (which must not exist, not even as a
    /// dangling symlink) for the key `key_id`, starting at nonce 0 and
    /// reserving `block` nonces at a time.
    ///
    /// The file is written under a fresh name in the same directory
    /// (created exclusively, never through a link), made durable, then
    /// linked to `path`, which fails if anything is there.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-create-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let id = KeyId::from_bytes([3; 16]);
    /// let store = NonceStore::create(&path, id, 1)?;
    /// assert!(NonceStore::open(&path, id, 1).is_err()); // locked while `store` is open
    /// drop(store);
    /// assert!(NonceStore::create(&path, id, 1).is_err()); // exists already
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, key_id: KeyId, block: u64) -> io::Result<Self> {
        check_block(block)?;
        let path = path.as_ref().to_path_buf();
        let dir = parent(&path);
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("nonce store path {} names no file", path.display()),
            )
        })?;
        let mut suffix = [0u8; 8];
        getrandom::fill(&mut suffix).map_err(|_| io::Error::other(Error::RandomSourceFailed))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{:016x}.tmp", u64::from_le_bytes(suffix)));
        let tmp = dir.join(tmp_name);
        let mut opts = fs::OpenOptions::new();
        opts.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        let file = opts.open(&tmp)?;
        let made = (|| {
            // Uncontended: nobody else knows this name yet. Locked before
            // it becomes the store, so no other handle can slip in.
            file.try_lock().map_err(io::Error::from)?;
            let mut text = Vec::with_capacity(FILE_LEN);
            text.extend_from_slice(
                format!("{MAGIC} key-id {}\n", hex(key_id.as_bytes())).as_bytes(),
            );
            text.resize(SLOT_AT[0] as usize, b'\n');
            text.extend_from_slice(&slot(0, 0));
            text.resize(SLOT_AT[1] as usize, b'\n');
            text.extend_from_slice(&slot(0, 0));
            (&file).write_all(&text)?;
            file.sync_all()?;
            fs::hard_link(&tmp, &path).map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!("nonce store {} already exists", path.display()),
                    )
                } else {
                    e
                }
            })
        })();
        let removed = fs::remove_file(&tmp);
        made?;
        removed?;
        File::open(&dir)?.sync_all()?;
        Ok(NonceStore {
            path,
            key_id,
            next: 0,
            reserved_end: 0,
            block: block as u128,
            generation: 0,
            file,
        })
    }

    /// Opens an existing store of the key `key_id`. Its first nonce is the
    /// persisted safe value. Refused with `InvalidData` if the file belongs
    /// to another key, is damaged or is in the version-1 format (which
    /// records no key: start a new key with a new store).
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-open-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let id = KeyId::from_bytes([4; 16]);
    /// assert_eq!(NonceStore::open(&path, id, 8).unwrap_err().kind(), std::io::ErrorKind::NotFound);
    /// NonceStore::create(&path, id, 8)?.next_nonce()?;
    /// assert_eq!(NonceStore::open(&path, id, 8)?.next_nonce()?, 8u128.to_le_bytes());
    /// let other = NonceStore::open(&path, KeyId::from_bytes([5; 16]), 8).unwrap_err();
    /// assert_eq!(other.kind(), std::io::ErrorKind::InvalidData);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>, key_id: KeyId, block: u64) -> io::Result<Self> {
        check_block(block)?;
        let path = path.as_ref().to_path_buf();
        let file = fs::OpenOptions::new().read(true).write(true).open(&path)?;
        lock(&file, &path)?;
        let mut text = Vec::with_capacity(FILE_LEN + 1);
        (&file).seek(SeekFrom::Start(0))?;
        (&file).take(FILE_LEN as u64 + 1).read_to_end(&mut text)?;
        let (found, generation, safe) = parse(&text).map_err(|why| {
            invalid(format!(
                "nonce store {}: {why}; refusing to guess a safe nonce",
                path.display()
            ))
        })?;
        if found != key_id {
            return Err(invalid(format!(
                "nonce store {} belongs to another key (key id {}, not {}); \
                 a store counts for one key only",
                path.display(),
                hex(found.as_bytes()),
                hex(key_id.as_bytes())
            )));
        }
        Ok(NonceStore {
            path,
            key_id,
            next: safe,
            reserved_end: safe,
            block: block as u128,
            generation,
            file,
        })
    }

    /// Opens the store at `path`, creating it (at nonce 0) if it is missing.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-ooc-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let id = KeyId::from_bytes([6; 16]);
    /// assert_eq!(NonceStore::open_or_create(&path, id, 4)?.next_nonce()?, [0; 16]);
    /// assert_eq!(NonceStore::open_or_create(&path, id, 4)?.next_nonce()?, 4u128.to_le_bytes());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open_or_create(path: impl AsRef<Path>, key_id: KeyId, block: u64) -> io::Result<Self> {
        match Self::open(path.as_ref(), key_id, block) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Self::create(path, key_id, block),
            r => r,
        }
    }

    /// The next nonce. The safe value on disk is already above it when it is
    /// returned. Fails (without issuing anything) if the disk write fails or
    /// the nonce space is exhausted.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-next-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let mut store = NonceStore::create(&path, KeyId::from_bytes([8; 16]), 2)?;
    /// let n: Vec<_> = (0..3).map(|_| store.next_nonce()).collect::<Result<_, _>>()?;
    /// assert_eq!(n[2], 2u128.to_le_bytes());
    /// # drop(store);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn next_nonce(&mut self) -> io::Result<[u8; 16]> {
        if self.next == self.reserved_end {
            let end = self
                .next
                .checked_add(self.block)
                .or(if self.next < u128::MAX {
                    Some(u128::MAX)
                } else {
                    None
                })
                .ok_or_else(|| {
                    io::Error::other(Error::LimitReached {
                        what: "nonce store exhausted (2^128 - 1 nonces)",
                    })
                })?;
            self.persist(end)?;
            self.reserved_end = end;
        }
        let n = self.next;
        self.next += 1;
        Ok(n.to_le_bytes())
    }

    /// Writes `end` to the slot after the current one and makes it durable
    /// before returning. The other slot keeps the previous value, so a
    /// write torn by a crash falls back to it.
    fn persist(&mut self, end: u128) -> io::Result<()> {
        let generation = self.generation.checked_add(1).ok_or_else(|| {
            io::Error::other(Error::LimitReached {
                what: "nonce store generations exhausted",
            })
        })?;
        let at = SLOT_AT[(generation % 2) as usize];
        (&self.file).seek(SeekFrom::Start(at))?;
        (&self.file).write_all(&slot(generation, end))?;
        self.file.sync_data()?;
        self.generation = generation;
        Ok(())
    }

    /// The path the store was opened by.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-path-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let store = NonceStore::create(&path, KeyId::from_bytes([9; 16]), 1)?;
    /// assert_eq!(store.path(), path);
    /// assert_eq!(store.key_id(), KeyId::from_bytes([9; 16]));
    /// # drop(store);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The key identifier the store records.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let dir = std::env::temp_dir().join(format!("galois-doc-keyid-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("store");
    /// let id = KeyId::random().map_err(std::io::Error::other)?;
    /// let store = NonceStore::create(&path, id, 1)?;
    /// assert_eq!(store.key_id(), id);
    /// # drop(store);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn key_id(&self) -> KeyId {
        self.key_id
    }

    /// The value the next nonce will have (it may still need a disk write).
    pub(crate) fn peek(&self) -> u128 {
        self.next
    }
}

fn check_block(block: u64) -> io::Result<()> {
    if block == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "nonce store block size must be at least 1",
        ));
    }
    Ok(())
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// How long [`lock`] waits for a held lock before refusing. A store just
/// dropped by this process can stay locked for a moment: a child being
/// spawned by another thread holds a copy of the store's descriptor between
/// its fork and its exec (which closes it), and flock locks belong to the
/// shared open file. A genuinely live second handle is refused after this
/// wait.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Locks the store file itself (its inode, whatever name reached it), or
/// fails if another handle holds it for longer than [`LOCK_WAIT`].
fn lock(f: &File, path: &Path) -> io::Result<()> {
    let start = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(1);
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(()),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(50));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "nonce store {} is already open in another handle or process",
                        path.display()
                    ),
                ));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// FNV-1a, 64 bits: detects a slot torn by a crash (not an attacker).
fn check(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn slot(generation: u64, safe: u128) -> Vec<u8> {
    let body = format!("slot {generation:016x} {safe:032x} ");
    let mut s = body.clone().into_bytes();
    s.extend_from_slice(format!("{:016x}\n", check(body.as_bytes())).as_bytes());
    debug_assert_eq!(s.len(), SLOT_LEN);
    s
}

/// Lower-case hex digits only (no sign or prefix that `from_str_radix`
/// would take).
fn hex_field(s: &[u8]) -> Option<&str> {
    s.iter()
        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
        .then(|| std::str::from_utf8(s).ok())
        .flatten()
}

fn parse_slot(s: &[u8]) -> Option<(u64, u128)> {
    if s.len() != SLOT_LEN
        || &s[..5] != b"slot "
        || s[21] != b' '
        || s[54] != b' '
        || s[71] != b'\n'
    {
        return None;
    }
    let generation = u64::from_str_radix(hex_field(&s[5..21])?, 16).ok()?;
    let safe = u128::from_str_radix(hex_field(&s[22..54])?, 16).ok()?;
    let sum = u64::from_str_radix(hex_field(&s[55..71])?, 16).ok()?;
    (sum == check(&s[..55])).then_some((generation, safe))
}

/// The key id, the generation and the safe value of a store file: the
/// valid slot with the higher generation.
fn parse(text: &[u8]) -> Result<(KeyId, u64, u128), &'static str> {
    if text.starts_with(MAGIC_V1.as_bytes()) {
        return Err(
            "a version-1 store, which records no key id (start a new key with a new store)",
        );
    }
    let head = format!("{MAGIC} key-id ");
    if text.len() != FILE_LEN || !text.starts_with(head.as_bytes()) {
        return Err("not a galois nonce store, or damaged");
    }
    let id = &text[head.len()..head.len() + 33];
    if id[32] != b'\n' {
        return Err("damaged key id");
    }
    let id = hex_field(&id[..32]).ok_or("damaged key id")?;
    let mut key_id = [0u8; 16];
    for (i, b) in key_id.iter_mut().enumerate() {
        *b = u8::from_str_radix(&id[2 * i..2 * i + 2], 16).map_err(|_| "damaged key id")?;
    }
    let slots = SLOT_AT.map(|at| parse_slot(&text[at as usize..at as usize + SLOT_LEN]));
    let (generation, safe) = slots
        .into_iter()
        .flatten()
        .max()
        .ok_or("both slots damaged")?;
    Ok((KeyId(key_id), generation, safe))
}
