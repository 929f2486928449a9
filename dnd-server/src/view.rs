//! The View: everything a seat may see of a campaign, as one JSON object (see `API.md`), built
//! from the store and `dnd-table`'s data. A monster's hit points, a DC not yet rolled against
//! and the game master's notes are not in it.

use dnd_engine::gm::SuggestedAction;
use dnd_engine::state::Mode;
use dnd_engine::store::CampaignId;
use dnd_table::combat::CombatView;
use dnd_table::map::MapView;
use dnd_table::sheet::Sheet;
use dnd_table::story::{LogLine, RollLine, last_turns, log_lines, roll_lines};
use serde::Serialize;

use crate::Server;
use crate::error::ApiError;
use crate::seats::{Seat, Table};

/// How many of the last turns the View's story and rolls hold: a long campaign's View stays
/// one read of the store and a bounded answer.
pub const VIEW_TURNS: usize = 200;

/// What a seat sees.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The campaign's id.
    pub id: String,
    /// Turns played (in effect).
    pub turn: u64,
    /// The adventure's id.
    pub adventure: String,
    /// The adventure's title.
    pub title: String,
    /// "exploration", "combat" or "social".
    pub mode: Mode,
    /// The caller's seat.
    pub seat: Option<SeatView>,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// The heroes' sheets, in the party's order.
    pub heroes: Vec<Sheet>,
    /// The rooms found.
    pub map: MapView,
    /// The fight, when there is one.
    pub combat: Option<CombatView>,
    /// The story so far (its last [`VIEW_TURNS`] turns).
    pub log: Vec<LogLine>,
    /// Every roll of those turns.
    pub rolls: Vec<RollLine>,
    /// The last turn's suggested actions.
    pub suggestions: Vec<Suggestion>,
    /// The hero whose turn it is in a fight, by name; none outside one (or on a monster's).
    pub whose_turn: Option<String>,
}

/// A seat as the View shows it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    /// The hero's name.
    pub hero: String,
    /// The hero's id.
    pub hero_id: String,
    /// Played by an AI companion.
    pub ai: bool,
}

impl From<&Seat> for SeatView {
    fn from(seat: &Seat) -> SeatView {
        SeatView {
            hero: seat.hero.clone(),
            hero_id: seat.hero_id.clone(),
            ai: seat.is_ai(),
        }
    }
}

/// A suggested action, to pick by `index` (from 1), by the seat of the hero it is for.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    /// The hero it was suggested for (who played the last turn); only their seat may take it.
    #[serde(rename = "for")]
    pub for_hero: String,
    /// Its number, from 1: `POST .../actions {"index": n}`.
    pub index: usize,
    /// Its words and odds ("Attack the wolf (55%)").
    pub label: String,
    /// Its words.
    pub description: String,
    /// The chance of success, when the engine can tell ("55%").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub odds: Option<String>,
    /// The dice it rolls, when the engine can tell ("1d20+5").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// Whether the engine rolls it before the game master narrates.
    pub rolled: bool,
}

impl View {
    /// The same View as `seat` sees it.
    pub fn for_seat(mut self, seat: &Seat) -> View {
        self.seat = Some(SeatView::from(seat));
        self
    }
}

/// The suggestions as the View lists them.
pub fn suggestions(for_hero: &str, actions: &[SuggestedAction]) -> Vec<Suggestion> {
    actions
        .iter()
        .enumerate()
        .map(|(i, a)| Suggestion {
            for_hero: for_hero.to_owned(),
            index: i + 1,
            label: a.label(),
            description: a.description.clone(),
            odds: a.chance.map(|p| format!("{:.0}%", p * 100.0)),
            dice: a.dice.clone(),
            rolled: a.mechanic.is_some(),
        })
        .collect()
}

/// The View of campaign `id` for `seat` (none: the part every seat shares).
pub async fn build(
    server: &Server,
    id: &str,
    table: &Table,
    seat: Option<&Seat>,
) -> Result<View, ApiError> {
    let campaign = CampaignId(id.to_owned());
    let state = server
        .store
        .load(&campaign)
        .await
        .map_err(|e| ApiError::internal(format!("cannot read the campaign: {e}")))?;
    let turns = last_turns(server.store.as_ref(), &campaign, state.turn, VIEW_TURNS)
        .await
        .map_err(|e| ApiError::internal(format!("cannot read the story: {e}")))?;
    let combat = CombatView::of(&state);
    let whose_turn = combat
        .as_ref()
        .and_then(|c| c.hero_to_act())
        .map(|slot| slot.name.clone());
    let (for_hero, actions) = server
        .live_of(id)
        .suggestions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Ok(View {
        id: id.to_owned(),
        turn: state.turn,
        adventure: table.adventure.clone(),
        title: state.title.clone(),
        mode: state.mode,
        seat: seat.map(SeatView::from),
        seats: table.seats.iter().map(SeatView::from).collect(),
        heroes: state
            .characters
            .iter()
            .map(|c| Sheet::of(&state, c))
            .collect(),
        map: MapView::of(&state),
        log: log_lines(&turns),
        rolls: roll_lines(&turns, &state),
        combat,
        suggestions: suggestions(&for_hero, &actions),
        whose_turn,
    })
}
