//! Mail at this server: the verification mail sent when an address is set, and the sender that
//! takes due mails from the outbox, each under a lease so that one server sends it.

use super::App;
use crate::mailer::{words, Written};
use crate::store::{DueMail, StoreError};
use std::sync::{Arc, Weak};

/// How long a server holds a mail it is sending before another may try.
const LEASE_MS: i64 = 5 * 60 * 1000;
/// Mails taken from the outbox in one round.
const BATCH: u32 = 20;

impl App {
    /// Whether this server sends mail.
    pub fn mail_on(&self) -> bool {
        self.mailer.is_some()
    }

    /// Where links in mails start: the server's public address if it was given one, else where
    /// the site was reached when the address was set.
    pub fn link_base(&self, reached: &str) -> String {
        self.config
            .public_url
            .clone()
            .unwrap_or_else(|| reached.to_string())
            .trim_end_matches('/')
            .to_string()
    }

    /// Mails the link that verifies `address` (sent now: the player is waiting for it).
    pub async fn send_verification(
        &self,
        address: &str,
        lang: &str,
        name: &str,
        link: &str,
    ) -> Result<(), String> {
        let Some(mailer) = &self.mailer else {
            return Err("mail is off".into());
        };
        let m = Written {
            subject: words(lang, "mail.verify.subject", &[]),
            body: words(lang, "mail.verify.body", &[("name", name), ("link", link)]),
        };
        mailer.send(&m, address, None).await
    }

    /// Sends the mails due now, each claimed first; how many it sent.
    pub async fn send_due_mails(&self) -> Result<usize, StoreError> {
        let Some(mailer) = &self.mailer else {
            return Ok(0);
        };
        let now = self.now_ms();
        let mut sent = 0;
        for id in self.store.due_mails(now, BATCH).await? {
            let token = crate::secret::random_hex(16);
            let claimed = self
                .store
                .claim_mail(
                    &id,
                    &self.holder,
                    now,
                    now + LEASE_MS,
                    &crate::secret::hash(&token),
                )
                .await?;
            let Some(mail) = claimed else { continue };
            if let Some(to) = &mail.to {
                let base = self.link_base(&to.base_url);
                let stop = format!("{base}/api/mail/stop?token={token}");
                let m = written(&mail, &to.lang, &base, &stop);
                if let Err(e) = mailer.send(&m, &to.address, Some(&stop)).await {
                    // Left to a later round, once the lease ends.
                    tracing::warn!("mail {} could not be sent: {e}", mail.id);
                    continue;
                }
                sent += 1;
            }
            self.store
                .mail_done(&mail.id, &self.holder, self.now_ms())
                .await?;
        }
        Ok(sent)
    }
}

/// A notice's mail in `lang`.
fn written(mail: &DueMail, lang: &str, base: &str, stop: &str) -> Written {
    let (kind, link) = match (mail.kind.as_str(), &mail.game) {
        ("your_turn", Some(game)) => ("your_turn", format!("{base}/games/{game}")),
        _ => ("challenge", format!("{base}/")),
    };
    let fill = [("link", link.as_str()), ("stop", stop)];
    Written {
        subject: words(lang, &format!("mail.{kind}.subject"), &fill),
        body: words(lang, &format!("mail.{kind}.body"), &fill),
    }
}

/// Starts the sender: due mails are looked for every `config.mail_poll`.
pub(super) fn start_sender(app: &Arc<App>) {
    if app.mailer.is_none() {
        return;
    }
    let weak: Weak<App> = Arc::downgrade(app);
    let every = app.config.mail_poll;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { return };
            if let Err(e) = app.send_due_mails().await {
                tracing::warn!("the outbox could not be read: {e}");
            }
        }
    });
}
