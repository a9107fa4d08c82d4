//! The OpenAPI document of the whole API (`GET /api/openapi.json`).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
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

#[derive(OpenApi)]
#[openapi(
    info(title = "Sagani server", description = "Play Sagani online: games, seats, moves, live updates. Moves, views and previews are the engine's JSON (docs/RECORD.md, docs/server-api.md)."),
    paths(
        crate::routes::healthz,
        crate::routes::lobby,
        crate::routes::create,
        crate::routes::join,
        crate::routes::state,
        crate::routes::play,
        crate::routes::preview,
        crate::routes::record,
        crate::ws::connect,
    ),
    modifiers(&SeatToken)
)]
pub struct ApiDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
