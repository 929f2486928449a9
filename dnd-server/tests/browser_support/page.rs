//! What the page shows, read through its stable hooks: `#table`'s `data-turn`, `data-busy`,
//! `data-whose`, `data-seat` and `data-fight`, and the `data-testid`s of the sheets, rolls,
//! map and suggestions.

use fantoccini::Client;
use serde_json::json;

use super::{count, eval, text_of, wait_until};

/// Waits until the page shows turn `turn` with no turn running.
pub async fn wait_for_turn(client: &Client, turn: u64) {
    wait_until(
        client,
        &format!("turn {turn}"),
        &format!(
            "const t = document.getElementById('table');
             return t.dataset.turn === '{turn}' && t.dataset.busy !== 'true';"
        ),
    )
    .await;
}

pub async fn shown_turn(client: &Client) -> u64 {
    let turn = eval(
        client,
        "return document.getElementById('table').dataset.turn",
    )
    .await;
    turn.as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("the page shows no turn: {turn}"))
}

pub async fn whose(client: &Client) -> String {
    let whose = eval(
        client,
        "return document.getElementById('table').dataset.whose",
    )
    .await;
    whose.as_str().unwrap_or_default().to_owned()
}

pub async fn seat(client: &Client) -> String {
    let seat = eval(
        client,
        "return document.getElementById('table').dataset.seat",
    )
    .await;
    let seat = seat.as_str().unwrap_or_default().to_owned();
    assert!(
        !seat.is_empty(),
        "the page does not say which hero this seat plays"
    );
    seat
}

pub async fn in_fight(client: &Client) -> bool {
    eval(
        client,
        "return document.getElementById('table').dataset.fight === 'true'",
    )
    .await
        == json!(true)
}

/// Every hero's HP as the sheet shows it.
pub async fn hp(client: &Client) -> Vec<String> {
    let hp = eval(
        client,
        "return [...document.querySelectorAll('[data-testid=hp]')].map(e => e.dataset.hero + ' ' + e.textContent)",
    )
    .await;
    serde_json::from_value(hp).expect("a list of HP texts")
}

/// The last game master's narration in the story.
pub async fn last_narration(client: &Client) -> String {
    text_of(client, ".entry.gm:last-child .body > p").await
}

/// Enough of a narration to find it again.
pub fn prefix(text: &str) -> &str {
    let end = text.char_indices().nth(60).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// What a reload must keep: the turn, the sheets, the rolls, the map and the suggestions.
#[derive(Debug, PartialEq)]
pub struct Shown {
    /// The turn shown.
    pub turn: u64,
    /// Every hero's HP.
    pub hp: Vec<String>,
    /// How many rolls the mechanics panel lists.
    pub rolls: u64,
    /// How many rooms the map draws.
    pub rooms: u64,
    /// The suggestions' text.
    pub suggestions: String,
}

pub async fn snapshot(client: &Client) -> Shown {
    Shown {
        turn: shown_turn(client).await,
        hp: hp(client).await,
        rolls: count(client, "[data-testid=roll]").await,
        rooms: count(client, "[data-testid=map-room]").await,
        suggestions: text_of(client, "[data-testid=suggestions]").await,
    }
}
