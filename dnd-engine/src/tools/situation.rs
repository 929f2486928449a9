//! Which tools the game master offers now: a pure function of the state, chosen in code.
//!
//! Sending all 49 tools' specifications on every call costs about 39 KB of JSON (~9,700
//! tokens, `tools/tests/situations.rs`); most of them cannot do anything in the moment
//! (`next_turn` outside a fight, `cast_spell` for a party with no spells). [`available_tools`]
//! names the tools that can matter now, the mode's own first and what the room adds last (a
//! list that changes at its end keeps the provider's prompt cache warm: `by_stability`), and
//! the game master sends only those.
//!
//! **The gate** ([`gate`]): a call runs only if its tool was in the list sent with that call;
//! any other is refused with that list, changing nothing. A tool whose moment has not come
//! ([`Tools::possible`]: `next_turn` with no fight, `cast_spell` with no caster, `talk_to` with
//! no one here) is refused as unavailable ([`Gate::Barred`]), however often it is called. A
//! tool that is possible but was left out for room (`dash` in a crowded fight, `search` on a
//! busy green) is refused too, but the refusal says it is now added ([`Gate::Added`]): the game
//! master sends it with the next rounds of the turn ([`tools_with`], in the place of the last
//! extra), so the model only ever succeeds with a specification it was shown, and every rule
//! stays reachable at the cost of one round.
//!
//! The list is made of two parts:
//!
//! - **needed**: what the situation calls for, always offered when its condition holds;
//! - **room**: useful extras (read-only lookups, rarer actions) added in a fixed priority order
//!   only while the list holds fewer than [`CROWDED`] tools; called when left out, one is
//!   refused and added to the next round's list ([`Gate::Added`]). The read-only lookups
//!   (`get_character_stats`, `check_inventory`, `get_game_flags`, `get_monster_stats`,
//!   `rules_lookup`) answer what the state block already shows, so they are the first left out
//!   of a crowded situation.
//!
//! | situation | needed | room, in order |
//! |---|---|---|
//! | every one | `roll_dice` (what no other tool rolls), `roll_skill_check`, `use_item` | |
//! | exploration (no fight) | `get_room_details`, `move_to`, `set_game_flag`, `log_story_event`; `update_character` (rests) with no NPC here; `add_inventory` with loot here | `update_character` with an NPC here, `apply_hazard_damage` (falls, thin ice), `prepare_spells` (see below), `get_character_stats`, `add_inventory`, `update_inventory`, `roll_saving_throw`, `search`, `use_object`, `check_inventory`, `get_monster_stats`, `rules_lookup`, `get_game_flags`, `use_feature` |
//! | a fight | `roll_attack`, `use_feature`, `move_in_fight`, `next_turn`, `end_encounter`, `dodge`, `disengage` | `get_room_details`, `get_character_stats`, `dash`, `hide`, `help`, `search`, `ready_action`, `grapple`, `shove`, `use_object`, `roll_saving_throw`, `get_monster_stats`, `rules_lookup`, `update_character`, `update_inventory`, `apply_hazard_damage`, `set_game_flag`, `log_story_event`, `declare_reactions` |
//! | a monster in view, no fight | `start_encounter`, `roll_attack` | |
//! | an NPC here (a conversation) | `talk_to`, `social_check` | `advance_npc_goals` (after `get_character_stats`) |
//!
//! And by what is possible, in any situation: `cast_spell` only for a party with a spell it can
//! cast (a cantrip, or a spell with a slot left); `declare_reactions` only for one that knows a
//! reaction spell, in a fight or with a monster in view; `command_summon` only with a living
//! summon here; `answer_puzzle` only with a puzzle before the party; `disarm_trap` only with a known armed trap here; `attack_object`
//! only with a known breakable object here; `open_lock` only with a known locked exit here;
//! `level_up` only when a character may take a level (called otherwise, the rules refuse it
//! with the XP the next level needs); `prepare_spells` only outside a fight for
//! a preparer who has rested since preparing (or never prepared), and only while there is room;
//! `first_aid` only with a dying character; in a fight `stand_up` only with a prone one,
//! `escape_grapple` only with a grappled or restrained one, `trigger_readied` only with a readied action. A rest is taken through
//! `update_character`, offered outside fights (with an NPC here, while there is room).

