//! The compact view of a campaign the LLM gets each turn.
//!
//! Every token of it is paid for on every call, so it holds only what a narrator needs now:
//! where the party is, what it can see and use, how everyone is doing, who else is here, and the
//! fight if there is one. Hidden features, hidden exits, unrevealed NPC goals and unseen
//! monsters are left out by construction, so the model cannot leak what the party has not found.

use serde::{Deserialize, Serialize};

use super::{GameState, compact};

/// A compact, serializable snapshot of the state (see [`GameState::snapshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Where the party is.
    pub location: LocationView,
    /// The party.
    pub party: Vec<CharacterView>,
    /// Monsters the party has seen here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub monsters: Vec<MonsterView>,
    /// NPCs here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs: Vec<NpcView>,
    /// The fight, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<EncounterView>,
    /// Exploration, combat or social.
    pub mode: super::Mode,
    /// "day 1, 08:00".
    pub time: String,
    /// The world flags that hold (`GameState::flags_holding`): a flag at rest is not shown.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub flags: serde_json::Map<String, serde_json::Value>,
    /// The ending reached, once the adventure is over: its title and what the game master tells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// The puzzles before the party, unsolved: answered with `answer_puzzle` (their answers
    /// are never here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub puzzles: Vec<PuzzleView>,
}

/// A puzzle before the party, as the LLM sees it: the question, never the answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleView {
    /// Its id, for `answer_puzzle`.
    pub id: String,
    /// The NPC who asks it, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked_by: Option<String>,
    /// The question.
    pub question: String,
    /// Wrong answers left before it locks, when there is a limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts_left: Option<u32>,
}

/// The party's location as the LLM sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocationView {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// One line.
    pub description: String,
    /// Known exits: "north → ice-bridge", with "(locked)" when locked.
    pub exits: Vec<String>,
    /// Known features, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Loot in the open: "Rope ×1".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loot: Vec<String>,
    /// The room's areas, for moving in a fight: "ice-bridge: the ice bridge (difficult
    /// terrain)".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<String>,
}

/// A character as the LLM sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterView {
    /// Id.
    pub id: String,
    /// "Kraven, fighter 3".
    pub who: String,
    /// "21/28" or "21/28 +5 temp".
    pub hp: String,
    /// Armor Class.
    pub ac: i32,
    /// Conditions, each with its cause, time left and what ends it ("paralyzed (Hold Person,
    /// from Hedda; 10 rounds left; ends on ...)", written by `compact::condition`); "dead",
    /// "dying" or "stable" at 0 HP; then its other timed effects with their source and time
    /// left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// Spell slots left: "1st: 3, 2nd: 1".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<String>,
    /// The spell concentrated on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentrating_on: Option<String>,
    /// Standing reactions declared ("Shield when hit").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<String>,
    /// Inventory summary: "Potion of Healing ×2, Rope".
    pub items: String,
    /// Gold pieces.
    pub gold: u32,
    /// Experience and the next level's threshold: "300 XP (level 4 at 2700)".
    pub xp: String,
    /// Class features with no use left until a rest, by slug ("second-wind").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent_features: Vec<String>,
}

/// A monster as the LLM sees it: seen ones only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MonsterView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// "7/7", or "dead".
    pub hp: String,
    /// Armor Class (for the engine's odds; the narration keeps it out of the story).
    pub ac: i32,
    /// Whether it fights the party on sight.
    pub hostile: bool,
    /// Conditions with their causes, then its other timed effects, as for a character.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// "fled" or "surrendered": no longer a foe (absent while it fights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<super::Morale>,
    /// Who its action holds until they save, with the action: "Kraven (Luring Song)".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holding: Vec<String>,
    /// The spell it concentrates on (a cult fanatic's Hold Person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentrating_on: Option<String>,
    /// What it has spent: actions waiting for a recharge or a rest ("Cold Breath"), and uses
    /// of its pools ("level 2 slots: 1 used").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent: Vec<String>,
    /// The caster whose spell summoned it to fight on the party's side, by id, with the spell:
    /// "hedda (Conjure Animals)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoned_by: Option<String>,
    /// Its creature type ("undead"), where the game keeps it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// An NPC as the LLM sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NpcView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Attitude.
    pub disposition: super::Disposition,
    /// Its goal, once revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// What it is doing now (its current goal step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doing: Option<String>,
}

