//! The password pool: every argon2id hash and check of the server runs here, a few at a time.
//!
//! One hash takes 19 MiB and about 0.1 s of a core. Run without a bound, a burst of sign-ups or
//! log-ins holds hundreds of them at once: memory the allocator keeps after the burst, and
//! cores the games need. So at most `workers` run at once, at most `queue` more wait for a
//! turn, and anything beyond is refused at once as `busy` (503, Retry-After): the client tries
//! again a moment later. Each worker's 19 MiB are allocated once and used for every hash after
//! (argon2's own `hash_password` allocates them anew each time, and the system allocator keeps
//! what a burst of those leaves behind), so the pool holds `workers` × 19 MiB, no more.
//!
//! The pool counts its hashes and checks, so tests can see that a request cost exactly the work
//! it should (an unknown name one check, a taken name none).

use crate::error::{ApiError, ErrorCode};
use crate::secret;
use argon2::password_hash::{Output, ParamsString, PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a refused client is told to wait, in seconds.
const RETRY_AFTER_S: u64 = 1;

/// A bounded pool for password work (see the module's comment).
pub struct Passwords {
    turns: Arc<Semaphore>,
    workers: usize,
    queue: usize,
    /// Requests waiting for a turn or running now.
    inside: AtomicUsize,
    hashes: AtomicU64,
    checks: AtomicU64,
    /// The workers' memory, each taken for one hash and given back.
    memory: Mutex<Vec<Vec<Block>>>,
}

impl std::fmt::Debug for Passwords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Passwords")
            .field("workers", &self.workers)
            .field("queue", &self.queue)
            .finish()
    }
}

impl Default for Passwords {
    /// A worker per core but one (which the games keep), and a place waiting per core.
    fn default() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Passwords::new(cores - 1, cores)
    }
}

/// A place in the pool: its holder runs one hash (or check) now.
struct Turn<'a> {
    pool: &'a Passwords,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.pool.inside.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Every place of a pool, taken (`Passwords::occupy`).
pub struct Occupied<'a> {
    pool: &'a Passwords,
    places: usize,
    _permits: OwnedSemaphorePermit,
}

impl Drop for Occupied<'_> {
    fn drop(&mut self) {
        self.pool.inside.fetch_sub(self.places, Ordering::SeqCst);
    }
}

impl Passwords {
    /// A pool running `workers` hashes at once (at least one), with `queue` more waiting.
    pub fn new(workers: usize, queue: usize) -> Passwords {
        let workers = workers.max(1);
        Passwords {
            turns: Arc::new(Semaphore::new(workers)),
            workers,
            queue,
            inside: AtomicUsize::new(0),
            hashes: AtomicU64::new(0),
            checks: AtomicU64::new(0),
            memory: Mutex::new(Vec::new()),
        }
    }

    /// Passwords hashed so far.
    pub fn hashes(&self) -> u64 {
        self.hashes.load(Ordering::SeqCst)
    }

    /// Passwords checked so far (against an account's hash, or the stand-in of a missing one).
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::SeqCst)
    }

    /// Takes every place (each worker's turn and the queue) until the answer is dropped: for
    /// tests that need a full pool.
    pub async fn occupy(&self) -> Occupied<'_> {
        let places = self.workers + self.queue;
        self.inside.fetch_add(places, Ordering::SeqCst);
        let permits = self
            .turns
            .clone()
            .acquire_many_owned(self.workers as u32)
            .await
            .expect("the pool's semaphore is never closed");
        Occupied {
            pool: self,
            places,
            _permits: permits,
        }
    }

    /// Waits for a turn, or refuses at once when the queue is full.
    async fn turn(&self) -> Result<Turn<'_>, ApiError> {
        let before = self.inside.fetch_add(1, Ordering::SeqCst);
        if before >= self.workers + self.queue {
            self.inside.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError {
                retry_after: Some(RETRY_AFTER_S),
                ..ApiError::new(
                    ErrorCode::Busy,
                    "the server is checking too many passwords right now: try again in a moment",
                )
            });
        }
        // From here the turn's drop gives the place back, even if this future is dropped.
        let permit = self.turns.clone().acquire_owned().await;
        let turn = permit.map(|p| Turn {
            pool: self,
            _permit: p,
        });
        match turn {
            Ok(t) => Ok(t),
            Err(_) => {
                self.inside.fetch_sub(1, Ordering::SeqCst);
                Err(ApiError::internal())
            }
        }
    }

    /// Runs `work` on a blocking thread with a worker's memory (during a turn).
    async fn with_memory<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let memory = self.memory.lock().map(|mut m| m.pop()).unwrap_or_default();
        let (memory, answer) = tokio::task::spawn_blocking(move || {
            let mut memory = memory.unwrap_or_default();
            let answer = work(&mut memory);
            (memory, answer)
        })
        .await
        .map_err(|_| ApiError::internal())?;
        if let Ok(mut m) = self.memory.lock() {
            m.push(memory);
        }
        Ok(answer)
    }

    /// The argon2id hash (PHC form, the default parameters) of a new password.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        let _turn = self.turn().await?;
        self.hashes.fetch_add(1, Ordering::SeqCst);
        let hashed = self
            .with_memory(move |memory| {
                let raw = secret::random_hex(16);
                let salt = SaltString::encode_b64(raw.as_bytes()).ok()?;
                let params = Params::default();
                let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
                let output = argon2id(
                    memory,
                    &password,
                    Version::V0x13,
                    &params,
                    raw.as_bytes(),
                    len,
                )?;
                let phc = PasswordHash {
                    algorithm: Algorithm::Argon2id.ident(),
                    version: Some(Version::V0x13.into()),
                    params: ParamsString::try_from(&params).ok()?,
                    salt: Some(salt.as_salt()),
                    hash: Some(output),
                };
                Some(phc.to_string())
            })
            .await?;
        hashed.ok_or_else(ApiError::internal)
    }

    /// Whether `password` matches the stored hash. With no account, a stand-in hash is checked
    /// all the same (with the same parameters), so a wrong name costs as much as a wrong
    /// password and takes as long to refuse. `busy` when the pool is full.
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<bool, ApiError> {
        let _turn = self.turn().await?;
        self.checks.fetch_add(1, Ordering::SeqCst);
        self.with_memory(move |memory| {
            let known = stored.is_some();
            let stored = stored.unwrap_or_else(|| nobody().to_string());
            matches(memory, &password, &stored).unwrap_or(false) && known
        })
        .await
    }
}

