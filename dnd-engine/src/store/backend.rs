//! Helpers for [`GameStore`](super::GameStore) implementations on a database: the rules every
//! such store keeps the same way, over plain data, so that the SQLite and PostgreSQL stores
//! (and any later one) cannot drift apart. Nothing here knows about SQL or a driver: a store
//! runs its queries and hands the columns it read to these functions.
//!
//! - a campaign id ↔ its row key ([`campaign_key`], [`campaign_id`]);
//! - stored JSON in and out, as typed [`StoreError`]s ([`encode`], [`decode`], [`decode_state`]);
//! - numbers read back that do not fit ([`out_of_range`], [`turn_number`], [`count`]);
//! - a [`Page`] or a count as SQL's `LIMIT`/`OFFSET` ([`limit_offset`], [`limit`]);
//! - what a store builds from the rows it read: the campaign list ([`campaign_list`]), a history
//!   entry ([`history_entry`]), a page of the story log ([`story_page`]), and undo's checks
//!   ([`check_undo`], [`check_marked`]).
//!
//! `place` is always the store's description of its database (a path, or a URL without its
//! password): every error names it, so an operator with several stores knows which one failed.
//!
//! ```
//! use dnd_engine::store::backend::{campaign_id, campaign_key};
//! use dnd_engine::store::{CampaignId, StoreError};
//!
//! assert_eq!(campaign_key(&campaign_id(42)).unwrap(), 42);
//! // "042" would name the same row as "42": it names no campaign instead.
//! let not_found = campaign_key(&CampaignId("042".into()));
//! assert!(matches!(not_found, Err(StoreError::NotFound(_))));
//! ```

use std::fmt::Display;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{CampaignId, CampaignInfo, HistoryEntry, Page, StoreError};
use crate::state::{GameState, StoryEvent};

/// The migration both database stores run to put the saves written before the save format
/// existed into its envelope ([`format`](super::format)): every stored JSON value wrapped as
/// format 1. The text is wrapped as it is, never parsed again (SQLite's JSON functions would
/// turn a dice seed above 2^63 into a float); plain SQL that SQLite and PostgreSQL both run.
pub const WRAP_SAVES_IN_FORMAT_1: &str = r#"
UPDATE campaigns SET
    initial_state = '{"format":1,"data":' || initial_state || '}',
    current_state = '{"format":1,"data":' || current_state || '}';
UPDATE turns SET
    record      = '{"format":1,"data":' || record || '}',
    state_after = '{"format":1,"data":' || state_after || '}';
"#;

/// The row key of a campaign id: its decimal integer, written the way [`campaign_id`] writes it
/// (positive, no sign, no leading zeros), so that every id names at most one campaign, as in
/// `MemoryStore`. Anything else names no campaign: [`StoreError::NotFound`].
pub fn campaign_key(id: &CampaignId) -> Result<i64, StoreError> {
    match id.0.parse::<i64>() {
        Ok(n) if n > 0 && n.to_string() == id.0 => Ok(n),
        _ => Err(StoreError::NotFound(id.clone())),
    }
}

/// The campaign id of a row key the database chose.
pub fn campaign_id(key: i64) -> CampaignId {
    CampaignId(key.to_string())
}

/// Writes a value as JSON to store, in the save format's envelope ([`super::format`]); `what`
/// names it in the error ("the new state").
pub fn encode<T: Serialize>(
    place: &str,
    what: impl Display,
    value: &T,
) -> Result<String, StoreError> {
    super::format::to_saved_json(value)
        .map_err(|error| StoreError::Backend(format!("{place}: cannot encode {what}: {error}")))
}

/// Reads back stored JSON written by [`encode`] in any save format this build reads. A save
/// with no format or one this build does not read is [`StoreError::SaveFormat`]; any other
/// failure means the stored data is damaged: [`StoreError::Corrupt`]. Both name `what` ("turn 3
/// of campaign 1").
pub fn decode<T: DeserializeOwned>(
    place: &str,
    what: impl Display,
    json: &str,
) -> Result<T, StoreError> {
    use super::format::SaveFormatError;
    super::format::from_saved_json(json).map_err(|error| match error {
        SaveFormatError::Malformed(error) => {
            StoreError::Corrupt(format!("{place}: {what} does not read back: {error}"))
        }
        error => StoreError::SaveFormat {
            what: format!("{place}: {what}"),
            error,
        },
    })
}

/// Reads back a campaign's current state.
pub fn decode_state(place: &str, id: &CampaignId, json: &str) -> Result<GameState, StoreError> {
    decode(place, format_args!("the state of campaign {id}"), json)
}

/// A number read from the database that does not fit where it goes (a negative count, a table
/// changed by hand): [`StoreError::Corrupt`].
pub fn out_of_range(place: &str, what: &str, value: i64) -> StoreError {
    StoreError::Corrupt(format!("{place}: {what} {value} is out of range"))
}

/// A stored turn number (or head, 0 for none) as `u64`.
pub fn turn_number(place: &str, turn: i64) -> Result<u64, StoreError> {
    u64::try_from(turn).map_err(|_| out_of_range(place, "turn number", turn))
}

/// A stored count (`count(*)`) as `u64`.
pub fn count(place: &str, value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| out_of_range(place, "count", value))
}

/// A count as SQL's `LIMIT`: a `usize` past `i64::MAX` means "all".
pub fn limit(count: usize) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// A page as SQL's `LIMIT` and `OFFSET` (a `usize` past `i64::MAX` means "all", "past the end").
pub fn limit_offset(page: Page) -> (i64, i64) {
    (limit(page.limit), limit(page.offset))
}

