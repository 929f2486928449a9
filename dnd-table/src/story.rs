//! The story so far, as data: what was said and answered each turn, the story log's lines, and
//! every roll of the turns in effect, from the store's history.

use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, CampaignInfo, GameStore, HistoryEntry, Page, StoreError};
use serde::Serialize;

use crate::panel::roll_line;

/// One line of the story: who spoke, in which turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// The turn (from 1).
    pub turn: u64,
    /// A hero's name, "player", or "gm" for the game master.
    pub speaker: String,
    /// What was said.
    pub text: String,
}

/// One roll of the story, as the mechanics panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RollLine {
    /// The turn it was rolled in (from 1).
    pub turn: u64,
    /// What was rolled and what came of it ("Kraven Perception check: 14 vs DC 12 ✓").
    pub what: String,
    /// The dice ("d20 12 +2").
    pub dice: String,
    /// The total.
    pub total: i64,
}

/// The last `count` turns in effect, oldest first, numbered as the state counts them (the last
/// is `state_turn`, the state's turn count): one read of the store, however long the campaign.
pub async fn last_turns(
    store: &dyn GameStore,
    campaign: &CampaignId,
    state_turn: u64,
    count: usize,
) -> Result<Vec<(u64, HistoryEntry)>, StoreError> {
    let turns = store.recent_turns(campaign, count).await?;
    let first = (state_turn + 1).saturating_sub(turns.len() as u64);
    Ok(turns
        .into_iter()
        .enumerate()
        .map(|(i, h)| (first + i as u64, h))
        .collect())
}

/// Every line said in the turns in effect (the player's words and the game master's answer).
pub fn log_lines(turns: &[(u64, HistoryEntry)]) -> Vec<LogLine> {
    turns
        .iter()
        .flat_map(|(turn, h)| {
            h.record.player_messages.iter().map(move |line| LogLine {
                turn: *turn,
                speaker: line.speaker.clone(),
                text: line.text.clone(),
            })
        })
        .collect()
}

/// Every roll of the turns in effect (`state` gives names to ids).
pub fn roll_lines(turns: &[(u64, HistoryEntry)], state: &GameState) -> Vec<RollLine> {
    turns
        .iter()
        .flat_map(|(turn, h)| {
            h.record.rolls.iter().map(move |roll| {
                let line = roll_line(roll, state);
                RollLine {
                    turn: *turn,
                    what: line.text,
                    dice: line.detail,
                    total: roll.total,
                }
            })
        })
        .collect()
}

/// The last `last` entries of a campaign's story: its story log's events ("turn 3: ..."), or,
/// while the log is empty (the game master logs events at milestones: loot, a foe defeated),
/// each turn's words and the first sentence of its answer.
pub async fn story_lines(
    store: &dyn GameStore,
    campaign: &CampaignId,
    last: usize,
) -> Result<Vec<String>, String> {
    let all = Page::first(usize::MAX / 2);
    let events = store
        .story_log(campaign, all)
        .await
        .map_err(|e| e.to_string())?;
    if !events.is_empty() {
        let skip = events.len().saturating_sub(last);
        return Ok(events
            .iter()
            .skip(skip)
            .map(|e| format!("turn {}: {}", e.turn, e.text))
            .collect());
    }
    let turns = store
        .recent_turns(campaign, last)
        .await
        .map_err(|e| e.to_string())?;
    Ok(turns
        .iter()
        .map(|t| {
            let answer = t
                .record
                .player_messages
                .iter()
                .rev()
                .find(|line| line.speaker == "gm")
                .map(|line| first_sentence(&line.text))
                .unwrap_or_default();
            format!("turn {}: \"{}\" — {answer}", t.turn, t.record.input)
        })
        .collect())
}

/// The first sentence of a text (at most about 160 characters).
fn first_sentence(text: &str) -> String {
    let text = one_line(text);
    let end = text
        .char_indices()
        .find(|&(i, c)| i >= 20 && matches!(c, '.' | '!' | '?'))
        .map(|(i, c)| i + c.len_utf8());
    match end {
        Some(end) if end <= 200 => text[..end].to_owned(),
        _ if text.chars().count() <= 160 => text,
        _ => format!("{}…", text.chars().take(160).collect::<String>()),
    }
}

/// "kraven-1 (12 turns), run1 (5 turns)".
pub fn list(campaigns: &[CampaignInfo]) -> String {
    if campaigns.is_empty() {
        return "none yet".to_owned();
    }
    campaigns
        .iter()
        .map(|c| format!("{} ({} turns)", c.name, c.turns))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text on one line: newlines and runs of spaces become one space.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use dnd_engine::adventure::Adventure;
    use dnd_engine::store::{MemoryStore, TurnRecord};

    use super::*;

    fn said(input: &str) -> TurnRecord {
        TurnRecord {
            input: input.into(),
            ..TurnRecord::default()
        }
    }

    #[tokio::test]
    async fn the_last_turns_are_numbered_as_the_state_counts_them_after_an_undo() {
        let store = MemoryStore::new();
        let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
        let id = store.create_campaign("c", &state).await.unwrap();
        for input in ["one", "two", "three"] {
            store.commit_turn(&id, said(input)).await.unwrap();
        }
        store.undo(&id, 1).await.unwrap();
        store.commit_turn(&id, said("three again")).await.unwrap();
        let turn = store.load(&id).await.unwrap().turn;
        assert_eq!(turn, 3);
        let last = last_turns(&store, &id, turn, 2).await.unwrap();
        let read: Vec<(u64, &str)> = last
            .iter()
            .map(|(n, h)| (*n, h.record.input.as_str()))
            .collect();
        assert_eq!(read, [(2, "two"), (3, "three again")]);
    }
}
