//! The tutorial option of `POST /api/games`: a solo game dealt the script's deck.

mod common;

use common::{open_limits, start};
use serde_json::json;

#[tokio::test]
async fn a_tutorial_game_deals_the_tutorial_deck() {
    let server = start(open_limits()).await;
    let a = server
        .post(
            "/api/games",
            None,
            json!({"seats": [{"kind": "human"}], "tutorial": true}),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    let game = a.body["game"].as_str().unwrap().to_string();
    let token = server
        .join(&game, a.body["invites"][0]["code"].as_str().unwrap())
        .await;
    let s = server.state(&game, Some(&token)).await;
    let deck = sagani_server::tutorial::deck();
    assert_eq!(s["view"]["variant"], "solo");
    assert_eq!(
        s["view"]["revealed"], deck[0],
        "the script's first tile is revealed"
    );
    assert_eq!(s["view"]["draw_pile"]["count"], 71);

    // Every game of the tutorial is dealt the same deck: the second tile comes next.
    let sagani_server::tutorial::Step::Place {
        tile, x, y, rot, ..
    } = sagani_server::tutorial::script()
        .steps
        .iter()
        .find(|s| matches!(s, sagani_server::tutorial::Step::Place { .. }))
        .unwrap()
        .clone()
    else {
        unreachable!()
    };
    let mv = json!({"action": "place", "tile": tile, "x": x, "y": y, "rot": rot});
    let a = server.play(&game, &token, 0, &mv).await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["state"]["view"]["revealed"], deck[1]);

    // Explicitly solo is fine too.
    let a = server
        .post(
            "/api/games",
            None,
            json!({"seats": [{"kind": "human"}], "variant": "solo", "tutorial": true}),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
}

#[tokio::test]
async fn a_tutorial_is_only_for_one_human_seat_in_the_solo_variant() {
    let server = start(open_limits()).await;
    for body in [
        json!({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "tutorial": true}),
        json!({"seats": [{"kind": "human"}, {"kind": "human"}], "tutorial": true}),
        json!({"seats": [{"kind": "human"}], "variant": "solo-all", "tutorial": true}),
    ] {
        let a = server.post("/api/games", None, body.clone()).await;
        assert_eq!(a.status, 400, "{body}: {:?}", a.body);
        assert_eq!(a.body["error"], "bad_request");
        assert!(
            a.body["message"].as_str().unwrap().contains("tutorial"),
            "{:?}",
            a.body
        );
    }
    // Without the option, nothing changes.
    let a = server
        .post(
            "/api/games",
            None,
            json!({"seats": [{"kind": "human"}], "tutorial": false}),
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
}