/// argon2id of `password` into `memory` (grown to the parameters' size the first time).
fn argon2id(
    memory: &mut Vec<Block>,
    password: &str,
    version: Version,
    params: &Params,
    salt: &[u8],
    len: usize,
) -> Option<Output> {
    if memory.len() != params.block_count() {
        *memory = vec![Block::default(); params.block_count()];
    }
    let argon = Argon2::new(Algorithm::Argon2id, version, params.clone());
    let mut out = vec![0u8; len];
    argon
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut memory[..])
        .ok()?;
    Output::new(&out).ok()
}

/// Whether `password` hashes to the stored argon2id hash (PHC form); `None` for a hash that
/// cannot be read. The outputs are compared in constant time (`Output`'s equality).
fn matches(memory: &mut Vec<Block>, password: &str, stored: &str) -> Option<bool> {
    let parsed = PasswordHash::new(stored).ok()?;
    if Algorithm::try_from(parsed.algorithm).ok()? != Algorithm::Argon2id {
        return None;
    }
    let version = match parsed.version {
        Some(v) => Version::try_from(v).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(&parsed).ok()?;
    let expected = parsed.hash?;
    let mut salt = [0u8; 64];
    let salt = parsed.salt?.decode_b64(&mut salt).ok()?;
    let got = argon2id(memory, password, version, &params, salt, expected.len())?;
    Some(got == expected)
}

/// The stand-in hash checked for a name no account has (made once, with the default
/// parameters every account's hash has).
fn nobody() -> &'static str {
    static NOBODY: OnceLock<String> = OnceLock::new();
    NOBODY.get_or_init(|| {
        let salt = SaltString::encode_b64(b"no-such-account!").expect("a salt");
        Argon2::default()
            .hash_password(b"-", &salt)
            .expect("a hash")
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_check_and_count() {
        let pool = Passwords::new(1, 0);
        let h = pool.hash("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        // argon2's own check reads it as one of its hashes.
        use argon2::password_hash::PasswordVerifier;
        let parsed = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        assert!(pool
            .verify("correct horse".into(), Some(h.clone()))
            .await
            .unwrap());
        assert!(!pool.verify("wrong horse".into(), Some(h)).await.unwrap());
        assert!(
            !pool.verify("-".into(), None).await.unwrap(),
            "nobody's stand-in never matches"
        );
        assert_eq!((pool.hashes(), pool.checks()), (1, 3));
        // Hashes argon2 made itself (accounts signed up before the pool) check alike.
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(pool
            .verify("battery staple".into(), Some(theirs.clone()))
            .await
            .unwrap());
        assert!(!pool
            .verify("battery stapler".into(), Some(theirs))
            .await
            .unwrap());
        assert!(!pool
            .verify("x".into(), Some("not a hash".into()))
            .await
            .unwrap());
        // The pool's one worker made its memory once.
        assert_eq!(pool.memory.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_full_pool_refuses_at_once() {
        let pool = Arc::new(Passwords::new(1, 1));
        // One runs (its turn taken by hand) …
        pool.inside.fetch_add(1, Ordering::SeqCst);
        let held = pool.turns.clone().acquire_owned().await.unwrap();
        // … one waits in the queue …
        let waiting = tokio::spawn({
            let pool = pool.clone();
            async move { pool.verify("x".into(), None).await }
        });
        while pool.inside.load(Ordering::SeqCst) < 2 {
            tokio::task::yield_now().await;
        }
        // … the next is refused without any work.
        let e = pool.hash("correct horse".into()).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Busy);
        assert_eq!(e.retry_after, Some(RETRY_AFTER_S));
        assert_eq!((pool.hashes(), pool.checks()), (0, 0));
        drop(held);
        pool.inside.fetch_sub(1, Ordering::SeqCst);
        assert_eq!(waiting.await.unwrap(), Ok(false));
        assert_eq!(
            pool.inside.load(Ordering::SeqCst),
            0,
            "every place is given back"
        );
        assert_eq!(pool.checks(), 1);
        // Occupied, it refuses everything until it is given back.
        let all = pool.occupy().await;
        assert_eq!(
            pool.verify("x".into(), None).await.unwrap_err().code,
            ErrorCode::Busy
        );
        drop(all);
        assert_eq!(pool.inside.load(Ordering::SeqCst), 0);
        assert_eq!(pool.verify("x".into(), None).await, Ok(false));
    }
}
