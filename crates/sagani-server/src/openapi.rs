//! The OpenAPI document of the whole API (`GET /api/openapi.json`).

use utoipa::openapi::path::Operation;
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
        // What every route can answer, what a route of a game can, what a route with a body or
        // query parameters can.
        let add = |op: &mut Operation, of_a_game: bool| {
            let with_body = op.request_body.is_some();
            let with_query = op
                .parameters
                .iter()
                .flatten()
                .any(|p| matches!(p.parameter_in, utoipa::openapi::path::ParameterIn::Query));
            let mut codes = vec![
                ("405", "a method the route does not take (`method_not_allowed`)"),
                ("500", "the server failed on this request (`internal`)"),
                (
                    "503",
                    "the database could not be reached (`storage`) or the request took too long (`timeout`)",
                ),
            ];
            if of_a_game {
                codes.push(("404", "no such game (`not_found`)"));
            }
            if with_body || with_query {
                codes.push(("400", "a malformed request (`bad_request`)"));
            }
            if with_body {
                codes.push(("413", "the body is too large (`body_too_large`)"));
                codes.push(("415", "the body is not JSON (`bad_content_type`)"));
            }
            for (code, what) in codes {
                op.responses
                    .responses
                    .entry(code.to_string())
                    .or_insert_with(|| error(what));
            }
        };
        for (path, item) in api.paths.paths.iter_mut() {
            let of_a_game = path.contains("{id}");
            for op in [
                item.get.as_mut(),
                item.post.as_mut(),
                item.put.as_mut(),
                item.delete.as_mut(),
            ]
            .into_iter()
            .flatten()
            {
                add(op, of_a_game);
            }
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Sagani server", description = "Play Sagani online: games, seats, moves, live updates. Moves, views and previews are the engine's JSON (docs/RECORD.md, docs/server-api.md)."),
    paths(
        crate::routes::healthz,
        crate::routes::readyz,
        crate::routes::metrics_page,
        crate::routes::tiles,
        crate::routes::lobby,
        crate::routes::create,
        crate::routes::join,
        crate::routes::state,
        crate::routes::play,
        crate::routes::preview,
        crate::routes::rematch,
        crate::routes::resign,
        crate::routes::cancel,
        crate::routes::say,
        crate::routes::chat,
        crate::routes::moves,
        crate::routes::record,
        crate::ws::connect,
        crate::study::analysis,
        crate::study::replay,
        crate::study::replay_record,
        crate::accounts::sign_up,
        crate::accounts::session,
        crate::accounts::log_out,
        crate::accounts::log_out_everywhere,
        crate::accounts::me,
        crate::accounts::change_password,
        crate::accounts::delete_account,
        crate::players::profile,
        crate::players::leaderboard,
        crate::players::my_games,
        crate::daily_routes::today,
        crate::daily_routes::start,
        crate::daily_routes::board,
        crate::daily_routes::card,
        crate::seeks::create,
        crate::seeks::pools,
        crate::seeks::state,
        crate::seeks::cancel,
        crate::seeks::bots,
        crate::seeks::socket,
        crate::live_routes::live,
        crate::challenges::send,
        crate::challenges::list,
        crate::challenges::accept,
        crate::challenges::decline,
        crate::challenges::withdraw,
        crate::challenges::follow,
        crate::challenges::unfollow,
        crate::challenges::follows,
        crate::challenges::set_from,
        crate::notices::list,
        crate::notices::read,
        crate::notices::get_mail,
        crate::notices::put_mail,
        crate::notices::verify,
        crate::notices::stop,
        crate::notices::stop_post,
    ),
    components(schemas(
        crate::accounts::Credentials,
        crate::accounts::PasswordChange,
        crate::accounts::Confirmation,
        crate::accounts::Me,
        crate::error::ErrorBody,
        crate::error::ErrorCode,
        crate::error::IllegalReason,
        crate::error::RefusalDetail,
        sagani_protocol::Unseen,
        crate::api::ClientMessage,
        crate::api::WsError,
        crate::time_control::TimeControl,
        sagani_protocol::DailyVariantName,
    )),
    modifiers(&SeatToken, &CommonErrors)
)]
pub struct ApiDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorCode;
    use serde_json::Value;

    fn doc() -> Value {
        serde_json::to_value(super::document()).unwrap()
    }

    fn names(v: &Value) -> Vec<String> {
        let mut names: Vec<String> = v["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("an enum: {v}"))
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_error_codes_are_the_servers_own_and_each_status_is_listed() {
        let doc = doc();
        let schemas = &doc["components"]["schemas"];
        let mut codes: Vec<String> = ErrorCode::ALL.iter().map(|c| c.name()).collect();
        codes.sort();
        assert_eq!(names(&schemas["ErrorCode"]), codes);
        assert_eq!(
            schemas["ErrorBody"]["properties"]["error"]["$ref"],
            "#/components/schemas/ErrorCode"
        );
        let listed: Vec<String> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .flat_map(|op| op["responses"].as_object().unwrap().keys().cloned())
            .collect();
        for code in ErrorCode::ALL {
            let status = crate::error::status(code).as_u16().to_string();
            assert!(
                listed.contains(&status),
                "{code:?} ({status}) is listed nowhere"
            );
        }
    }

    #[test]
    fn bots_variants_and_seats_are_bounded_as_the_server_checks_them() {
        let doc = doc();
        let schemas = &doc["components"]["schemas"];
        let mut bots: Vec<String> = sagani_ai::BOT_NAMES.iter().map(|b| b.to_string()).collect();
        bots.sort();
        assert_eq!(names(&schemas["BotName"]), bots);
        let mut variants: Vec<String> = [
            sagani_core::Variant::Standard,
            sagani_core::Variant::Solo,
            sagani_core::Variant::SoloAll,
        ]
        .iter()
        .map(|v| v.name().to_string())
        .collect();
        variants.sort();
        assert_eq!(names(&schemas["VariantName"]), variants);
        let seat = &schemas["JoinRequest"]["properties"]["seat"];
        assert_eq!(
            (seat["minimum"].as_u64(), seat["maximum"].as_u64()),
            (Some(0), Some(3))
        );
    }

    /// The refusals' details are the server's own, and the name and password rules are the
    /// ones `names` and `accounts` check (and the page's `web/names.js` checks before sending).
    #[test]
    fn refusal_details_and_the_name_rule_are_the_servers_own() {
        use sagani_protocol::error::{RefusalDetail, Unseen, NAME_MAX, NAME_MIN};
        let doc = doc();
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["ErrorBody"]["properties"]["detail"]["oneOf"][1]["$ref"],
            "#/components/schemas/RefusalDetail",
            "{}",
            schemas["ErrorBody"]["properties"]["detail"]
        );
        let mut listed: Vec<String> = schemas["RefusalDetail"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| names(&v["properties"]["kind"]).concat())
            .collect();
        listed.sort();
        let mut kinds: Vec<String> = RefusalDetail::examples().iter().map(|d| d.kind()).collect();
        kinds.sort();
        assert_eq!(
            listed, kinds,
            "every detail has an example, and the document lists it"
        );
        let mut unseen: Vec<String> = Unseen::ALL.iter().map(|u| u.name()).collect();
        unseen.sort();
        assert_eq!(names(&schemas["Unseen"]), unseen);
        let name = &schemas["Credentials"]["properties"]["name"];
        assert_eq!(
            (name["minLength"].as_u64(), name["maxLength"].as_u64()),
            (Some(NAME_MIN as u64), Some(NAME_MAX as u64))
        );
        let pattern = name["pattern"].as_str().unwrap();
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/names.js"),
        )
        .unwrap();
        assert!(
            page.contains(&format!("/{pattern}/u")),
            "web/names.js checks names with {pattern}"
        );
        for (n, field) in [(NAME_MIN, "NAME_MIN"), (NAME_MAX, "NAME_MAX")] {
            assert!(
                page.contains(&format!("{field} = {n};")),
                "web/names.js has {field} = {n}"
            );
        }
    }

    /// Every `$ref` names a schema the document holds (a type named only in a route's
    /// parameters is not added by itself).
    #[test]
    fn every_reference_resolves() {
        fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
            match v {
                Value::Object(fields) => {
                    if let Some(Value::String(r)) = fields.get("$ref") {
                        out.push(r);
                    }
                    fields.values().for_each(|f| refs(f, out));
                }
                Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
                _ => {}
            }
        }
        let doc = doc();
        let mut found = Vec::new();
        refs(&doc, &mut found);
        assert!(found.len() > 20);
        for r in found {
            let name = r.trim_start_matches("#/components/schemas/");
            assert!(
                doc["components"]["schemas"].get(name).is_some(),
                "{r} names no schema"
            );
        }
    }

    #[test]
    fn the_chat_phrases_are_the_servers_own() {
        let doc = doc();
        let mut phrases: Vec<String> = crate::app::chat::PHRASES
            .iter()
            .map(|p| p.to_string())
            .collect();
        phrases.sort();
        assert_eq!(names(&doc["components"]["schemas"]["PhraseName"]), phrases);
    }

    #[test]
    fn the_websocket_route_says_it_is_one() {
        let doc = doc();
        let ws = &doc["paths"]["/api/games/{id}/ws"]["get"];
        assert!(ws["responses"]["101"].is_object());
        assert!(ws["responses"]["426"].is_object());
        let headers: Vec<&str> = ws["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["in"] == "header")
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(headers.contains(&"Upgrade") && headers.contains(&"Sec-WebSocket-Key"));
    }
}
