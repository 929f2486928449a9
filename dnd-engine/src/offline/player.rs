//! A simple, deterministic player for autoplay: reads the state like a player at the table
//! would (only what the party knows) and says what the hero does next.
//!
//! Priorities, first match wins: drink a potion when below 40% HP; fight a hostile monster in
//! sight (resting first when below 75% HP and no fight has started), with the hero's weapon
//! or a spell it knows, whichever the engine's odds expect to deal more damage (a spell that
//! spends a slot must beat the weapon by half again, so slots are not spent for little); rest when below 75% HP
//! (a short rest while hit dice last, a long one below half HP); answer an
//! NPC's riddle; greet each NPC once; take the loot in view; stop once the goal room is reached
//! and emptied; search each room once; unlock a locked way with a key carried; walk towards the
//! nearest room not yet visited; try a suggestion not yet tried; stop.
//!
//! It keeps a little memory (rooms searched, NPCs greeted, how often it tried to take or unlock
//! something) so it never loops on a refusal; the same states and outcomes always give the
//! same words.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::gm::{PlayerInput, TurnOutcome};
use crate::srd::Srd;
use crate::state::{Character, GameState, Location, ReactionTrigger};
use crate::tools::{names, odds};

use super::words::is_direction;

/// How many times the player tries the same loot, lock or rest before giving up on it.
const TRIES: u32 = 2;

/// A deterministic autoplay policy: `OfflinePlayer::new("kraven").with_goal("glacier-heart")`.
#[derive(Debug, Clone, Default)]
pub struct OfflinePlayer {
    hero: String,
    goal: Option<String>,
    searched: BTreeSet<String>,
    greeted: BTreeSet<String>,
    tries: BTreeMap<String, u32>,
    suggestions_used: BTreeSet<String>,
    rests_in_a_row: u32,
    /// The rules data its odds come from; the bundled SRD unless set.
    srd: Option<&'static Srd>,
}

impl OfflinePlayer {
    /// A player for the character with this id (or name).
    pub fn new(hero: impl Into<String>) -> OfflinePlayer {
        OfflinePlayer {
            hero: hero.into(),
            ..OfflinePlayer::default()
        }
    }

    /// Weighs spells and weapons with this SRD's data instead of the bundled one.
    pub fn with_srd(mut self, srd: &'static Srd) -> OfflinePlayer {
        self.srd = Some(srd);
        self
    }

    /// Stops once the party stands in this room and has taken what lies there. Without a goal,
    /// the player stops when no known way leads anywhere new.
    pub fn with_goal(mut self, room: impl Into<String>) -> OfflinePlayer {
        self.goal = Some(room.into());
        self
    }

    /// The hero's next words, or `None` when the adventure is over for this player (the goal
    /// reached, nothing left to explore, or the hero down or dead).
    pub fn next_input(
        &mut self,
        last: Option<&TurnOutcome>,
        state: &GameState,
    ) -> Option<PlayerInput> {
        let hero = state.character(&self.hero)?.clone();
        let text = self.decide(last, state, &hero)?;
        if text.contains("rest") {
            self.rests_in_a_row += 1;
        } else {
            self.rests_in_a_row = 0;
        }
        Some(PlayerInput::new(hero.name, text))
    }

    /// The spell the hero knows that the engine's odds expect to deal the most damage to `foe`,
    /// when it beats the hero's weapon (by half again for a spell that spends a slot, which
    /// must be left); `None` to swing.
    fn best_spell(&self, state: &GameState, hero: &Character, foe: &str) -> Option<String> {
        let srd = self.srd.unwrap_or_else(Srd::bundled);
        let expected = |tool: &str, args: serde_json::Value| {
            odds(state, srd, tool, &args)
                .and_then(|o| o.expected_damage)
                .unwrap_or(0.0)
        };
        let weapon = expected(
            names::ROLL_ATTACK,
            serde_json::json!({"attacker": hero.id, "target": foe, "attack": null, "advantage": null}),
        );
        let mut best: Option<(f64, &str)> = None;
        for name in hero.spells.iter() {
            let Ok(spell) = srd.spell(name) else { continue };
            if spell.level > 0 && hero.spell_slots.available(spell.level) == 0 {
                continue;
            }
            let value = expected(
                names::CAST_SPELL,
                serde_json::json!({"caster": hero.id, "spell": name, "slot_level": null, "targets": [foe], "aim": null, "ritual": null, "choice": null, "again": null, "point": null, "sculpt": null, "metamagic": null, "careful": null}),
            );
            let bar = if spell.level == 0 {
                weapon
            } else {
                weapon * 1.5
            };
            if value > bar && best.is_none_or(|(b, _)| value > b) {
                best = Some((value, name));
            }
        }
        best.map(|(_, name)| name.to_owned())
    }

