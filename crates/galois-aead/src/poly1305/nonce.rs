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
//!   block of nonces by writing the block's end to a temporary file,
//!   fsyncing it, renaming it over the store and fsyncing the directory,
//!   and only then hands out nonces of the block. After a crash or power
//!   loss the store restarts at the persisted end, so no nonce is issued
//!   twice (at most one block is skipped). An advisory lock keeps a second
//!   handle (in this or another process) from opening the same store; a
//!   held lock is waited for up to one second before the open is refused.

use crate::error::Error;
use std::fs::{self, File};
use std::io::{self, Write};
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

const MAGIC: &str = "galois-poly1305-nonce-store-v1";

/// A file-backed nonce source that survives crashes without reuse.
///
/// The file holds one number, the *safe nonce*: every nonce issued so far is
/// below it. Nonces are reserved `block` at a time, so a store costs two
/// fsyncs per `block` nonces.
///
/// ```
/// use galois_aead::poly1305::nonce::NonceStore;
/// let path = std::env::temp_dir().join(format!("galois-doc-store-{}", std::process::id()));
/// # let _ = std::fs::remove_file(&path);
/// let mut store = NonceStore::create(&path, 100)?;
/// assert_eq!(store.next_nonce()?, 0u128.to_le_bytes());
/// drop(store); // a crash here loses the rest of the block, never reuses a nonce
/// let mut store = NonceStore::open(&path, 100)?;
/// assert_eq!(store.next_nonce()?, 100u128.to_le_bytes());
/// # drop(store);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct NonceStore {
    path: PathBuf,
    next: u128,
    reserved_end: u128,
    block: u128,
    /// An exclusive advisory lock on `<path>.lock`, held while the store is
    /// open: two live handles on one store would hand out the same nonces.
    /// The kernel drops it when the process dies, so a crash does not
    /// leave it behind.
    _lock: File,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

impl NonceStore {
    /// Creates a new store at `path` (which must not exist) starting at
    /// nonce 0, reserving `block` nonces at a time.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceStore;
    /// let path = std::env::temp_dir().join(format!("galois-doc-create-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let store = NonceStore::create(&path, 1)?;
    /// assert!(NonceStore::open(&path, 1).is_err()); // locked while `store` is open
    /// drop(store);
    /// assert!(NonceStore::create(&path, 1).is_err()); // exists already
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, block: u64) -> io::Result<Self> {
        let path = path.as_ref().to_path_buf();
        let lock = lock(&path)?;
        if path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("nonce store {} already exists", path.display()),
            ));
        }
        persist(&path, 0)?;
        Self::open_locked(path, block, lock)
    }

    /// Opens an existing store. Its first nonce is the persisted safe value.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceStore;
    /// let path = std::env::temp_dir().join(format!("galois-doc-open-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// assert_eq!(NonceStore::open(&path, 8).unwrap_err().kind(), std::io::ErrorKind::NotFound);
    /// NonceStore::create(&path, 8)?.next_nonce()?;
    /// assert_eq!(NonceStore::open(&path, 8)?.next_nonce()?, 8u128.to_le_bytes());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>, block: u64) -> io::Result<Self> {
        let lock = lock(path.as_ref())?;
        Self::open_locked(path.as_ref().to_path_buf(), block, lock)
    }

    fn open_locked(path: PathBuf, block: u64, lock: File) -> io::Result<Self> {
        if block == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "nonce store block size must be at least 1",
            ));
        }
        let text = fs::read_to_string(&path)?;
        let safe = parse(&text).ok_or_else(|| {
            invalid(format!(
                "nonce store {} is not a {MAGIC} file; refusing to guess a safe nonce",
                path.display()
            ))
        })?;
        Ok(NonceStore {
            path,
            next: safe,
            reserved_end: safe,
            block: block as u128,
            _lock: lock,
        })
    }

    /// Opens the store at `path`, creating it (at nonce 0) if it is missing.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceStore;
    /// let path = std::env::temp_dir().join(format!("galois-doc-ooc-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// assert_eq!(NonceStore::open_or_create(&path, 4)?.next_nonce()?, [0; 16]);
    /// assert_eq!(NonceStore::open_or_create(&path, 4)?.next_nonce()?, 4u128.to_le_bytes());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open_or_create(path: impl AsRef<Path>, block: u64) -> io::Result<Self> {
        match Self::open(path.as_ref(), block) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Self::create(path, block),
            r => r,
        }
    }

    /// The next nonce. The safe value on disk is already above it when it is
    /// returned. Fails (without issuing anything) if the disk write fails or
    /// the nonce space is exhausted.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceStore;
    /// let path = std::env::temp_dir().join(format!("galois-doc-next-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let mut store = NonceStore::create(&path, 2)?;
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
            persist(&self.path, end)?;
            self.reserved_end = end;
        }
        let n = self.next;
        self.next += 1;
        Ok(n.to_le_bytes())
    }

    /// The path of the store.
    ///
    /// ```
    /// use galois_aead::poly1305::nonce::NonceStore;
    /// let path = std::env::temp_dir().join(format!("galois-doc-path-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let store = NonceStore::create(&path, 1)?;
    /// assert_eq!(store.path(), path);
    /// # drop(store);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How long [`lock`] waits for a held lock before refusing. A store just
/// dropped by this process can stay locked for a moment: a child being
/// spawned by another thread holds a copy of the lock's descriptor between
/// its fork and its exec (which closes it), and flock locks belong to the
/// shared open file. A genuinely live second handle is refused after this
/// wait.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Takes the store's lock file, or fails if another handle holds it for
/// longer than [`LOCK_WAIT`].
fn lock(path: &Path) -> io::Result<File> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let f = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(PathBuf::from(name))?;
    let start = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(1);
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(f),
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

fn parse(text: &str) -> Option<u128> {
    let mut it = text.split_whitespace();
    if it.next()? != MAGIC {
        return None;
    }
    let v = it.next()?;
    if v.len() != 32 || it.next().is_some() {
        return None;
    }
    u128::from_str_radix(v, 16).ok()
}

/// Atomically replaces the file at `path` with the safe value `v` and makes
/// the replacement durable: write temp, fsync temp, rename, fsync directory.
fn persist(path: &Path, v: u128) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(format!("{MAGIC} {v:032x}\n").as_bytes())?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    File::open(dir)?.sync_all()?;
    Ok(())
}
