//! A simple, deterministic player for autoplay: decides only from what the party knows
//! (`seen.rs`: the state block and what the tools have shown) and says what the hero does
//! next, towards an ending. It knows no adventure: no room, NPC, flag or answer by name.
//!
//! Priorities, first match wins: stop once the adventure has ended; drink a potion when below
//! 40% HP; fight a hostile monster in sight (resting first when below 75% HP and no fight has
//! started), with the hero's weapon or a spell it knows, whichever the engine's odds expect to
//! deal more damage (a spell that spends a slot must beat the weapon by half again, so slots
//! are not spent for little), after using up what the pack holds for a fight (a magic item
//! spent in the using, a weapon oil or a draught, not healing); rest when below 75% HP (a short rest while hit dice last, a long
//! one below half HP); then the people here: greet each, ask about each topic it will speak
//! of (and read it with Insight right after each, for a lie), give it an item its revealed
//! goal or its words name (or whose note speaks of it), answer the puzzle it asks with
//! the words the party has read (the most frequent first; the engine judges), read its goal
//! with Insight, ask it for a thing of its room it has spoken of, and win it over with
//! Persuasion when it keeps topics back (a read or a plea is said by whoever in the party is
//! best at its skill, as their sheets show); an item is also given to an NPC someone spoke of
//! in the same breath; disarm a trap the
//! party knows of; take the loot in view; search each room once; unlock a locked way with a
//! key carried; walk towards the nearest room not yet visited; attack an object the party
//! knows can be broken; try a suggestion not yet tried; stop.
//!
//! It keeps a little memory (rooms searched, what it tried and how often) so it never loops
//! on a refusal; the same states and outcomes always give the same words.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use crate::gm::{PlayerInput, TurnOutcome};
use crate::rules::Skill;
use crate::srd::Srd;
use crate::state::{Character, Disposition, GameState, Location, ReactionTrigger};
use crate::tools::{names, odds};

use super::seen::{Seen, candidates, significant};
use super::words::is_direction;

/// How many times the player tries the same loot, lock or rest before giving up on it.
const TRIES: u32 = 2;
/// How many answers the player gives one puzzle before giving up on it.
const ANSWERS: usize = 6;
/// How many blows the player strikes at one object before giving up on it.
const BLOWS: u32 = 30;

/// A deterministic autoplay policy: `OfflinePlayer::new("hero-id")`.
#[derive(Debug, Clone, Default)]
pub struct OfflinePlayer {
    hero: String,
    searched: BTreeSet<String>,
    /// The answers given to each puzzle, by its id.
    answered: BTreeMap<String, Vec<String>>,
    /// The topic last asked of each NPC, by its id: what a read of it judges.
    last_asked: BTreeMap<String, String>,
    /// Who says the next words, when not the hero (the party's best at the skill they roll).
    voice: Option<String>,
    tries: BTreeMap<String, u32>,
    suggestions_used: BTreeSet<String>,
    rests_in_a_row: u32,
    /// The rules data its odds come from; the game's ([`GameState::srd`]) unless set.
    srd: Option<Arc<Srd>>,
}

impl OfflinePlayer {
    /// A player for the character with this id (or name).
    pub fn new(hero: impl Into<String>) -> OfflinePlayer {
        OfflinePlayer {
            hero: hero.into(),
            ..OfflinePlayer::default()
        }
    }

    /// Weighs spells and weapons with this SRD's data instead of the game state's.
    pub fn with_srd(mut self, srd: Arc<Srd>) -> OfflinePlayer {
        self.srd = Some(srd);
        self
    }

