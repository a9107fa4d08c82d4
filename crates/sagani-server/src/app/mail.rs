//! Mail: the SMTP transport (`--smtp`), the mails' words (the page's catalogues, `mail.*`), the
//! verification mail sent when an address is set, and the sender that takes due mails from the
//! outbox, each under a lease so one server sends it.

use super::App;
use crate::store::{DueMail, StoreError};
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

/// How long a server holds a mail it is sending before another may try.
const LEASE_MS: i64 = 5 * 60 * 1000;
/// Mails taken from the outbox in one round.
const BATCH: u32 = 20;
/// The languages mails are written in; any other gets English.
pub const LANGS: [&str; 2] = ["en", "de"];

/// How a server sends mail.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// Why `--smtp` or `--mail-from` is refused.
#[derive(Debug, thiserror::Error)]
pub enum MailSetupError {
    #[error("--smtp {0:?}: {1}")]
    Url(String, String),
    #[error("--mail-from {0:?} is not an e-mail address")]
    From(String),
}

impl Mailer {
    /// A mailer for `url`: `smtp://host:port` (plain; STARTTLS required when a user and
    /// password are given, or with `?tls=required`), `smtps://…` (TLS from the start).
    pub fn new(url: &str, from: &str) -> Result<Mailer, MailSetupError> {
        let refuse = |e: &dyn std::fmt::Display| MailSetupError::Url(redacted(url), e.to_string());
        let mut url = url.to_string();
        if url.starts_with("smtp://") && has_password(&url) && !url.contains("tls=") {
            url.push_str(if url.contains('?') { "&" } else { "?" });
            url.push_str("tls=required");
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
            .map_err(|e| refuse(&e))?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        let from = from
            .parse::<Mailbox>()
            .map_err(|_| MailSetupError::From(from.to_string()))?;
        Ok(Mailer { transport, from })
    }

    async fn send(&self, m: &Written, to: &str, stop: Option<&str>) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("{e}"))?;
        let mut b = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&m.subject);
        if let Some(stop) = stop {
            // RFC 8058: a mail program may offer one-click unsubscribing (a POST to the link).
            b = b
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{stop}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_string(),
                ));
        }
        // Quoted-printable: the text stays readable, its long links unbroken for a reader.
        let text = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .header(ContentTransferEncoding::QuotedPrintable)
            .body(m.body.clone());
        let message = b.singlepart(text).map_err(|e| e.to_string())?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

fn has_password(url: &str) -> bool {
    url.split_once("://")
        .and_then(|(_, rest)| rest.split(['/', '?']).next())
        .is_some_and(|auth| auth.contains('@') && auth.split('@').next().unwrap_or("").contains(':'))
}

/// The URL with its password left out (for messages).
fn redacted(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((_, host)) => format!("{scheme}://…@{host}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// A mail's subject and text.
pub struct Written {
    pub subject: String,
    pub body: String,
}

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/i18n/"]
struct Catalogues;

/// The `mail.` messages of each language.
fn catalogue(lang: &str) -> &'static HashMap<String, String> {
    static ALL: OnceLock<HashMap<&'static str, HashMap<String, String>>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        LANGS
            .into_iter()
            .map(|l| {
                let text = Catalogues::get(&format!("{l}.json"))
                    .map(|f| f.data.into_owned())
                    .unwrap_or_default();
                let map: HashMap<String, serde_json::Value> =
                    serde_json::from_slice(&text).unwrap_or_default();
                let words = map
                    .into_iter()
                    .filter(|(k, _)| k.starts_with("mail."))
                    .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
                    .collect();
                (l, words)
            })
            .collect()
    });
    all.get(lang).or_else(|| all.get("en")).expect("the English catalogue")
}

/// Message `key` in `lang` with its `{placeholders}` filled in.
pub fn words(lang: &str, key: &str, fill: &[(&str, &str)]) -> String {
    let mut text = catalogue(lang)
        .get(key)
        .or_else(|| catalogue("en").get(key))
        .cloned()
        .unwrap_or_else(|| key.to_string());
    for (name, value) in fill {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    text
}

/// A language mails are written in: the page's, if it is one of ours.
pub fn mail_lang(lang: &str) -> &'static str {
    LANGS.into_iter().find(|l| *l == lang).unwrap_or("en")
}

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
                .claim_mail(&id, &self.holder, now, now + LEASE_MS, &crate::secret::hash(&token))
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
            self.store.mail_done(&mail.id, &self.holder, self.now_ms()).await?;
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
