//! Chat lines and their rates.

use super::*;

/// Chat lines are numbered, kept and capped.
pub async fn chat((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    let line = |seat: u8, line: ChatText| ChatWrite {
        game: "g1".into(),
        seat,
        at_ms: 1_000 + seat as i64,
        name: Some(format!("seat {seat}")),
        line,
        max_lines: 3,
        rates: Vec::new(),
    };
    let rev = a.rev("g1").await.unwrap();
    let mut racers = Vec::new();
    for seat in 0..2u8 {
        let s = if seat == 0 { a.clone() } else { b.clone() };
        let w = line(seat, ChatText::Text("<b>hi</b> & bye".into()));
        racers.push(tokio::spawn(async move { s.post_chat(&w).await }));
    }
    let mut numbers = Vec::new();
    for r in racers {
        numbers.push(r.await.unwrap().unwrap().0);
    }
    numbers.sort();
    assert_eq!(numbers, [0, 1], "each line its own number");
    assert_eq!(a.rev("g1").await.unwrap(), rev + 2);
    let (n, _) = b
        .post_chat(&line(0, ChatText::Phrase("thanks".into())))
        .await
        .unwrap();
    assert_eq!(n, 2);
    assert_eq!(
        conflict(
            a.post_chat(&line(1, ChatText::Text("one more".into())))
                .await
        ),
        Conflict::Changed,
        "the chat is full"
    );
    let lines = b.chat("g1", 0, 10).await.unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].line, ChatText::Text("<b>hi</b> & bye".into()));
    assert_eq!(lines[2].line, ChatText::Phrase("thanks".into()));
    assert_eq!(lines[2].name.as_deref(), Some("seat 0"));
    assert_eq!(b.chat("g1", 2, 10).await.unwrap().len(), 1);
    assert_eq!(b.chat("g1", 0, 1).await.unwrap().len(), 1);
    assert_eq!(a.game("g1").await.unwrap().chats, 3);
    assert_eq!(a.since("g1", 0).await.unwrap().chats, 3);
    assert_eq!(
        a.post_chat(&ChatWrite {
            game: "nope".into(),
            ..line(0, ChatText::Text("x".into()))
        })
        .await,
        Err(StoreError::NotFound)
    );
}

/// A seat's chat lines are counted in the store: two servers writing for one seat at once get
/// no more lines stored than the rate allows, and a refused line changes nothing.
pub async fn chat_rates((a, b): Handles) {
    create(&*a, &game("g1", vec![human("i0"), human("i1")])).await;
    let rates = vec![
        ChatRate {
            lines: 3,
            window_ms: 10_000,
        },
        ChatRate {
            lines: 4,
            window_ms: 60_000,
        },
    ];
    let line = |seat: u8, at_ms: i64| ChatWrite {
        game: "g1".into(),
        seat,
        at_ms,
        name: None,
        line: ChatText::Phrase("thanks".into()),
        max_lines: 100,
        rates: rates.clone(),
    };
    let mut racers = Vec::new();
    for i in 0..6 {
        let s = if i % 2 == 0 { a.clone() } else { b.clone() };
        let w = line(0, 1_000);
        racers.push(tokio::spawn(async move { s.post_chat(&w).await }));
    }
    let mut stored = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(_) => stored += 1,
            Err(e) => assert_eq!(
                e,
                StoreError::Conflict(Conflict::TooFast { wait_ms: 10_000 })
            ),
        }
    }
    assert_eq!(stored, 3, "three lines in ten seconds, across both handles");
    let rev = a.rev("g1").await.unwrap();
    assert_eq!(
        a.game("g1").await.unwrap().chats,
        3,
        "refused lines are not counted"
    );
    // The other seat has its own count.
    b.post_chat(&line(1, 1_000)).await.unwrap();
    // Ten seconds on, one more (the minute's fourth); then the minute is full until the first
    // lines are a minute old.
    assert_eq!(
        a.post_chat(&line(0, 10_999)).await,
        Err(StoreError::Conflict(Conflict::TooFast { wait_ms: 1 }))
    );
    a.post_chat(&line(0, 11_000)).await.unwrap();
    assert_eq!(
        b.post_chat(&line(0, 30_000)).await,
        Err(StoreError::Conflict(Conflict::TooFast { wait_ms: 31_000 }))
    );
    b.post_chat(&line(0, 61_000)).await.unwrap();
    assert_eq!(a.rev("g1").await.unwrap(), rev + 3);
}