    /// The hero's next words, or `None` when the adventure is over for this player (an ending
    /// reached, nothing new left to try, or the hero down or dead).
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
        // A word that rolls a skill is said by whoever in the party is best at it.
        let speaker = self.voice.take().unwrap_or(hero.name);
        Some(PlayerInput::new(speaker, text))
    }

    /// The spell the hero knows that the engine's odds expect to deal the most damage to `foe`,
    /// when it beats the hero's weapon (by half again for a spell that spends a slot, which
    /// must be left); `None` to swing.
    fn best_spell(&self, state: &GameState, hero: &Character, foe: &str) -> Option<String> {
        let srd = self.srd.as_deref().unwrap_or(state.srd());
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
    fn reaction_to_declare(&self, state: &GameState, hero: &Character) -> Option<String> {
        if !hero.reactions.is_empty() {
            return None;
        }
        let srd = self.srd.as_deref().unwrap_or(state.srd());
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
        self.tries_at(key, TRIES)
    }

    /// Counts one more try at `key`; `false` once it has been tried `most` times.
    fn tries_at(&mut self, key: String, most: u32) -> bool {
        let n = self.tries.entry(key).or_default();
        *n += 1;
        *n <= most
    }

    /// Whether `key` has been tried at all, counting this try.
    fn first_time(&mut self, key: String) -> bool {
        self.tries_at(key, 1)
    }

    /// The next thing to say to the people here, if any: greet, ask each topic, give what
    /// is wanted, answer a puzzle, read a goal, win over.
    fn socialize(&mut self, state: &GameState, seen: &Seen, hero: &Character) -> Option<String> {
        for p in &seen.people {
            if self.first_time(format!("greet:{}", p.id)) {
                return Some(format!("I talk to {}.", p.name));
            }
        }
        // Each topic, and right after it a read of the speaker: Insight judges what was said
        // last (a lie seen through may be what the story waits for).
        for p in &seen.people {
            if let Some(last) = self.last_asked.get(&p.id).cloned()
                && p.told.contains(&last)
                && self.first_time(format!("insight:{}:{last}", p.id))
            {
                self.voice = best_at(state, hero, Skill::Insight);
                return Some(format!("I sense whether {} speaks the truth.", p.name));
            }
            for (word, id) in p.topics.iter().filter(|(_, id)| !p.told.contains(id)) {
                if self.first_time(format!("ask:{}:{id}", p.id)) {
                    self.last_asked.insert(p.id.clone(), id.clone());
                    return Some(format!("I ask {} about {word}.", p.name));
                }
            }
        }
        // A gift: an item carried that the NPC's revealed goal, or its words, name.
        for p in &seen.people {
            let asks: Vec<String> = p
                .goal
                .iter()
                .chain(p.said.iter())
                .map(|t| t.to_lowercase())
                .collect();
            // Or an item whose note speaks of the NPC as the party sees it ("the miller's boy
            // is fond of them" for the miller's boy): two significant words shared.
            let looks = significant(&format!("{} {}", p.name, p.description));
            // Or one someone spoke of in the same breath as this NPC ("the smith never drinks
            // the black wine" for a bottle of black wine and the smith).
            let named = significant(&p.name);
            let spoken_of = |item: &str| {
                let words = significant(item);
                seen.heard.iter().any(|t| {
                    let said = significant(t);
                    said.intersection(&named).next().is_some()
                        && said.intersection(&words).count() >= 2
                })
            };
            for item in hero.inventory.iter() {
                let name = item.name.to_lowercase();
                let noted = significant(&item.note).intersection(&looks).count() >= 2;
                if (noted || spoken_of(&item.name) || asks.iter().any(|t| t.contains(&name)))
                    && self.first_time(format!("give:{}:{}", p.id, item.name))
                {
                    return Some(format!("I give the {} to {}.", item.name, p.name));
                }
            }
        }
        for puzzle in &seen.puzzles {
            let tried = self.answered.entry(puzzle.id.clone()).or_default();
            let last_chance = puzzle.attempts_left.is_some_and(|n| n == 0);
            if tried.len() >= ANSWERS || last_chance {
                continue;
            }
            let asker = puzzle
                .asked_by
                .clone()
                .unwrap_or_else(|| "the puzzle".to_owned());
            let next = candidates(state, seen, &puzzle.question)
                .into_iter()
                .find(|w| !tried.contains(w));
            if let Some(word) = next {
                tried.push(word.clone());
                return Some(format!("I answer {asker}: \"{word}\""));
            }
        }
        for p in seen.people.iter().filter(|p| p.goal.is_none()) {
            if self.first_time(format!("goal:{}", p.id)) {
                self.voice = best_at(state, hero, Skill::Insight);
                return Some(format!("I sense what {} wants.", p.name));
            }
        }
        // A request: something of this room the NPC has spoken of (two words of its name in
        // what it said: "the holy water" for "the font of holy water"), asked for once.
        for p in seen
            .people
            .iter()
            .filter(|p| p.attitude >= Disposition::Indifferent)
        {
            let said = significant(&p.said.join(" "));
            for thing in &seen.things {
                let shared = significant(&thing.name).intersection(&said).count();
                if shared >= 2 && self.first_time(format!("request:{}:{}", p.id, thing.name)) {
                    self.voice = best_at(state, hero, Skill::Persuasion);
                    return Some(format!(
                        "I persuade {} to spare us some of {}.",
                        p.name,
                        lower_article(&thing.name)
                    ));
                }
            }
        }
        for p in seen
            .people
            .iter()
            .filter(|p| p.locked > 0 && p.attitude < Disposition::Friendly)
        {
            // Once: a failure that goes badly turns it colder, and again would only sour it.
            if self.first_time(format!("persuade:{}", p.id)) {
                self.voice = best_at(state, hero, Skill::Persuasion);
                return Some(format!("I persuade {} that we mean well.", p.name));
            }
        }
        None
    }

    fn decide(
        &mut self,
        last: Option<&TurnOutcome>,
        state: &GameState,
        hero: &Character,
    ) -> Option<String> {
        if !hero.can_act() || state.story.ended.is_some() {
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
            // Before the fight, what the pack holds for one: a magic item used up in the using
            // that does something (a weapon oil, a draught of resistance), once each. Healing
            // is kept for when it is needed.
            if !fighting
                && let Some(item) = hero.inventory.iter().find(|i| {
                    i.magic
                        .as_ref()
                        .is_some_and(|m| m.consumed && !m.on_use.is_empty())
                        && !i.name.to_lowercase().contains("healing")
                })
                && self.first_time(format!("ready:{}", item.name))
            {
                return Some(format!("I use the {} before the fight.", item.name));
            }
            // Before the fight, a reaction spell the hero knows is declared (Shield when hit),
            // so the engine may cast it while the monsters act.
            if !fighting
                && let Some(words) = self.reaction_to_declare(state, hero)
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
        let seen = Seen::of(state);
        if let Some(words) = self.socialize(state, &seen, hero) {
            return Some(words);
        }
        for thing in seen.things.iter().filter(|t| t.trapped) {
            if self.first_time(format!("disarm:{}:{}", here.id, thing.name)) {
                return Some(format!("I disarm {}.", lower_article(&thing.name)));
            }
        }
        for f in seen.things.iter().filter(|t| t.loot) {
            if self.attempt(format!("take:{}:{}", here.id, f.name)) {
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
        if self.searched.insert(here.id.clone()) {
            return Some("I search the area carefully.".into());
        }
        // A locked way: each key carried, once.
        for exit in here.exits.iter().filter(|e| e.locked && !e.hidden) {
            for key in hero.inventory.iter().filter(|i| is_key(&i.name)) {
                if self.attempt(format!(
                    "unlock:{}:{}:{}",
                    here.id, exit.direction, key.name
                )) {
                    return Some(format!(
                        "I unlock the {} with the {}.",
                        exit.direction, key.name
                    ));
                }
            }
        }
        if let Some(direction) = explore(state, hero, here) {
            return Some(if is_direction(&direction) {
                format!("I go {direction}.")
            } else {
                format!("I go through the {direction}.")
            });
        }
        // Nowhere new to go: strike what the party knows can be broken.
        for thing in seen.things.iter().filter(|t| t.breakable) {
            if self.tries_at(format!("break:{}:{}", here.id, thing.name), BLOWS) {
                return Some(format!(
                    "I attack {} with all my strength!",
                    lower_article(&thing.name)
                ));
            }
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
            let has_key = hero.inventory.iter().any(|i| is_key(&i.name));
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

/// The name of the party member beside the hero, standing, with the best modifier in
/// `skill` (its sheet shows it), when that is not the hero.
fn best_at(state: &GameState, hero: &Character, skill: Skill) -> Option<String> {
    let mut best = (hero.skill_modifier(skill), hero);
    for c in state.characters.iter() {
        if c.location == hero.location && c.can_act() && c.skill_modifier(skill) > best.0 {
            best = (c.skill_modifier(skill), c);
        }
    }
    (best.1.id != hero.id).then(|| best.1.name.clone())
}

/// Whether an item reads as a key ("Rusty Key", "Keyring").
fn is_key(name: &str) -> bool {
    name.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.starts_with("key"))
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