use super::names as tool;
use super::registry::tool_names;
use crate::rules::Condition;
use crate::srd::Srd;
use crate::state::{EffectKind, GameState};

/// The size past which only needed tools are offered: the extras fill the list up to it.
/// Ten, not twelve (the most the issue allows): two fewer specifications on every call
/// keep a turn of the wire example under 5,000 input tokens, and a tool left out is one
/// refusal away ([`Gate::Added`]).
pub const CROWDED: usize = 10;

/// Needed tools that give their place to a tool the model asked for when no room extra is left
/// ([`tools_with`]), in this order: the story's bookkeeping, the room lookup (the state block
/// shows the room), and a fight's rarer actions. One given way and called is itself refused and
/// added, so each stays reachable.
const YIELDING: [&str; 5] = [
    tool::LOG_STORY_EVENT,
    tool::SET_GAME_FLAG,
    tool::GET_ROOM_DETAILS,
    tool::DISENGAGE,
    tool::DODGE,
];

/// The tools needed in every situation: `roll_dice` is the one way to roll what no other tool
/// covers (never left out, or a model would invent the roll).
const EVERY: [&str; 3] = [tool::ROLL_DICE, tool::ROLL_SKILL_CHECK, tool::USE_ITEM];

/// The tools a fight needs, on every call of it.
const FIGHT: [&str; 7] = [
    tool::ROLL_ATTACK,
    tool::USE_FEATURE,
    tool::MOVE_IN_FIGHT,
    tool::NEXT_TURN,
    tool::END_ENCOUNTER,
    tool::DODGE,
    tool::DISENGAGE,
];

/// The tools a walk needs (no fight), on every call of it (`update_character`, for rests,
/// only where no one else stands: with an NPC here it waits for room). The last ones give way
/// first when the list is crowded ([`YIELDING`]).
const WALK: [&str; 5] = [
    tool::MOVE_TO,
    tool::GET_ROOM_DETAILS,
    tool::SET_GAME_FLAG,
    tool::LOG_STORY_EVENT,
    tool::UPDATE_CHARACTER,
];

/// What the party is doing, the first thing that decides the tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// A fight is on.
    Fight,
    /// No fight, and an NPC is where the party is.
    Conversation,
    /// No fight and no NPC here.
    Exploration,
}

/// The situation of `state`.
pub fn situation(state: &GameState) -> Situation {
    if state.encounter.is_some() {
        Situation::Fight
    } else if npc_here(state) {
        Situation::Conversation
    } else {
        Situation::Exploration
    }
}

/// The tools of a moment: `offered` in the order sent (`by_stability`), `possible` in the
/// registry's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tools {
    /// What the game master sends with each call: what the moment needs, then extras while
    /// there is room, at most [`CROWDED`] (unless the moment needs more).
    pub offered: Vec<&'static str>,
    /// What the moment allows: every tool but those whose moment has not come (a fight's
    /// turns and actions with no fight, `start_encounter` during one, `cast_spell` for a party
    /// with no spells, `talk_to` and `social_check` with no NPC here). One of these left out of
    /// `offered` is added to the next round's list when the model asks for it ([`gate`]).
    pub possible: Vec<&'static str>,
}

/// The tools offered now, in the order sent: see the module documentation.
pub fn available_tools(state: &GameState, srd: &Srd) -> Vec<&'static str> {
    tools_now(state, srd).offered
}

/// The tools offered and possible now: see the module documentation.
pub fn tools_now(state: &GameState, srd: &Srd) -> Tools {
    tools_with(state, srd, &[])
}

