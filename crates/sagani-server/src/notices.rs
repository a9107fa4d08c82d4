//! The notices' and mail's routes: an account's notices and unread count, marking them read,
//! its e-mail address and choices, the link that verifies an address and the one that stops
//! mail (which works without logging in).

use crate::accounts::{check_origin, current};
use crate::app::{store_refusal, App};
use crate::error::{ApiError, Body, ErrorBody, ErrorCode, Params, RefusalDetail};
use crate::mailer::{mail_lang, words};
use crate::store::{NewAddress, Notice, NoticeKind as StoredKind, Player};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Json;
use std::sync::Arc;

pub use sagani_protocol::notices::{
    MailSettings, MailToken, NoticeInfo, NoticeKind, Notices, NoticesQuery, ReadNotices, SetMail,
    Unread,
};

/// How long the link that verifies an address works.
const VERIFY_MS: i64 = 48 * 3600 * 1000;
/// The longest address (RFC 5321's path limit less its brackets).
const ADDRESS_MAX: usize = 254;

fn not_logged_in() -> ApiError {
    ApiError::new(ErrorCode::NotLoggedIn, "this needs you to be logged in")
}

async fn account(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    Ok(current(app, headers).await?.ok_or_else(not_logged_in)?.0)
}

/// The account of a request that changes something: its origin must be this site.
async fn acting(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    let player = account(app, headers).await?;
    check_origin(headers)?;
    Ok(player)
}

fn info(n: Notice) -> NoticeInfo {
    NoticeInfo {
        id: n.id,
        kind: match n.kind {
            StoredKind::YourTurn => NoticeKind::YourTurn,
            StoredKind::Challenge => NoticeKind::Challenge,
            StoredKind::GameOver => NoticeKind::GameOver,
            StoredKind::SeekPaired => NoticeKind::SeekPaired,
        },
        game: n.game,
        about: n.about,
        at: n.at_ms,
        read: n.read,
        players: n.others,
    }
}

/// The account's notices, newest first, and its unread count; with `count=1` the count alone.
#[utoipa::path(get, path = "/api/notices", params(NoticesQuery),
    responses((status = 200, body = Notices),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)")))]
pub async fn list(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Params(q): Params<NoticesQuery>,
) -> Result<Json<Notices>, ApiError> {
    let player = account(&app, &headers).await?;
    let (notices, unread) = if q.count == Some(1) {
        (Vec::new(), app.unread_of(&player.id).await?)
    } else {
        let (list, unread) = app.notices_of(&player.id).await?;
        (list.into_iter().map(info).collect(), unread)
    };
    Ok(Json(Notices {
        notices,
        unread,
        mail: app.mail_on(),
    }))
}

