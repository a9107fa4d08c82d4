//! A mail server for tests: enough SMTP for lettre (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP,
//! QUIT) on 127.0.0.1, keeping every mail it is given.

use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// A mail as received.
#[derive(Clone, Debug)]
pub struct Mail {
    pub to: Vec<String>,
    /// The message as sent (headers and encoded body).
    pub data: String,
}

impl Mail {
    /// A header's value (the first of that name).
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or("");
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            if let Some(v) = value.as_mut() {
                if line.starts_with([' ', '\t']) {
                    v.push_str(line.trim_start());
                    continue;
                }
                break;
            }
            if let Some((n, v)) = line.split_once(':') {
                if n.eq_ignore_ascii_case(name) {
                    value = Some(v.trim().to_string());
                }
            }
        }
        value
    }

    /// The subject, its encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) decoded.
    pub fn subject(&self) -> String {
        decode_words(&self.header("Subject").unwrap_or_default())
    }

    /// The text, its quoted-printable decoded.
    pub fn text(&self) -> String {
        let body = self.data.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let qp = self
            .header("Content-Transfer-Encoding")
            .is_some_and(|e| e.eq_ignore_ascii_case("quoted-printable"));
        if qp {
            quoted_printable(body)
        } else {
            body.to_string()
        }
    }

    /// The first link in the text starting with `start`.
    pub fn link(&self, start: &str) -> Option<String> {
        let text = self.text();
        let i = text.find(start)?;
        Some(
            text[i..]
                .split(|c: char| c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string(),
        )
    }
}

fn quoted_printable(s: &str) -> String {
    let s = s.replace("=\r\n", "");
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn base64(s: &str) -> Vec<u8> {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let Some(v) = A.iter().position(|a| *a == c) else {
            continue;
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

fn decode_words(s: &str) -> String {
    // Encoded words (RFC 2047), whitespace between two of them left out.
    let mut out = String::new();
    let mut rest = s;
    let mut after_word = false;
    while !rest.is_empty() {
        let word = rest.strip_prefix("=?").and_then(|r| {
            let mut parts = r.splitn(3, '?');
            let (_charset, enc, tail) = (parts.next()?, parts.next()?, parts.next()?);
            let end = tail.find("?=")?;
            let bytes = if enc.eq_ignore_ascii_case("b") {
                base64(&tail[..end])
            } else {
                quoted_printable(&tail[..end].replace('_', " ")).into_bytes()
            };
            let used = rest.len() - tail.len() + end + 2;
            Some((String::from_utf8_lossy(&bytes).into_owned(), used))
        });
        if let Some((text, used)) = word {
            out.push_str(&text);
            rest = &rest[used..];
            after_word = true;
            continue;
        }
        let c = rest.chars().next().unwrap();
        if c.is_whitespace() && after_word {
            // Kept only if no encoded word follows.
            let next = rest.trim_start();
            if next.starts_with("=?") {
                rest = next;
                continue;
            }
        }
        after_word = false;
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The receiver: its address for `--smtp`, and the mails it got.
pub struct Receiver {
    pub url: String,
    mails: Arc<Mutex<Vec<Mail>>>,
    arrived: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    pub async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("smtp://{}", listener.local_addr().unwrap());
        let mails = Arc::new(Mutex::new(Vec::new()));
        let arrived = Arc::new(Notify::new());
        let (kept, told) = (mails.clone(), arrived.clone());
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let (kept, told) = (kept.clone(), told.clone());
                tokio::spawn(async move {
                    let _ = session(socket, kept, told).await;
                });
            }
        });
        Receiver {
            url,
            mails,
            arrived,
            task,
        }
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    /// The mails to `to`.
    pub fn mails_to(&self, to: &str) -> Vec<Mail> {
        self.mails()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t == to))
            .collect()
    }

    /// Waits until `to` has got `n` mails (a generous deadline): them.
    pub async fn wait_for(&self, to: &str, n: usize) -> Vec<Mail> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let waiting = self.arrived.notified();
            let got = self.mails_to(to);
            if got.len() >= n {
                return got;
            }
            if tokio::time::timeout_at(deadline, waiting).await.is_err() {
                panic!("{to} got {} mails, not {n}: {got:?}", got.len());
            }
        }
    }
}

async fn session(
    socket: tokio::net::TcpStream,
    kept: Arc<Mutex<Vec<Mail>>>,
    told: Arc<Notify>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 test.local ESMTP\r\n").await?;
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        let answer: &[u8] = match verb.as_str() {
            "EHLO" => b"250-test.local\r\n250 8BITMIME\r\n",
            "HELO" | "MAIL" | "RSET" | "NOOP" => {
                if verb == "RSET" {
                    to.clear();
                }
                b"250 OK\r\n"
            }
            "RCPT" => {
                let addr = line
                    .split_once('<')
                    .and_then(|(_, r)| r.split_once('>'))
                    .map(|(a, _)| a.to_string())
                    .unwrap_or_default();
                to.push(addr);
                b"250 OK\r\n"
            }
            "DATA" => {
                write.write_all(b"354 go on\r\n").await?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    let l = line.strip_prefix('.').unwrap_or(&line);
                    data.push_str(l);
                }
                kept.lock().unwrap().push(Mail {
                    to: std::mem::take(&mut to),
                    data,
                });
                told.notify_waiters();
                b"250 kept\r\n"
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 not here\r\n",
        };
        write.write_all(answer).await?;
    }
}