/// The tools offered and possible now, with the possible ones of `asked` (tools the model
/// called this turn that were left out for room: [`Gate::Added`]) offered too. Each takes the
/// place of the last room extra, or, with none left, of a needed tool that gives way
/// (`log_story_event`, `set_game_flag`, `get_room_details`, `disengage`, `dodge`), so the list
/// stays within [`CROWDED`] (unless the moment's needs alone exceed it, or the model asked for
/// more tools than can give way); an asked tool that is barred now, or unknown, is not offered.
pub fn tools_with(state: &GameState, srd: &Srd, asked: &[&str]) -> Tools {
    let mut needed: Vec<&'static str> = EVERY.to_vec();
    let mut room: Vec<&'static str> = Vec::new();
    let fight = state.encounter.is_some();
    let party = || state.characters.iter().filter(|c| !c.dead);
    if fight {
        needed.extend(FIGHT);
        if party().any(|c| c.conditions.has(Condition::Prone)) {
            needed.push(tool::STAND_UP);
        }
        if party().any(|c| {
            c.conditions.has(Condition::Grappled) || c.conditions.has(Condition::Restrained)
        }) {
            needed.push(tool::ESCAPE_GRAPPLE);
        }
        let readied = state.encounter.as_ref().is_some_and(|e| {
            e.effects
                .iter()
                .any(|x| matches!(x.kind, EffectKind::Readied { .. }))
        });
        if readied {
            needed.push(tool::TRIGGER_READIED);
        }
        // The state block shows the room and the fight: looking around is a lookup here.
        room.extend([
            tool::GET_ROOM_DETAILS,
            tool::GET_CHARACTER_STATS,
            tool::DASH,
            tool::HIDE,
            tool::HELP,
            tool::SEARCH,
            tool::READY_ACTION,
            tool::GRAPPLE,
            tool::SHOVE,
            tool::USE_OBJECT,
            tool::ROLL_SAVING_THROW,
            tool::GET_MONSTER_STATS,
            tool::RULES_LOOKUP,
            // Legal in a fight, seldom needed there: dropping concentration, the story.
            tool::UPDATE_CHARACTER,
            tool::UPDATE_INVENTORY,
            tool::APPLY_HAZARD_DAMAGE,
            tool::SET_GAME_FLAG,
            tool::LOG_STORY_EVENT,
            // A reaction granted by a trait or invocation is for the tool to judge.
            tool::DECLARE_REACTIONS,
        ]);
    } else {
        // A rest is taken where no one else stands; with an NPC here it waits for room.
        let rests = !npc_here(state);
        needed.extend(
            WALK.iter()
                .filter(|t| rests || **t != tool::UPDATE_CHARACTER),
        );
        if !rests {
            room.push(tool::UPDATE_CHARACTER);
        }
        // Taking what lies here; an item the story grants (rare) waits for room.
        if loot_here(state) {
            needed.push(tool::ADD_INVENTORY);
        }
        // A fall or thin ice: the first extra of a walk.
        room.push(tool::APPLY_HAZARD_DAMAGE);
        if monster_in_view(state) {
            needed.extend([tool::START_ENCOUNTER, tool::ROLL_ATTACK]);
        }
        // Preparing is a choice the party may make, never one the moment forces: offered
        // while there is room (a fresh party, which has never prepared, may at once).
        if party().any(|c| {
            crate::character::preparing::rested_since_preparing(c)
                && crate::character::preparing::options(srd, c).is_ok()
        }) {
            room.push(tool::PREPARE_SPELLS);
        }
        room.extend([
            tool::GET_CHARACTER_STATS,
            tool::ADD_INVENTORY,
            tool::UPDATE_INVENTORY,
            tool::ROLL_SAVING_THROW,
            tool::SEARCH,
            tool::USE_OBJECT,
            tool::CHECK_INVENTORY,
            tool::GET_MONSTER_STATS,
            tool::RULES_LOOKUP,
            tool::GET_GAME_FLAGS,
            // Features out of a fight (Lay on Hands, Wild Shape): legal, seldom the moment's.
            tool::USE_FEATURE,
        ]);
    }
    if npc_here(state) {
        needed.extend([tool::TALK_TO, tool::SOCIAL_CHECK]);
        // Before the story's flags and the lookups: moving an NPC on is the conversation's.
        let at = room
            .iter()
            .position(|t| *t == tool::ADD_INVENTORY)
            .unwrap_or(room.len());
        room.insert(at, tool::ADVANCE_NPC_GOALS);
    }
    // A dying hero may be stabilised in a fight or after it.
    if party().any(|c| c.hp.current == 0) {
        needed.push(tool::FIRST_AID);
    }
    if party().any(|c| may_cast(c, srd)) {
        needed.push(tool::CAST_SPELL);
    }
    // Reactions answer foes' turns: declared in a fight, or with a foe in view.
    if (fight || monster_in_view(state)) && party().any(|c| knows_reaction_spell(c, srd)) {
        needed.push(tool::DECLARE_REACTIONS);
    }
    if summon_here(state) {
        needed.push(tool::COMMAND_SUMMON);
    }
    if !state.puzzles_here().is_empty() {
        needed.push(tool::ANSWER_PUZZLE);
    }
    if let Some(here) = state.party_location() {
        let known = || here.features.iter().filter(|f| f.is_known());
        if known().any(|f| f.trap.as_ref().is_some_and(|t| !t.spent)) {
            needed.push(tool::DISARM_TRAP);
        }
        if known().any(|f| f.object.is_some()) {
            needed.push(tool::ATTACK_OBJECT);
        }
        if here.exits.iter().any(|e| e.locked && !e.hidden) {
            needed.push(tool::OPEN_LOCK);
        }
    }
    if party().any(|c| crate::character::may_level_up(&state.levelling, srd, c)) {
        needed.push(tool::LEVEL_UP);
    }
    // What a call may use: every tool but those whose moment has not come. The others,
    // offered or not, are the rules' to judge, and their refusals say more (the XP the next
    // level needs, the trap not yet found).
    let barred = barred(state, fight);
    let possible: Vec<&'static str> = tool_names()
        .into_iter()
        .filter(|t| !barred.contains(t))
        .collect();
    // What the model asked for, possible and not needed anyway: room is kept for each.
    let asked_by_model = asked;
    let asked: Vec<&'static str> = possible
        .iter()
        .copied()
        .filter(|t| asked.contains(t) && !needed.contains(t))
        .collect();
    let extras_end = CROWDED.saturating_sub(asked.len());
    for extra in room {
        if needed.len() >= extras_end {
            break;
        }
        if !needed.contains(&extra) && !asked.contains(&extra) {
            needed.push(extra);
        }
    }
    // With no extra left to give its place, the bookkeeping the moment needs gives way (but
    // never a tool the model asked for).
    let mut over = (needed.len() + asked.len()).saturating_sub(CROWDED);
    for yielding in YIELDING {
        if over == 0 {
            break;
        }
        if asked_by_model.contains(&yielding) {
            continue;
        }
        if let Some(at) = needed.iter().position(|t| *t == yielding) {
            needed.remove(at);
            over -= 1;
        }
    }
    needed.extend(asked);
    let in_order = |names: &[&str]| -> Vec<&'static str> {
        tool_names()
            .into_iter()
            .filter(|name| names.contains(name))
            .collect()
    };
    Tools {
        offered: by_stability(&needed, fight),
        possible: in_order(&possible),
    }
}

