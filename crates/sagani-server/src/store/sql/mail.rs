//! Mail: an account's address and choices, and the outbox, written in the transaction of the
//! notice a mail tells of and claimed by one server for sending.

use super::super::db::{args, from_row, Commit, Conn, Database, Sql};
use super::super::{DueMail, Mail, MailAddress, NewAddress, StoreError};
use super::raising::forget;
use super::SqlStore;
use async_trait::async_trait;

use Sql::Both;

/// Attempts at sending a mail at most (a refused address is not tried for ever).
const TRIES: i64 = 5;

from_row! {
    struct AddressRow {
        address: String,
        lang: String,
        verified_at: Option<i64>,
        your_turn: bool,
        challenges: bool,
        base_url: String,
    }
}

impl From<AddressRow> for MailAddress {
    fn from(r: AddressRow) -> MailAddress {
        MailAddress {
            address: r.address,
            lang: r.lang,
            verified: r.verified_at.is_some(),
            your_turn: r.your_turn,
            challenges: r.challenges,
            base_url: r.base_url,
        }
    }
}

async fn address(c: &mut dyn Conn, player: &str) -> Result<Option<MailAddress>, StoreError> {
    let row: Option<AddressRow> = c
        .row(
            Both(
                "SELECT address, lang, verified_at, your_turn, challenges, base_url
                 FROM mail_addresses WHERE player_id = $1",
            ),
            args![player],
        )
        .await?;
    Ok(row.map(MailAddress::from))
}

async fn set_address(c: &mut dyn Conn, a: &NewAddress) -> Result<(), StoreError> {
    c.execute(
        Both(
            "INSERT INTO mail_addresses (player_id, address, lang, verify_hash, verify_until,
                 base_url, set_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (player_id) DO UPDATE SET address = excluded.address,
                 lang = excluded.lang, verify_hash = excluded.verify_hash,
                 verify_until = excluded.verify_until, base_url = excluded.base_url,
                 set_at = excluded.set_at, verified_at = NULL",
        ),
        args![
            &a.player,
            &a.address,
            &a.lang,
            &a.verify_hash,
            a.verify_until_ms,
            &a.base_url,
            a.at_ms
        ],
    )
    .await?;
    Ok(())
}

async fn choose(
    c: &mut dyn Conn,
    player: &str,
    your_turn: bool,
    challenges: bool,
) -> Result<bool, StoreError> {
    Ok(c.execute(
        Both("UPDATE mail_addresses SET your_turn = $2, challenges = $3 WHERE player_id = $1"),
        args![player, your_turn, challenges],
    )
    .await?
        == 1)
}

async fn verify(
    c: &mut dyn Conn,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<String>, StoreError> {
    Ok(c.value(
        Both(
            "UPDATE mail_addresses SET verified_at = $2, verify_hash = NULL, verify_until = NULL
             WHERE verify_hash = $1 AND verify_until > $2
             RETURNING player_id",
        ),
        args![token_hash, now_ms],
    )
    .await?)
}

async fn due(c: &mut dyn Conn, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Both(
            "SELECT id FROM mail_outbox
             WHERE sent_at IS NULL AND tries < $3 AND (lease_until IS NULL OR lease_until <= $1)
             ORDER BY at, id LIMIT $2",
        ),
        args![now_ms, limit, TRIES],
    )
    .await?)
}

from_row! {
    struct DueRow {
        id: String,
        player_id: String,
        kind: String,
        game_id: Option<String>,
        about: Option<String>,
        at: i64,
    }
}

async fn claim(
    c: &mut dyn Conn,
    id: &str,
    holder: &str,
    now_ms: i64,
    until_ms: i64,
    stop_hash: &str,
) -> Result<Option<DueMail>, StoreError> {
    // The lease is taken by a conditional write: of two servers, one changes the row.
    let row: Option<DueRow> = c
        .row(
            Both(
                "UPDATE mail_outbox SET holder = $2, lease_until = $4, tries = tries + 1,
                     stop_hash = $5
                 WHERE id = $1 AND sent_at IS NULL AND tries < $6
                     AND (lease_until IS NULL OR lease_until <= $3)
                 RETURNING id, player_id, kind, game_id, about, at",
            ),
            args![id, holder, now_ms, until_ms, stop_hash, TRIES],
        )
        .await?;
    let Some(r) = row else { return Ok(None) };
    let to = address(c, &r.player_id).await?.filter(|a| {
        a.verified
            && match r.kind.as_str() {
                "your_turn" => a.your_turn,
                "challenge" => a.challenges,
                _ => false,
            }
    });
    Ok(Some(DueMail {
        id: r.id,
        player: r.player_id,
        kind: r.kind,
        game: r.game_id,
        about: r.about,
        at_ms: r.at,
        to,
    }))
}

async fn done(c: &mut dyn Conn, id: &str, holder: &str, now_ms: i64) -> Result<(), StoreError> {
    c.execute(
        Both("UPDATE mail_outbox SET sent_at = $3 WHERE id = $1 AND holder = $2"),
        args![id, holder, now_ms],
    )
    .await?;
    Ok(())
}

async fn stop(c: &mut dyn Conn, stop_hash: &str) -> Result<Option<String>, StoreError> {
    Ok(c.value(
        Both(
            "UPDATE mail_addresses SET your_turn = FALSE, challenges = FALSE
             WHERE player_id = (SELECT player_id FROM mail_outbox WHERE stop_hash = $1)
             RETURNING lang",
        ),
        args![stop_hash],
    )
    .await?)
}

#[async_trait]
impl<D: Database> Mail for SqlStore<D> {
    async fn mail_address(&self, player: &str) -> Result<Option<MailAddress>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { address(c, &player).await }))
            .await
    }

    async fn set_mail_address(&self, a: &NewAddress) -> Result<(), StoreError> {
        let a = a.clone();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { set_address(c, &a).await })
        })
        .await
    }

    async fn remove_mail_address(&self, player: &str) -> Result<(), StoreError> {
        let player = player.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { forget(c, &player).await })
        })
        .await
    }

    async fn set_mail_choices(
        &self,
        player: &str,
        your_turn: bool,
        challenges: bool,
    ) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { choose(c, &player, your_turn, challenges).await })
        })
        .await
    }

    async fn verify_mail(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        let token_hash = token_hash.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { verify(c, &token_hash, now_ms).await })
        })
        .await
    }

    async fn due_mails(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.read(move |c| Box::pin(async move { due(c, now_ms, limit).await }))
            .await
    }

    async fn claim_mail(
        &self,
        id: &str,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
        stop_hash: &str,
    ) -> Result<Option<DueMail>, StoreError> {
        let (id, holder, stop_hash) = (id.to_string(), holder.to_string(), stop_hash.to_string());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { claim(c, &id, &holder, now_ms, until_ms, &stop_hash).await })
        })
        .await
    }

    async fn mail_done(&self, id: &str, holder: &str, now_ms: i64) -> Result<(), StoreError> {
        let (id, holder) = (id.to_string(), holder.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move { done(c, &id, &holder, now_ms).await })
        })
        .await
    }

    async fn stop_mail(&self, stop_hash: &str) -> Result<Option<String>, StoreError> {
        let stop_hash = stop_hash.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { stop(c, &stop_hash).await })
        })
        .await
    }
}