/// The fight as the LLM sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncounterView {
    /// Round.
    pub round: u32,
    /// Whose turn.
    pub turn: String,
    /// The order, by id.
    pub order: Vec<String>,
    /// Where each combatant stands and how far its foes are, in a room with areas: "Frost
    /// Harpy: the spire of rime, 30 ft up, half cover; Kraven 50 ft".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// What the creature whose turn it is has left of it ("the action, a bonus action and
    /// 30 ft of movement"), so the model offers what the rules still allow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<String>,
    /// Who is still surprised (loses its first turn), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surprised: Vec<String>,
}

/// A rough token count for English text and JSON: one token per four bytes, the usual rule of
/// thumb for BPE tokenizers. Used to watch the prompt's size, not to bill.
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

impl GameState {
    /// The compact view of the state the LLM gets this turn.
    pub fn snapshot(&self) -> Snapshot {
        let here = self.party_location();
        let here_id = here.map(|l| l.id.as_str()).unwrap_or_default();
        let location = match here {
            Some(l) => LocationView {
                id: l.id.clone(),
                title: l.title.clone(),
                description: l.short_description.clone(),
                exits: l
                    .exits
                    .iter()
                    .filter(|e| !e.hidden)
                    .map(|e| compact::exit(&e.direction, &e.to, e.locked))
                    .collect(),
                features: l
                    .features
                    .iter()
                    .filter(|f| f.is_known())
                    .map(|f| f.name.clone())
                    .collect(),
                loot: l
                    .loot
                    .iter()
                    .map(|s| compact::stack(&s.name, s.quantity))
                    .collect(),
                areas: l.areas.iter().map(super::position::describe_area).collect(),
            },
            None => LocationView {
                id: String::new(),
                title: "nowhere".into(),
                description: String::new(),
                exits: Vec::new(),
                features: Vec::new(),
                loot: Vec::new(),
                areas: Vec::new(),
            },
        };
        let party = self
            .characters
            .iter()
            .map(|c| {
                let mut conditions = self.conditions_view(&c.id, &c.timed_effects);
                if c.dead {
                    conditions.push("dead".into());
                } else if c.hp.current == 0 {
                    conditions.push(if c.death_saves.stable {
                        "stable".into()
                    } else {
                        format!(
                            "dying (saves {}✓ {}✗)",
                            c.death_saves.successes, c.death_saves.failures
                        )
                    });
                }
                if c.hp_drained > 0 {
                    conditions.push(format!(
                        "max HP lowered by {} until a long rest",
                        c.hp_drained
                    ));
                }
                let slots = c.spell_slots.describe_available();
                CharacterView {
                    id: c.id.clone(),
                    who: format!("{}, {} {}", c.name, c.class, c.level),
                    hp: compact::hit_points_with_temporary(c.hp.current, c.hp.max, c.hp.temporary),
                    ac: c.armor_class_now(),
                    conditions,
                    slots: (c.spell_slots.max != [0; 9] || c.spell_slots.pact_max > 0)
                        .then_some(slots),
                    concentrating_on: c.concentration.clone(),
                    reactions: c
                        .reactions
                        .iter()
                        .map(|r| format!("{} when {}", r.spell, r.when.name()))
                        .collect(),
                    items: compact::items(&c.inventory),
                    gold: c.gold,
                    xp: super::progress_text(c, &self.levelling),
                    spent_features: c
                        .feature_uses
                        .iter()
                        .filter(|(_, u)| u.left() == 0)
                        .map(|(slug, _)| slug.clone())
                        .collect(),
                }
            })
            .collect();
        let monsters = self
            .monsters
            .iter()
            // A summon gone with its spell leaves nothing behind to show.
            .filter(|m| m.location == here_id && m.revealed)
            .filter(|m| m.summoned.as_ref().is_none_or(|s| !s.gone))
            .map(|m| MonsterView {
                id: m.id.clone(),
                name: m.name.clone(),
                hp: if m.is_alive() {
                    compact::hit_points(m.hp.current, m.hp.max)
                } else {
                    "dead".into()
                },
                ac: m.armor_class_now(),
                hostile: m.hostile,
                conditions: self.conditions_view(&m.id, &m.timed_effects),
                morale: (m.morale != super::Morale::Fighting).then_some(m.morale),
                holding: m
                    .holds
                    .iter()
                    .map(|h| format!("{} ({})", h.target, h.action))
                    .collect(),
                concentrating_on: m.concentration.clone(),
                spent: m
                    .spent_actions
                    .iter()
                    .cloned()
                    .chain(
                        m.uses_spent
                            .iter()
                            .map(|(pool, n)| format!("{pool}: {n} used")),
                    )
                    .collect(),
                summoned_by: m
                    .summoned
                    .as_ref()
                    .map(|s| format!("{} ({})", s.by, s.spell)),
                kind: m.kind.clone(),
            })
            .collect();
        let npcs = self
            .npcs
            .iter()
            .filter(|n| n.location == here_id)
            .map(|n| NpcView {
                id: n.id.clone(),
                name: n.name.clone(),
                disposition: n.disposition,
                goal: n.goal_revealed.then(|| n.goal.clone()),
                doing: n
                    .goal_steps
                    .get(n.current_step)
                    .filter(|_| n.goal_revealed)
                    .map(|s| s.description.clone()),
            })
            .collect();
        let encounter = self.encounter.as_ref().map(|e| EncounterView {
            round: e.round,
            turn: e.current().unwrap_or_default().to_owned(),
            // A summon gone with its spell has no place in the order any more.
            order: e
                .order
                .iter()
                .filter(|s| {
                    self.monster(&s.id)
                        .and_then(|m| m.summoned.as_ref())
                        .is_none_or(|x| !x.gone)
                })
                .map(|s| s.id.clone())
                .collect(),
            positions: super::position::describe_positions(self, e),
            left: super::budget_left(self),
            surprised: e
                .effects
                .iter()
                .filter(|x| x.kind == super::EffectKind::Surprised)
                .map(|x| self.name_of(&x.creature))
                .collect(),
        });
        Snapshot {
            location,
            party,
            monsters,
            npcs,
            encounter,
            mode: self.mode,
            time: self.time.describe(),
            // Only the flags that hold: the adventure's list of flags at rest names people and
            // secrets the party has not met.
            flags: self
                .flags_holding()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            ended: super::ending_reached(self).map(|e| format!("{}: {}", e.title, e.description)),
            puzzles: self
                .puzzles_here()
                .into_iter()
                .map(|p| PuzzleView {
                    id: p.id.clone(),
                    asked_by: p
                        .npc
                        .as_deref()
                        .and_then(|n| self.npc(n))
                        .map(|n| n.name.clone()),
                    question: p.question.clone(),
                    attempts_left: p.attempts_left(self.puzzle_tries(&p.id)),
                })
                .collect(),
        }
    }
}

impl GameState {
    /// A creature's conditions with their causes and time left (see
    /// [`condition_sources`](super::condition_sources)), then its other timed effects (Bless,
    /// Mage Armor, a resistance) with their source and time left.
    fn conditions_view(&self, id: &str, timed: &[super::TimedEffect]) -> Vec<String> {
        super::condition_sources(self, id)
            .iter()
            .map(compact::condition)
            .chain(
                timed
                    .iter()
                    .filter(|e| e.condition().is_none())
                    .map(|e| e.describe()),
            )
            .collect()
    }
}

impl Snapshot {
    /// The snapshot as compact JSON, the form sent to the LLM.
    pub fn to_json(&self) -> String {
        // Serializing plain strings, numbers and maps cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