/// The offered tools in the order they are sent: the mode's own tools first ([`EVERY`], then
/// [`FIGHT`] or [`WALK`], in those lists' order, which ends with the tools that give way when
/// the list is crowded), then `cast_spell` (the party's, steady for a campaign), then what
/// this room or moment adds, in the registry's order. A provider's prompt cache keeps a request's prefix up to the first byte
/// that changes, and the tools come first: in the registry's order, walking from a room with
/// people in it to one with a monster changed the list from its third tool, where now the
/// mode's tools stay the same.
fn by_stability(names: &[&str], fight: bool) -> Vec<&'static str> {
    let mode: &[&str] = if fight { &FIGHT } else { &WALK };
    let core: Vec<&str> = EVERY.iter().chain(mode).copied().collect();
    let mut ordered: Vec<(u8, usize, &'static str)> = tool_names()
        .into_iter()
        .enumerate()
        .filter(|(_, t)| names.contains(t))
        .map(|(at, t)| match core.iter().position(|c| *c == t) {
            Some(rank) => (0, rank, t),
            None if t == tool::CAST_SPELL => (1, at, t),
            None => (2, at, t),
        })
        .collect();
    ordered.sort_unstable();
    ordered.into_iter().map(|(_, _, t)| t).collect()
}

/// What the gate decides of a call ([`gate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// The tool was sent with the call and its moment allows it (or the name is unknown:
    /// [`call_tool`](super::call_tool) refuses that with every tool): the call runs.
    Run,
    /// The tool's moment has not come: refused with this message, which names the list sent.
    Barred(String),
    /// The tool is possible now but was not sent with the call: refused with this message,
    /// which says it is now added; the game master offers it in the turn's next rounds
    /// ([`tools_with`]).
    Added(&'static str, String),
}