/// The campaign list from rows of `(key, name, turns in effect)`, ordered by id as
/// `MemoryStore` orders them: by [`CampaignId`], a string ("10" before "9").
pub fn campaign_list(
    place: &str,
    rows: impl IntoIterator<Item = (i64, String, i64)>,
) -> Result<Vec<CampaignInfo>, StoreError> {
    let mut list = rows
        .into_iter()
        .map(|(key, name, turns)| {
            Ok(CampaignInfo {
                id: campaign_id(key),
                name,
                turns: count(place, turns)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    list.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(list)
}

/// A history entry from a stored turn: its number, whether it was undone, and its record's JSON.
pub fn history_entry(
    place: &str,
    id: &CampaignId,
    turn: i64,
    undone: bool,
    json: &str,
) -> Result<HistoryEntry, StoreError> {
    Ok(HistoryEntry {
        turn: turn_number(place, turn)?,
        undone,
        record: Arc::new(decode(
            place,
            format_args!("turn {turn} of campaign {id}"),
            json,
        )?),
    })
}

/// A page of the story log from the campaign's turns in effect, in order, as `(turn, record
/// JSON)`. Only each record's events are parsed, and no record past the page's end.
pub fn story_page(
    place: &str,
    id: &CampaignId,
    turns: impl IntoIterator<Item = (i64, String)>,
    page: Page,
) -> Result<Vec<StoryEvent>, StoreError> {
    /// The one field of a `TurnRecord` the story log needs; the rest is skipped unparsed.
    #[derive(Deserialize)]
    struct Events {
        #[serde(default)]
        events: Vec<StoryEvent>,
    }
    let end = page.offset.saturating_add(page.limit);
    let mut events = Vec::new();
    for (turn, json) in turns {
        if events.len() >= end {
            break;
        }
        let record: Events = decode(place, format_args!("turn {turn} of campaign {id}"), &json)?;
        events.extend(record.events);
    }
    Ok(events
        .into_iter()
        .skip(page.offset)
        .take(page.limit)
        .collect())
}

/// Refuses to undo more turns than the `available` ones in effect:
/// [`StoreError::NothingToUndo`].
pub fn check_undo(place: &str, turns: u32, available: i64) -> Result<(), StoreError> {
    if i64::from(turns) > available {
        return Err(StoreError::NothingToUndo {
            asked: turns,
            available: count(place, available)?,
        });
    }
    Ok(())
}

/// Checks that undoing `turns` turns marked exactly that many rows as undone; any other number
/// means the stored turns are not what the store wrote ([`StoreError::Corrupt`]), and the
/// caller must roll back.
pub fn check_marked(
    place: &str,
    id: &CampaignId,
    turns: u32,
    marked: u64,
) -> Result<(), StoreError> {
    if marked != u64::from(turns) {
        return Err(StoreError::Corrupt(format!(
            "{place}: undoing {turns} turns of campaign {id} would mark {marked}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_id_names_one_row_at_most() {
        for key in [1, 9, 10, i64::MAX] {
            assert_eq!(campaign_key(&campaign_id(key)).unwrap(), key);
        }
        for other in [
            "0",
            "-1",
            "+1",
            "01",
            " 1",
            "1.0",
            "x",
            "",
            "9223372036854775808",
        ] {
            assert!(
                matches!(
                    campaign_key(&CampaignId(other.into())),
                    Err(StoreError::NotFound(_))
                ),
                "{other:?} names a row"
            );
        }
    }

    #[test]
    fn numbers_that_do_not_fit_are_corrupt_data_and_pages_saturate() {
        assert_eq!(turn_number("db", 3).unwrap(), 3);
        let error = turn_number("db", -1).unwrap_err();
        assert!(
            matches!(&error, StoreError::Corrupt(m) if m == "db: turn number -1 is out of range")
        );
        assert!(matches!(count("db", -2), Err(StoreError::Corrupt(_))));
        assert_eq!(
            limit_offset(Page {
                offset: usize::MAX,
                limit: 5
            }),
            (5, i64::MAX)
        );
    }

    #[test]
    fn damaged_json_is_corrupt_and_names_what_and_where() {
        let error = decode::<GameState>("db", "the state of campaign 7", "{").unwrap_err();
        assert!(
            matches!(&error, StoreError::Corrupt(m) if m.starts_with("db: the state of campaign 7 does not read back")),
            "{error}"
        );
    }

    #[test]
    fn the_story_page_skips_and_stops_at_the_page() {
        let id = CampaignId("1".into());
        let turn = |text: &str| {
            let record = crate::store::TurnRecord {
                events: vec![StoryEvent {
                    turn: 1,
                    kind: crate::state::StoryKind::Other,
                    text: text.to_owned(),
                }],
                ..Default::default()
            };
            encode("db", "a turn", &record).unwrap()
        };
        // The third record is damaged, but the page ends before it is read.
        let rows = vec![(1, turn("a")), (2, turn("b")), (3, "{".to_owned())];
        let page = story_page(
            "db",
            &id,
            rows.clone(),
            Page {
                offset: 1,
                limit: 1,
            },
        );
        let events = page.expect("the damaged record is past the page");
        assert_eq!(
            events.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
            ["b"]
        );
        assert!(story_page("db", &id, rows, Page::first(3)).is_err());
    }

    #[test]
    fn undo_refuses_more_than_is_in_effect() {
        let error = check_undo("db", 3, 2).unwrap_err();
        assert!(matches!(
            error,
            StoreError::NothingToUndo {
                asked: 3,
                available: 2
            }
        ));
        assert!(check_undo("db", 2, 2).is_ok());
        let id = CampaignId("1".into());
        assert!(matches!(
            check_marked("db", &id, 2, 3),
            Err(StoreError::Corrupt(_))
        ));
    }
}