/// Marks the account's notices raised at or before `upto` read.
#[utoipa::path(post, path = "/api/notices/read", request_body = ReadNotices,
    responses((status = 200, body = Unread, description = "how many are still unread"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn read(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Body(req): Body<ReadNotices>,
) -> Result<Json<Unread>, ApiError> {
    let player = acting(&app, &headers).await?;
    let unread = app.read_up_to(&player.id, req.upto).await?;
    Ok(Json(Unread { unread }))
}

async fn settings(app: &App, player: &str) -> Result<MailSettings, ApiError> {
    let a = app
        .store
        .mail_address(player)
        .await
        .map_err(store_refusal)?;
    Ok(MailSettings {
        mail: app.mail_on(),
        verified: a.as_ref().is_some_and(|a| a.verified),
        your_turn: a.as_ref().is_some_and(|a| a.your_turn),
        challenges: a.as_ref().is_some_and(|a| a.challenges),
        address: a.map(|a| a.address),
    })
}

/// The account's address for mail and what it wants mailed.
#[utoipa::path(get, path = "/api/me/email",
    responses((status = 200, body = MailSettings),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)")))]
pub async fn get_mail(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<MailSettings>, ApiError> {
    let player = account(&app, &headers).await?;
    Ok(Json(settings(&app, &player.id).await?))
}

/// An address that looks like one: `local@domain.tld`, nothing invisible, not too long.
fn check_address(address: &str) -> Result<String, ApiError> {
    let a = address.trim();
    let refuse = || ApiError::refused(RefusalDetail::MailAddress);
    if a.is_empty()
        || a.len() > ADDRESS_MAX
        || a.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(refuse());
    }
    let (local, domain) = a.split_once('@').ok_or_else(refuse)?;
    if local.is_empty()
        || domain.contains('@')
        || !domain.contains('.')
        || domain.starts_with('.')
        || domain.ends_with('.')
    {
        return Err(refuse());
    }
    a.parse::<lettre::Address>().map_err(|_| refuse())?;
    Ok(a.to_string())
}

/// Where this request reached the site: `scheme://host`.
fn reached(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get(crate::client_addr::FORWARDED_PROTO)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("http");
    format!("{scheme}://{host}")
}

/// A new address (a link to verify it is mailed to it), none, or other choices.
#[utoipa::path(put, path = "/api/me/email", request_body = SetMail,
    responses((status = 200, body = MailSettings, description = "as set; a new address is unverified until its link is opened"),
              (status = 400, body = ErrorBody, description = "not an address (`bad_request`, `detail` `mail_address`), mail is off on this server (`mail_off`), or the mail could not be sent (`mail_unsent`)"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn put_mail(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Body(req): Body<SetMail>,
) -> Result<Json<MailSettings>, ApiError> {
    let player = acting(&app, &headers).await?;
    let Some(address) = req.address.as_deref() else {
        app.store
            .remove_mail_address(&player.id)
            .await
            .map_err(store_refusal)?;
        return Ok(Json(settings(&app, &player.id).await?));
    };
    if !app.mail_on() {
        return Err(ApiError::refused(RefusalDetail::MailOff));
    }
    let address = check_address(address)?;
    let old = app
        .store
        .mail_address(&player.id)
        .await
        .map_err(store_refusal)?;
    let lang = mail_lang(req.lang.as_deref().unwrap_or("en"));
    let same = old
        .as_ref()
        .is_some_and(|o| o.address == address && o.lang == lang);
    if !same {
        let token = crate::secret::random_hex(16);
        let now = app.now_ms();
        let base = app.link_base(&reached(&headers));
        app.store
            .set_mail_address(&NewAddress {
                player: player.id.clone(),
                address: address.clone(),
                lang: lang.to_string(),
                verify_hash: crate::secret::hash(&token),
                verify_until_ms: now + VERIFY_MS,
                base_url: base.clone(),
                at_ms: now,
            })
            .await
            .map_err(store_refusal)?;
        let link = format!("{base}/api/mail/verify?token={token}");
        if let Err(e) = app
            .send_verification(&address, lang, &player.name, &link)
            .await
        {
            tracing::warn!("a verification mail could not be sent: {e}");
            return Err(ApiError::refused(RefusalDetail::MailUnsent));
        }
    }
    app.store
        .set_mail_choices(&player.id, req.your_turn, req.challenges)
        .await
        .map_err(store_refusal)?;
    Ok(Json(settings(&app, &player.id).await?))
}

/// The link mailed to a new address: verifies it, then shows the account page, which says
/// whether it worked (`?mail=verified` or `?mail=expired`).
#[utoipa::path(get, path = "/api/mail/verify", params(MailToken),
    responses((status = 303, description = "to `/account?mail=verified`, or `/account?mail=expired` for a link that expired or was replaced")))]
pub async fn verify(
    State(app): State<Arc<App>>,
    Params(q): Params<MailToken>,
) -> Result<Response, ApiError> {
    let verified = app
        .store
        .verify_mail(&crate::secret::hash(&q.token), app.now_ms())
        .await
        .map_err(store_refusal)?;
    let to = if verified.is_some() {
        "/account?mail=verified"
    } else {
        "/account?mail=expired"
    };
    Ok(Redirect::to(to).into_response())
}

/// The stop link every mail carries: no more mail to its account (no log-in needed). `GET`
/// answers a page that says so; `POST` is the one-click unsubscribe of RFC 8058.
#[utoipa::path(get, path = "/api/mail/stop", params(MailToken),
    responses((status = 200, content_type = "text/html", description = "a page that says the mail stopped (or that the link stops nothing)")))]
pub async fn stop(
    State(app): State<Arc<App>>,
    Params(q): Params<MailToken>,
) -> Result<Response, ApiError> {
    let lang = app
        .store
        .stop_mail(&crate::secret::hash(&q.token))
        .await
        .map_err(store_refusal)?;
    let (lang, key) = match &lang {
        Some(l) => (mail_lang(l), "mail.stopped"),
        None => ("en", "mail.stop_unknown"),
    };
    let title = words(lang, &format!("{key}.title"), &[]);
    let text = words(lang, &format!("{key}.text"), &[]);
    let page = format!(
        "<!doctype html><html lang=\"{lang}\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} · Sagani</title><main style=\"font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem\"><h1>{}</h1><p>{}</p><p><a href=\"/\">Sagani</a></p></main></html>",
        escape(&title),
        escape(&title),
        escape(&text)
    );
    Ok((StatusCode::OK, Html(page)).into_response())
}

/// One-click unsubscribing (RFC 8058): the same as the link.
#[utoipa::path(post, path = "/api/mail/stop", params(MailToken),
    responses((status = 200, content_type = "text/html", description = "the mail stopped")))]
pub async fn stop_post(state: State<Arc<App>>, q: Params<MailToken>) -> Result<Response, ApiError> {
    stop(state, q).await
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
