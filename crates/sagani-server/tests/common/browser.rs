//! A browser as the server sees one: it keeps the session cookie it is given and sends
//! `Origin` as a page of the site does (or none, or another site's).

use reqwest::header::{HeaderMap, COOKIE, ORIGIN, SET_COOKIE};
use serde_json::{json, Value};

pub struct Browser {
    pub url: String,
    client: reqwest::Client,
    /// The session cookie this browser holds ("name=value").
    pub cookie: Option<String>,
    /// Send `Origin` as a page of the site does.
    pub origin: Option<String>,
}

pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: HeaderMap,
}

impl Browser {
    pub fn new(url: &str) -> Browser {
        Browser {
            url: url.into(),
            client: reqwest::Client::new(),
            cookie: None,
            origin: Some(url.into()),
        }
    }

    pub async fn send(&mut self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let mut r = self
            .client
            .request(method.parse().unwrap(), format!("{}{path}", self.url));
        if let Some(b) = body {
            r = r.json(&b);
        }
        if let Some(c) = &self.cookie {
            r = r.header(COOKIE, c);
        }
        if let Some(o) = &self.origin {
            r = r.header(ORIGIN, o);
        }
        let got = super::local::send(r).await;
        let (status, headers) = (got.status, got.headers);
        if let Some(set) = headers.get(SET_COOKIE) {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap().to_string();
            self.cookie = if pair.ends_with('=') {
                None
            } else {
                Some(pair)
            };
        }
        let body = serde_json::from_str(&got.text).expect("a JSON body");
        Answer {
            status,
            body,
            headers,
        }
    }

    /// A new browser on `url`, signed up (and so logged in) as `name`, whose password is
    /// "`name`'s secret".
    pub async fn signed_up(url: &str, name: &str) -> Browser {
        let mut b = Browser::new(url);
        let a = b
            .send(
                "POST",
                "/api/players",
                Some(json!({ "name": name, "password": format!("{name}'s secret") })),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        b
    }

    pub async fn me(&mut self) -> Value {
        let a = self.send("GET", "/api/me", None).await;
        assert_eq!(a.status, 200);
        a.body
    }

    pub async fn log_in(&mut self, name: &str, password: &str) -> Answer {
        let body = json!({ "name": name, "password": password });
        self.send("POST", "/api/session", Some(body)).await
    }

    /// A GET with a seat's token.
    pub async fn get_with(&mut self, path: &str, token: &str) -> Answer {
        self.with_token("GET", path, token, None).await
    }

    /// A POST with a seat's token.
    pub async fn post_with(&mut self, path: &str, token: &str, body: Value) -> Answer {
        self.with_token("POST", path, token, Some(body)).await
    }

    pub async fn with_token(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> Answer {
        let mut r = self
            .client
            .request(method.parse().unwrap(), format!("{}{path}", self.url))
            .bearer_auth(token);
        if let Some(b) = body {
            r = r.json(&b);
        }
        let got = super::local::send(r).await;
        Answer {
            status: got.status,
            headers: got.headers,
            body: serde_json::from_str(&got.text).expect("a JSON body"),
        }
    }
}