/// Whether a call to `name` runs, given `sent`, the tools sent with the call, and `state` as
/// the call finds it (a fight started earlier in the same answer already bars
/// `start_encounter`). Cheap: no list of tools is worked out, only what the moment bars.
pub fn gate(name: &str, sent: &[&str], state: &GameState) -> Gate {
    let Some(known) = tool_names().into_iter().find(|t| *t == name) else {
        return Gate::Run;
    };
    if barred(state, state.encounter.is_some()).contains(&known) {
        return Gate::Barred(format!(
            "{known} is not available now (nothing changed); the tools available now are: {}",
            sent.join(", ")
        ));
    }
    if sent.contains(&known) {
        return Gate::Run;
    }
    let list = sent.join(", ");
    Gate::Added(
        known,
        format!(
            "{known} is not among the tools sent with this call (nothing changed); it is now added: call it again. The tools sent were: {list}"
        ),
    )
}

/// The tools whose moment has not come: a fight's turns and actions with no fight, starting
/// one during one, spells for a party with none, talk with no one here.
fn barred(state: &GameState, fight: bool) -> Vec<&'static str> {
    let mut barred = if fight {
        vec![tool::START_ENCOUNTER]
    } else {
        vec![
            tool::NEXT_TURN,
            tool::END_ENCOUNTER,
            tool::MOVE_IN_FIGHT,
            tool::DASH,
            tool::DISENGAGE,
            tool::DODGE,
            tool::HELP,
            tool::HIDE,
            tool::READY_ACTION,
            tool::TRIGGER_READIED,
            tool::GRAPPLE,
            tool::SHOVE,
        ]
    };
    let no_caster = state
        .characters
        .iter()
        .all(|c| c.spells.is_empty() && c.spellcasting_ability.is_none());
    if no_caster {
        barred.push(tool::CAST_SPELL);
    }
    if !npc_here(state) {
        barred.extend([tool::TALK_TO, tool::SOCIAL_CHECK]);
    }
    barred
}

/// Whether an NPC is where the party is.
fn npc_here(state: &GameState) -> bool {
    let Some(here) = state.party_location() else {
        return false;
    };
    state.npcs.iter().any(|n| n.location == here.id)
}

/// Whether items lie where the party is: in the open, or in a feature it knows.
fn loot_here(state: &GameState) -> bool {
    state.party_location().is_some_and(|here| {
        !here.loot.is_empty()
            || here
                .features
                .iter()
                .any(|f| f.is_known() && !f.loot.is_empty())
    })
}

/// Whether a living monster the party has seen is where it is (a summon of the party's aside).
fn monster_in_view(state: &GameState) -> bool {
    let Some(here) = state.party_location() else {
        return false;
    };
    state
        .monsters
        .iter()
        .any(|m| m.location == here.id && m.revealed && m.hp.current > 0 && m.summoned.is_none())
}

/// Whether a living summon of the party's is where it is.
fn summon_here(state: &GameState) -> bool {
    let Some(here) = state.party_location() else {
        return false;
    };
    state.monsters.iter().any(|m| {
        m.location == here.id && m.hp.current > 0 && m.summoned.as_ref().is_some_and(|s| !s.gone)
    })
}

/// Whether `c` has a spell it may cast now: a cantrip, or a spell with a slot left. A spell the
/// SRD does not know counts (the tool itself says what is wrong with it).
fn may_cast(c: &crate::state::Character, srd: &Srd) -> bool {
    let s = &c.spell_slots;
    let slots =
        s.max.iter().zip(&s.spent).any(|(max, spent)| max > spent) || s.pact_max > s.pact_spent;
    c.spells
        .iter()
        .any(|s| slots || srd.spell(s).map_or(true, |spell| spell.level == 0))
}

/// Whether `c` knows a spell cast as a reaction (Shield, Counterspell, Hellish Rebuke).
fn knows_reaction_spell(c: &crate::state::Character, srd: &Srd) -> bool {
    c.spells.iter().any(|s| {
        srd.spell(s)
            .is_ok_and(|spell| super::reaction_trigger(spell).is_some())
    })
}
