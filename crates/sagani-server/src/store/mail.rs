//! The part of the store contract that mails notices: an account's address (verified by a link
//! mailed to it) and its choices, and the outbox of mails to send, each claimed by one server.

use super::StoreError;
use async_trait::async_trait;

/// An account's address for mail, as it set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAddress {
    pub address: String,
    /// The page's language when it was set (`en`, `de`): the mails' language.
    pub lang: String,
    pub verified: bool,
    /// Mail when it is the account's turn in a turn-based game.
    pub your_turn: bool,
    /// Mail when someone challenges the account.
    pub challenges: bool,
    /// Where the site was reached when it was set: the links' start unless the server knows
    /// its public address.
    pub base_url: String,
}

/// A new address for an account: unverified until the link with `verify_hash`'s token is
/// opened before `verify_until_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAddress {
    pub player: String,
    pub address: String,
    pub lang: String,
    pub verify_hash: String,
    pub verify_until_ms: i64,
    pub base_url: String,
    pub at_ms: i64,
}

/// A mail claimed for sending, with what it needs to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueMail {
    pub id: String,
    pub player: String,
    /// The notice's kind (`NoticeKind::as_str`).
    pub kind: String,
    pub game: Option<String>,
    pub about: Option<String>,
    pub at_ms: i64,
    /// `None` when the account no longer wants it (no verified address, or it chose not to):
    /// the mail is then marked done unsent.
    pub to: Option<MailAddress>,
}

#[async_trait]
pub trait Mail: Send + Sync {
    /// The account's address, if it set one.
    async fn mail_address(&self, player: &str) -> Result<Option<MailAddress>, StoreError>;

    /// Sets a new address, unverified (an address set again is unverified again).
    async fn set_mail_address(&self, a: &NewAddress) -> Result<(), StoreError>;

    /// Forgets the account's address.
    async fn remove_mail_address(&self, player: &str) -> Result<(), StoreError>;

    /// Which notices the account wants mailed; false if it has no address.
    async fn set_mail_choices(
        &self,
        player: &str,
        your_turn: bool,
        challenges: bool,
    ) -> Result<bool, StoreError>;

    /// Verifies the address whose link token hashes to `token_hash`, if the link has not
    /// expired by `now_ms`: the account's id.
    async fn verify_mail(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError>;

    /// Mails not yet sent nor held by a server at `now_ms`, oldest first.
    async fn due_mails(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError>;

    /// Takes mail `id` for `holder` until `until_ms` (none if another server holds it or it
    /// was sent), with the hash of its stop link's token.
    async fn claim_mail(
        &self,
        id: &str,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
        stop_hash: &str,
    ) -> Result<Option<DueMail>, StoreError>;

    /// Marks mail `id`, held by `holder`, done (sent, or not to be sent).
    async fn mail_done(&self, id: &str, holder: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Stops all mail to the account whose mail had the stop token hashing to `stop_hash`:
    /// its language, if the token was one.
    async fn stop_mail(&self, stop_hash: &str) -> Result<Option<String>, StoreError>;
}