    /// "I keep Shield ready as my reaction when hit": the first spell the hero knows that the
    /// engine casts as a standing reaction, with a slot for it, when none is declared yet.
    fn reaction_to_declare(&self, hero: &Character) -> Option<String> {
        if !hero.reactions.is_empty() {
            return None;
        }
        let srd = self.srd.unwrap_or_else(Srd::bundled);
        hero.spells.iter().find_map(|name| {
            let spell = srd.spell(name).ok()?;
            let when = crate::tools::reaction_trigger(spell)?;
            (1..=9)
                .filter(|&l| l >= spell.level)
                .any(|l| hero.spell_slots.available(l) > 0)
                .then(|| {
                    let words = match when {
                        ReactionTrigger::Hit => "when hit",
                        ReactionTrigger::SpellCast => "when a spell is cast",
                        ReactionTrigger::Damaged => "when damaged",
                    };
                    format!("I keep {} ready as my reaction {words}.", spell.name)
                })
        })
    }

    /// Counts one more try at `key`; `false` once it has been tried [`TRIES`] times.
    fn attempt(&mut self, key: String) -> bool {
        let n = self.tries.entry(key).or_default();
        *n += 1;
        *n <= TRIES
    }

    fn decide(
        &mut self,
        last: Option<&TurnOutcome>,
        state: &GameState,
        hero: &Character,
    ) -> Option<String> {
        if !hero.can_act() {
            return None;
        }
        let here = state.party_location()?;
        let (hp, max) = (hero.hp.current, hero.hp.max.max(1));
        let potion = hero
            .inventory
            .iter()
            .find(|i| i.name.to_lowercase().contains("potion"))
            .map(|i| i.name.clone());
        let foes: Vec<&crate::state::MonsterInstance> = state
            .monsters
            .iter()
            .filter(|m| m.location == here.id && m.revealed && m.is_fighting() && m.hostile)
            .collect();
        let fighting = state.encounter.is_some();
        let dice_left = hero.hit_dice.spent < hero.hit_dice.total;
        let can_rest = self.rests_in_a_row < 3;

        // A new game: take in the scene first (the engine reveals who is in plain sight).
        if last.is_none() && self.searched.is_empty() && self.tries.is_empty() {
            self.tries.insert(format!("look:{}", here.id), 1);
            return Some("I look around.".into());
        }
        if hp * 5 < max * 2
            && let Some(potion) = &potion
        {
            return Some(format!("I drink the {potion}."));
        }
        if fighting || !foes.is_empty() {
            if !fighting && hp * 4 < max * 3 && can_rest {
                return Some(if dice_left {
                    "I take a short rest before the fight.".into()
                } else {
                    "I take a long rest before the fight.".into()
                });
            }
            // Before the fight, a reaction spell the hero knows is declared (Shield when hit),
            // so the engine may cast it while the monsters act.
            if !fighting
                && let Some(words) = self.reaction_to_declare(hero)
                && self.attempt(format!("react:{}", hero.id))
            {
                return Some(words);
            }
            return Some(match foes.first() {
                Some(foe) => {
                    let name = foe.name.trim_start_matches("The ");
                    match self.best_spell(state, hero, &foe.id) {
                        Some(spell) => format!("I cast {spell} at the {name}!"),
                        None => format!("I attack the {name}!"),
                    }
                }
                None => "I attack!".into(),
            });
        }
        if hp * 4 < max * 3 && dice_left && can_rest {
            return Some("I take a short rest.".into());
        }
        if hp * 2 < max && can_rest {
            return Some("I take a long rest.".into());
        }
        let npcs: Vec<_> = state
            .npcs
            .iter()
            .filter(|n| n.location == here.id)
            .collect();
        let riddle_open = state.flags.get("riddle_answered") == Some(&serde_json::json!(false));
        for npc in &npcs {
            let asks_riddle = npc
                .goal_steps
                .get(npc.current_step)
                .is_some_and(|s| s.description.to_lowercase().contains("riddle"));
            if riddle_open && asks_riddle && self.attempt(format!("riddle:{}", npc.id)) {
                return Some(format!("I answer {}: \"The answer is ice.\"", npc.name));
            }
        }
        for npc in &npcs {
            if self.greeted.insert(npc.id.clone()) {
                return Some(format!("I talk to {}.", npc.name));
            }
        }
        for f in here
            .features
            .iter()
            .filter(|f| f.is_known() && !f.loot.is_empty())
        {
            if self.attempt(format!("take:{}:{}", here.id, f.id)) {
                return Some(format!(
                    "I take everything from {}.",
                    lower_article(&f.name)
                ));
            }
        }
        for item in &here.loot {
            if self.attempt(format!("take:{}:floor:{}", here.id, item.name)) {
                return Some(format!("I pick up the {}.", item.name));
            }
        }
        if self.goal.as_deref() == Some(here.id.as_str()) {
            return None;
        }
        if self.searched.insert(here.id.clone()) {
            return Some("I search the area carefully.".into());
        }
        for exit in here.exits.iter().filter(|e| e.locked && !e.hidden) {
            let key = hero.inventory.iter().find(|i| {
                exit.key
                    .as_deref()
                    .is_some_and(|k| k.eq_ignore_ascii_case(&i.name))
            });
            if let Some(key) = key
                && self.attempt(format!("unlock:{}:{}", here.id, exit.direction))
            {
                return Some(format!(
                    "I unlock the {} with the {}.",
                    exit.direction, key.name
                ));
            }
        }
        if let Some(direction) = explore(state, hero, here) {
            return Some(if is_direction(&direction) {
                format!("I go {direction}.")
            } else {
                format!("I go through the {direction}.")
            });
        }
        let suggestion = last
            .into_iter()
            .flat_map(|o| o.suggested_actions.iter())
            .find(|s| !s.id.starts_with("attack") && !self.suggestions_used.contains(&s.id))?;
        self.suggestions_used.insert(suggestion.id.clone());
        Some(format!("I {}.", lowercase_first(&suggestion.description)))
    }
}

/// The first step towards the nearest room not visited yet, through ways the party knows of
/// (a locked one only with its key in hand).
fn explore(state: &GameState, hero: &Character, here: &Location) -> Option<String> {
    let mut seen = BTreeSet::from([here.id.clone()]);
    let mut queue: VecDeque<(&Location, Option<String>)> = VecDeque::from([(here, None)]);
    while let Some((room, first)) = queue.pop_front() {
        for exit in room.exits.iter().filter(|e| !e.hidden) {
            let has_key = exit
                .key
                .as_deref()
                .is_some_and(|k| hero.item_quantity(k) > 0);
            if exit.locked && !has_key {
                continue;
            }
            let step = first.clone().unwrap_or_else(|| exit.direction.clone());
            let Some(next) = state.location(&exit.to) else {
                continue;
            };
            if !next.visited {
                return Some(step);
            }
            if seen.insert(next.id.clone()) {
                queue.push_back((next, Some(step)));
            }
        }
    }
    None
}

fn lower_article(name: &str) -> String {
    match name.split_once(' ') {
        Some((first @ ("A" | "An" | "The"), rest)) => format!("{} {rest}", first.to_lowercase()),
        _ => format!("the {name}"),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
