//! Every condition on a character or a monster with what imposed it and what ends it: read
//! from where the state keeps each cause, so it can never disagree with the rules that end
//! the condition.
//!
//! | the cause | kept in | what ends it (applied elsewhere) |
//! |---|---|---|
//! | a spell's, an item's or a monster action's timed effect (Hold Person, Sleep, Web; the prone a wolf's bite or Grease leaves, kept with no duration) | [`TimedEffect`](super::TimedEffect) | its duration, its source's concentration, damage, a repeated save, an escape (`state/timed.rs`, `effects::end_of_turn_saves`); a kept prone goes with the condition (standing up) |
//! | a monster's hold (a harpy's Luring Song) | [`Hold`](super::Hold) | a save at the end of the held creature's turns, damage from another, the monster's fall or flight |
//! | a grapple | the encounter's `Grappling` effect | an escape, the grappler incapacitated, the fight's end |
//! | 0 hit points | the hit points | healing, or stabilising then a rest |
//! | exhaustion | the level on the condition set | a long rest, one level |
//! | a situation (a fall, a shove, the story's `add_condition`) | the condition set alone | the creature (standing up), the story, or a rest |
//!
//! The snapshot writes each as one compact text (`compact::condition`), the `play` panel
//! shows the same.

use serde::{Deserialize, Serialize};

use super::{EffectKind, GameState, TimedKind};
use crate::rules::Condition;

/// One condition on a creature, with its cause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionSource {
    /// The condition.
    pub condition: Condition,
    /// What imposed it, in words: "Hold Person, from Hedda", "Luring Song, from the Frost
    /// Harpy", "0 hit points", "a situation".
    pub source: String,
    /// Rounds left, when it has a duration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_left: Option<u32>,
    /// What else ends it, in words: "a Wisdom save (DC 13) at the end of each of its turns",
    /// "damage", "standing up".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends: Option<String>,
}

/// The conditions on the creature `id` (a character or a monster, any case), each with each
/// of its causes (a creature both slept and held shows both), in the condition's order.
/// Exhaustion is listed once, with its level in `source`.
pub fn condition_sources(state: &GameState, id: &str) -> Vec<ConditionSource> {
    let (set, hp, effects) = match (state.character(id), state.monster(id)) {
        (Some(c), _) => (c.conditions, c.hp.current, &c.timed_effects),
        (None, Some(m)) => (m.conditions, m.hp.current, &m.timed_effects),
        (None, None) => return Vec::new(),
    };
    let mut out = Vec::new();
    for condition in set.iter() {
        let before = out.len();
        for e in effects {
            if e.condition() == Some(condition) {
                let mut ends: Vec<String> = Vec::new();
                match &e.kind {
                    TimedKind::Condition {
                        repeat_save: Some(save),
                        ..
                    } => ends.push(format!(
                        "a {} save (DC {}) at the end of each of its turns",
                        save.ability, save.dc
                    )),
                    TimedKind::ConditionUntil {
                        escape,
                        ends_on_acting,
                        ..
                    } => {
                        if let Some(check) = escape {
                            ends.push(format!(
                                "an action and a {} check (DC {})",
                                check.ability, check.dc
                            ));
                        }
                        if *ends_on_acting {
                            ends.push("its own attack or spell".into());
                        }
                        if super::timed::is_kept_condition(e) {
                            ends.push(ends_by_rule(condition));
                        }
                    }
                    _ => {}
                }
                if e.ends_on_damage {
                    ends.push("damage".into());
                }
                if e.concentration {
                    ends.push(format!(
                        "{}'s concentration ending",
                        state.name_of(&e.source)
                    ));
                }
                out.push(ConditionSource {
                    condition,
                    source: format!("{}, from {}", e.spell, state.name_of(&e.source)),
                    rounds_left: e.rounds_left,
                    ends: (!ends.is_empty()).then(|| ends.join(", or ")),
                });
            }
        }
        for m in state.monsters.iter() {
            for h in m
                .holds
                .iter()
                .filter(|h| h.target.eq_ignore_ascii_case(id) && h.conditions.contains(&condition))
            {
                out.push(ConditionSource {
                    condition,
                    source: format!("{}, from {}", h.action, m.name),
                    rounds_left: None,
                    ends: Some(format!(
                        "a save at the end of each of its turns, or {} falling or leaving the fight",
                        m.name
                    )),
                });
            }
        }
        if condition == Condition::Grappled
            && let Some(encounter) = &state.encounter
        {
            for g in encounter.effects.iter().filter(|g| {
                matches!(&g.kind, EffectKind::Grappling { target } if target.eq_ignore_ascii_case(id))
            }) {
                out.push(ConditionSource {
                    condition,
                    source: format!("a grapple, from {}", state.name_of(&g.creature)),
                    rounds_left: None,
                    ends: Some("an escape, or the grappler incapacitated".into()),
                });
            }
        }
        if out.len() > before {
            continue;
        }
        out.push(match condition {
            Condition::Unconscious if hp == 0 => ConditionSource {
                condition,
                source: "0 hit points".into(),
                rounds_left: None,
                ends: Some("healing".into()),
            },
            Condition::Exhaustion => ConditionSource {
                condition,
                source: format!("level {}", set.exhaustion),
                rounds_left: None,
                ends: Some("a long rest, one level".into()),
            },
            Condition::Prone => ConditionSource {
                condition,
                source: "a situation".into(),
                rounds_left: None,
                ends: Some(ends_by_rule(condition)),
            },
            _ => ConditionSource {
                condition,
                source: "a situation".into(),
                rounds_left: None,
                ends: None,
            },
        });
    }
    out
}

/// What ends a condition kept until the rules end it, in words.
fn ends_by_rule(condition: Condition) -> String {
    match condition {
        Condition::Prone => "standing up (half its movement)".into(),
        _ => "what the rules say ends it".into(),
    }
}
