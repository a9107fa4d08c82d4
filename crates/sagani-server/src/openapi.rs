//! The OpenAPI document of the whole API (`GET /api/openapi.json`).

use utoipa::openapi::path::{HttpMethod, Operation};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Content, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        let components = api.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("the token a seat got when it was claimed"))
                    .build(),
            ),
        );
    }
}

/// The refusals any route can give (JSON `ErrorBody`), added where a route does not list them.
struct CommonErrors;

impl Modify for CommonErrors {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        let error = |what: &str| {
            RefOr::T(
                ResponseBuilder::new()
                    .description(what)
                    .content(
                        "application/json",
                        Content::new(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                            "ErrorBody",
                        )))),
                    )
                    .build(),
            )
        };
        let add = |op: &mut Operation, with_body: bool| {
            let mut codes = vec![
                ("400", "a malformed request"),
                ("404", "no such game"),
                ("405", "a method the route does not take"),
            ];
            if with_body {
                codes.push(("413", "the body is too large"));
                codes.push(("415", "the body is not JSON"));
            }
            codes.push(("503", "the game could not be saved just now"));
            for (code, what) in codes {
                op.responses
                    .responses
                    .entry(code.to_string())
                    .or_insert_with(|| error(what));
            }
        };
        for item in api.paths.paths.values_mut() {
            for (method, op) in [
                (HttpMethod::Get, item.get.as_mut()),
                (HttpMethod::Post, item.post.as_mut()),
            ] {
                if let Some(op) = op {
                    add(op, method == HttpMethod::Post);
                }
            }
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Sagani server", description = "Play Sagani online: games, seats, moves, live updates. Moves, views and previews are the engine's JSON (docs/RECORD.md, docs/server-api.md)."),
    paths(
        crate::routes::healthz,
        crate::metrics::page,
        crate::routes::tiles,
        crate::routes::lobby,
        crate::routes::create,
        crate::routes::join,
        crate::routes::state,
        crate::routes::play,
        crate::routes::preview,
        crate::routes::rematch,
        crate::routes::moves,
        crate::routes::record,
        crate::ws::connect,
    ),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&SeatToken, &CommonErrors)
)]
pub struct ApiDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
