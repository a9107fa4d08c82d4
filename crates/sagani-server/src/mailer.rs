//! Sending mail: the SMTP transport (`--smtp`) and the mails' words (the page's catalogues,
//! `mail.*`, in the account's language).

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

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

    pub async fn send(&self, m: &Written, to: &str, stop: Option<&str>) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("{e}"))?;
        // A message id in the sender's domain: mail servers and filters expect one.
        let id = format!(
            "<{}@{}>",
            crate::secret::random_hex(16),
            self.from.email.domain()
        );
        let mut b = Message::builder()
            .message_id(Some(id))
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
        .is_some_and(|auth| {
            auth.contains('@') && auth.split('@').next().unwrap_or("").contains(':')
        })
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
    all.get(lang)
        .or_else(|| all.get("en"))
        .expect("the English catalogue")
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
