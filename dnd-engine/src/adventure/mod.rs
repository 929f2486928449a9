//! Adventures: a JSON file of rooms, monsters, NPCs and pregenerated characters, checked
//! thoroughly on load and turned into the [`GameState`] a campaign starts from.
//!
//! [`Adventure::built_in`] is "The Wailing Glacier", a five-room dungeon for one 3rd-level
//! character (`src/adventure/wailing_glacier.json`). [`Adventure::BUILT_IN`] names every
//! adventure compiled in, for [`Adventure::built_in_named`] and `--adventure NAME`: besides the
//! glacier, `wendle-hollow`, "The Quiet Nights of Wendle Hollow" (`wendle_hollow.json`), a
//! social mystery in a village of six places for four 2nd-level heroes, decided by talking,
//! Insight on a liar, a trap and one fight, with two endings; its party is written as the
//! players' builder choices.
//!
//! # The format
//!
//! One JSON object. Fields marked *optional* may be left out.
//!
//! | field | what it holds |
//! |---|---|
//! | `title` | the adventure's name |
//! | `summary` | *optional*: the premise, as the game master may tell it; it becomes the campaign summary (keep secrets in hidden features and NPC goals) |
//! | `start` | the id of the room the party starts in |
//! | `rooms` | the [`Room`]s (at least one) |
//! | `npcs` | *optional*: the [`AdventureNpc`]s |
//! | `flags` | *optional*: initial world flags, any JSON values (`{"harpy_defeated": false}`) |
//! | `characters` | *optional*: pregenerated [`Character`]s, without `location` (the party starts in `start`), each a sheet or `{"build": choices}` (see below); the first is the default hero |
//! | `levelling` | *optional*: `"xp"` (the default: a character may level up once its XP reaches the SRD's table) or `"milestone"` (a level at each of the `milestones`; XP is still recorded but never gates) |
//! | `milestones` | *optional*, with `"levelling": "milestone"` only, and then at least one: each an `id` (unique) and either a `flag` (declared in `flags`; reached when the story sets it) or a `room` (reached when the party enters it). Each grants every living character one level, once |
//! | `endings` | *optional*: the ways the adventure ends, each an `id` (unique), a `title` and a `description`; reached by an `end` story effect |
//! | `puzzles` | *optional*: riddles and word-locks ([`crate::state::Puzzle`]), judged by the engine |
//! | `$schema` | *optional*: where an editor finds the format's JSON Schema, `adventure.schema.json` at the `dnd-engine` crate's root (the built-in file says `"../../adventure.schema.json"`); the engine ignores it |
//!
//! A **room** has `id`, `title`, `short_description` (one line), `description` (the full text),
//! and *optional* `exits`, `features`, `loot`, `monsters`, `areas` and `light` (`"bright"`, the
//! default, `"dim"` or `"dark"`: in darkness a creature without darkvision is effectively
//! blinded, and dim light gives disadvantage on Perception; see `character::race`):
//!
//! - an **exit** is a [`crate::state::Exit`]: `direction`, `to` (a room id), and optional
//!   `locked`, `unlock_dc`, `key` (an item name that must lie somewhere in the adventure),
//!   `hidden`, `find_dc`;
//! - a **feature** is a [`crate::state::Feature`]: `id` (unique in its room), `name`,
//!   `description`, optional `hidden`, `find_dc`, `trap`, `object` and `loot`;
//! - a **trap** ([`crate::state::Trap`]) is a `save` (an ability), its `dc`, and `damage` (half
//!   on a success), with optional `trigger` (`"enter"` the room; `{"area": id}`, a hero moving
//!   into that area of the room in a fight; `{"exit": direction}`, the party leaving by it;
//!   `"touch"`, the default, or `"open"`: `use_object` naming the feature or taking its loot;
//!   `"failed_check"`: any failed disarm, where others go off only on a failure by 5 or more),
//!   `notice_dc` (a passive Perception before narration or when the trigger comes, or a search,
//!   notices it; for a hidden feature that is itself the trap, finding the feature notices it,
//!   and its `find_dc` serves), `disarm` (`dc` and a `skill` or a `tool`, such as `"Thieves'
//!   Tools"`: Dexterity, plus proficiency for a rogue), `condition` and `fall_ft` (on a failed
//!   save; a fall is 1d6 per 10 ft and lands prone), `effects` (story effects, each time it
//!   goes off) and `reset` (it re-arms; otherwise it is spent). A noticed trap is stepped
//!   around, and touching it is refused until it is disarmed. The built-in thin ice:
//!   `{"trigger": {"exit": "north"}, "notice_dc": 13, "save": "dexterity", "dc": 13, "damage":
//!   {"dice": "2d6", "type": "cold"}}`, the way north crossing the mere;
//! - an **object** ([`crate::state::FeatureObject`]) can be attacked (`attack_object`):
//!   `armor_class`, `hit_points`, optional `immune` and `resistant` (damage types) and
//!   `on_broken` (story effects played once it reaches 0 hit points);
//! - **loot** is a list of [`crate::state::ItemStack`]s: `name`, `quantity`, optional `note`;
//! - a **monster** is a [`MonsterSpawn`]: `id` (unique in the adventure), `srd` (an SRD monster
//!   name), optional `name`, `hit_points`, `armor_class` overrides, `hostile` (default true)
//!   `area` (the room's area it stands in when a fight starts; default the first) and
//!   `on_defeat` (story effects the engine plays once it is dead, fled or surrendered);
//! - an **area** is a [`crate::state::Area`], a named place for fights: `id` (unique in its
//!   room), `name`, `x` and `y` in feet along the floor, optional `z` (height above the floor,
//!   default 0: only fliers reach an area above it), `radius_ft` (how far it reaches, 5 to 100,
//!   default 10), `cover` (`half`, `three_quarters` or `total`, against attacks from outside
//!   it) and `difficult_terrain` (moves starting or ending in it cost double). The party stands
//!   in the room's **first** area when a fight starts, so list the way in first. A room
//!   without areas still plays: everyone in it is within 5 ft of everyone else. Distances are
//!   the straight line, height included, rounded to the nearest 5 ft (`combat::positions`).
//!
//! An **NPC** has the fields of a [`crate::state::Npc`] with `room` in place of `location`:
//! `id`, `name`, `description`, `disposition` (`hostile`, `unfriendly`, `indifferent`,
//! `friendly`, `helpful`), `room`, optional `goal`, `goal_revealed`, `goal_steps` (each a
//! `description`, an optional `trigger_flag`, optional `after_minutes` and optional `effects`)
//! and `current_step`. A step moves on by itself after the tool call that sets its trigger flag,
//! or that brings the game clock `after_minutes` past the moment the NPC reached it, and the
//! `effects` of the step the NPC reaches happen then, played by the engine.
//!
//! What an NPC will say and do for the party is data too (`state::social`; the tools
//! `talk_to` and `social_check` play it, and the model never decides success):
//!
//! - `insight_dc` (*optional*, 1 to 30, default 10): an Insight check that reaches it reveals
//!   the NPC's goal, and whether the topic it spoke of last was a lie;
//! - `topics` (*optional*): what it knows, each an `id` (unique for the NPC), `keywords` (at
//!   least one, none empty: the words that raise it), `says`, `needs` (the least attitude at
//!   which it speaks of it; default `indifferent`), optional `lie` (Insight can tell),
//!   `effects` (played the first time it is told) and, on a lie, `exposed` (played the first
//!   time an Insight check sees through it: Wendle Hollow's chandler, caught out, shows the
//!   way below her shop). A topic it will not discuss yet is refused without its contents;
//! - `wants` (*optional*): gifts, each an `item` (a name that lies in the adventure's loot or a
//!   pregenerated pack, or that a `give_item` effect hands over) and `effects` played when it
//!   is given (once);
//! - `requests` (*optional*): what the party may ask of it, each an `id`, `keywords`, a `size`
//!   (`none`, `minor` or `significant`: the risk or cost to the NPC, which with its attitude
//!   sets the DC by the reaction table in `state::social`) and `effects` played when a
//!   Persuasion, Deception or Intimidation check grants it (once):
//!   `{"id": "blessing", "keywords": ["bless"], "size": "none", "effects": [...]}`.
//!
//! A **story effect** is an object with one key, the effect's name
//! ([`crate::state::StoryEffect`]): `reveal_exit` and `unlock_exit` (`room`, `direction`),
//! `reveal_feature` (`room`, `feature`), `give_item` (`item`: a stack, to the hero who acted),
//! `take_item` (`item`, `quantity`), `set_flag` (`flag`, declared in `flags`, and `value`),
//! `attitude` (`npc`, `disposition`), `reveal_goal`, `advance_goal` (`npc`), `move_npc` (`npc`,
//! `room`), `start_fight` (`monsters`: ids) and `end` (`ending`). Each names only what the
//! adventure has, or the file is refused with the effect's path:
//! `{"reveal_exit": {"room": "hall-of-echoes", "direction": "crawlway"}}`.
//!
//! A **puzzle** has `id` (unique), `room` (where it is asked), optional `npc` (who asks it: it
//! is then before the party wherever that NPC stands, and `room` is where the NPC starts),
//! `question` (shown to the model while the party is before it), `answers` (at least one),
//! optional `secret`, `attempts` (wrong answers before it locks for good; no limit without),
//! `on_success` and `on_failure` (story effects; `on_failure` plays on each wrong answer). The
//! model passes the player's words to `answer_puzzle` and the engine judges them forgivingly:
//! case, punctuation, articles and a spoken answer's filler ("the answer is") do not count, nor
//! a plural, nor one typo in a word of five letters or more (`state::puzzle`). The answers
//! never reach the model; narration that says an unsolved answer of two words or more, or any
//! answer of a `secret` puzzle, loses the sentence (`gm::scrub`), so mark a one-word answer
//! `secret` only when narration would not say the word by chance.
//!
//! A **character** is the player's choices, `{"build": {...}}`, a
//! [`crate::character::CharacterChoices`] (the character file's format) that the character
//! builder makes into a sheet by the rules when the adventure loads; a choice the rules refuse
//! is reported at its field (`characters[0].build.skills[1]: "Stealth" is not a Cleric skill
//! ...`). Wendle Hollow's party is written so:
//! `{"build": {"name": "Bram Holloway", "id": "bram", "race": "Human", "class": "Fighter",
//! "level": 2, "scores": {"method": "standard_array", "scores": {...}}, "skills": [...],
//! "features": {"fighter-fighting-style": ["Defense"]}, "equipment": {"kit": [...]}}}`.
//!
//! Or it is a [`Character`] as the state stores it (see the glacier's file for four
//! complete sheets). Skills are snake case (`sleight_of_hand`) with `proficient` or
//! `expertise`; attacks name an ability and damage dice such as `{"dice": "2d6", "type":
//! "slashing"}`, and `"magical": true` for a magic weapon or an attack cantrip (creatures that
//! resist nonmagical attacks take its damage in full). An item (loot or inventory) may carry an
//! `effect` the engine resolves when it is used: `{"coat_weapon": {"extra": {"dice": "1d4",
//! "type": "fire"}}}` coats a weapon until the fight ends (magical, and the extra damage on
//! every hit), as the built-in Hearthfire Oil does. It may carry `magic`, an
//! [`crate::effects::ItemData`]: `kind` (`potion`, `weapon`, `armor`, `shield`, `scroll`,
//! `wondrous`), `use` (effects resolved with the user as the caster: `{"effect": "resistance",
//! "damage_types": ["cold"], "duration": {"minutes": 1}}`, `{"effect": "heal", "dice": ...}`,
//! `{"effect": "temporary_hp", ...}`), `carried` (what it does while carried: a resistance with
//! no duration, `magic_weapon`, `magic_armor`), `consumed` and `per_day` (uses a dawn), as the
//! built-in Flask of Warmth and Rimeheart Amulet do. The SRD's magic items need no `magic`:
//! potions and scrolls are known by name when used, and a "+1 Longsword" or "Chain Mail +2" gets
//! its data when the adventure is built.
//!
//! Every DC is 1 to 30. [`Adventure::from_json`] reports every problem it finds at once, each
//! with a path such as `rooms[ice-chasm].exits[north].to` (lists are indexed by id, direction
//! or name where there is one, by position otherwise).
//!
//! Once nothing else is wrong, the file is refused for content the party could never reach
//! (`adventure::reach`): a room no route leads to from `start` (an exit counts when it can be
//! found: not hidden, a `find_dc`, or a `reveal_exit` effect; and opened: not locked, an
//! `unlock_dc`, an `unlock_exit` effect, or its `key` lying somewhere reachable), a hidden
//! feature or exit with no `find_dc` and no effect revealing it, and an ending no `end` effect
//! names: `rooms[vault]: no route reaches it from the start room "hall": ...`.
//!
//! # Example
//!
//! ```
//! use dnd_engine::adventure::Adventure;
//!
//! let text = r#"{
//!   "title": "The Cellar",
//!   "summary": "Rats in the innkeeper's cellar.",
//!   "start": "stairs",
//!   "rooms": [
//!     {
//!       "id": "stairs", "title": "Cellar Stairs",
//!       "short_description": "Creaking stairs down into the dark.",
//!       "description": "The stairs groan underfoot. Something squeaks below.",
//!       "exits": [{"direction": "down", "to": "cellar"}]
//!     },
//!     {
//!       "id": "cellar", "title": "The Cellar",
//!       "short_description": "Barrels, and a smell of wet fur.",
//!       "description": "Casks line the walls. One has been gnawed open.",
//!       "exits": [
//!         {"direction": "up", "to": "stairs"},
//!         {"direction": "hatch", "to": "stairs", "locked": true, "unlock_dc": 12,
//!          "key": "Brass Key"}
//!       ],
//!       "features": [
//!         {"id": "loose-brick", "name": "Loose brick", "hidden": true, "find_dc": 12,
//!          "description": "Behind it, a brass key.",
//!          "loot": [{"name": "Brass Key", "quantity": 1}]}
//!       ],
//!       "loot": [{"name": "Cheese", "quantity": 1, "note": "slightly gnawed"}],
//!       "monsters": [{"id": "rat-king", "srd": "Giant Rat", "name": "Rat King", "hit_points": 9}]
//!     }
//!   ],
//!   "npcs": [
//!     {"id": "innkeeper", "name": "Old Bess", "description": "Flour to the elbows.",
//!      "disposition": "friendly", "room": "stairs", "goal": "A cellar without rats",
//!      "goal_steps": [{"description": "Waits upstairs", "trigger_flag": "rats_gone"}]}
//!   ],
//!   "flags": {"rats_gone": false},
//!   "characters": [
//!     {"id": "tam", "name": "Tam", "class": "fighter", "level": 1, "race": "human",
//!      "abilities": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 11, "cha": 9},
//!      "skills": {"athletics": "proficient"}, "save_proficiencies": ["strength", "constitution"],
//!      "hp": {"current": 12, "max": 12}, "armor_class": 16, "speed": 30,
//!      "hit_dice": {"sides": 10, "total": 1, "spent": 0},
//!      "attacks": [{"name": "Longsword", "ability": "strength",
//!                   "damage": {"dice": "1d8", "type": "slashing"}, "range_ft": 5}],
//!      "inventory": [{"name": "Chain Mail", "quantity": 1}], "gold": 10}
//!   ]
//! }"#;
//!
//! let adventure = Adventure::from_json(text, "cellar.json").expect("valid");
//! let game = adventure.new_game(&[]).expect("builds");
//! assert_eq!(game.party_location().map(|l| l.id.as_str()), Some("stairs"));
//! assert_eq!(game.monsters[0].name, "Rat King");
//!
//! let broken = text.replace(r#""to": "cellar""#, r#""to": "celar""#);
//! let error = Adventure::from_json(&broken, "cellar.json").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "cellar.json: rooms[stairs].exits[down].to: no room \"celar\"; the rooms are: stairs, cellar"
//! );
//! ```
//!
//! # Example: a puzzle and its effects
//!
//! A door that opens for a word: the answer unlocks it and ends the adventure; a wrong one
//! wakes the door (a flag). Without the puzzle's `on_success` the vault could never be reached
//! and the ending never happen: the file is refused, each problem with its path.
//!
//! ```
//! use dnd_engine::adventure::Adventure;
//!
//! let text = r#"{
//!   "title": "The Star Door",
//!   "start": "hall",
//!   "rooms": [
//!     {"id": "hall", "title": "Hall", "short_description": "A black door.",
//!      "description": "Silver letters turn slowly on the door.",
//!      "exits": [{"direction": "door", "to": "vault", "locked": true}]},
//!     {"id": "vault", "title": "Vault", "short_description": "Stars.",
//!      "description": "The night sky, indoors.",
//!      "exits": [{"direction": "out", "to": "hall"}]}
//!   ],
//!   "flags": {"door_woken": false},
//!   "endings": [{"id": "starlit", "title": "Starlit", "description": "You step into the sky."}],
//!   "puzzles": [
//!     {"id": "star-lock", "room": "hall", "attempts": 3,
//!      "question": "The letters ask: what flows at night and never wets a stone?",
//!      "answers": ["the river of stars", "the milky way"],
//!      "on_success": [{"unlock_exit": {"room": "hall", "direction": "door"}}, {"end": {"ending": "starlit"}}],
//!      "on_failure": [{"set_flag": {"flag": "door_woken", "value": true}}]}
//!   ],
//!   "characters": [
//!     {"id": "tam", "name": "Tam", "class": "fighter", "level": 1, "race": "human",
//!      "abilities": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 11, "cha": 9},
//!      "hp": {"current": 12, "max": 12}, "armor_class": 16, "speed": 30,
//!      "hit_dice": {"sides": 10, "total": 1, "spent": 0}}
//!   ]
//! }"#;
//!
//! let game = Adventure::from_json(text, "door.json").expect("valid").new_game(&[]).unwrap();
//! let snapshot = game.snapshot();
//! assert_eq!(snapshot.puzzles[0].id, "star-lock");
//! assert!(snapshot.puzzles[0].question.ends_with("never wets a stone?"));
//! assert!(!snapshot.to_json().contains("river of stars"), "the answers stay in the engine");
//!
//! let success = r#"[{"unlock_exit": {"room": "hall", "direction": "door"}}, {"end": {"ending": "starlit"}}]"#;
//! let error = Adventure::from_json(&text.replace(success, "[]"), "door.json").unwrap_err();
//! let problems: Vec<String> = error.problems.iter().map(|p| p.to_string()).collect();
//! assert_eq!(problems, [
//!     "rooms[vault]: no route reaches it from the start room \"hall\": rooms[hall].exits[door] is locked, with no key, no unlock_dc and no unlock_exit effect",
//!     "endings[starlit]: no `end` effect reaches this ending; end the adventure with {\"end\": {\"ending\": ...}} in a goal step, a puzzle's on_success or a monster's on_defeat",
//! ]);
//! ```

mod build;
// The built-in adventures are written for the bundled SRD's monsters and spells.
#[cfg(feature = "bundled-srd")]
mod built_in;
mod decode;
mod error;
mod puzzle_checks;
mod reach;
mod schema;
mod story_checks;
mod trap_checks;
mod validate;

pub use error::{AdventureError, Problem};
pub use schema::{SCHEMA_FILE, json_schema};

use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::state::{Area, Character, Disposition, Exit, Feature, GameState, GoalStep, ItemStack};

/// An adventure: the places, monsters, people and pregenerated characters a campaign starts
/// from. Build one with [`Adventure::from_json`] (which validates), then start a game with
/// [`Adventure::new_game`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Adventure {
    /// The adventure's name ("The Wailing Glacier").
    pub title: String,
    /// The premise, for the game master; it becomes the campaign summary.
    #[serde(default)]
    pub summary: String,
    /// The id of the room the party starts in.
    pub start: String,
    /// The rooms.
    pub rooms: Vec<Room>,
    /// Non-player characters.
    #[serde(default)]
    pub npcs: Vec<AdventureNpc>,
    /// World flags at the start.
    #[serde(default)]
    pub flags: BTreeMap<String, serde_json::Value>,
    /// Pregenerated characters (their `location` is ignored: they start in `start`).
    #[serde(default, deserialize_with = "decode::pregenerated_characters")]
    #[schemars(schema_with = "schema::characters")]
    pub characters: Vec<Character>,
    /// How the characters gain levels.
    #[serde(default, skip_serializing_if = "LevellingMode::is_xp")]
    pub levelling: LevellingMode,
    /// The milestones, for milestone levelling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub milestones: Vec<AdventureMilestone>,
    /// The ways the adventure can end, reached by a story effect `{"end": {"ending": id}}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endings: Vec<crate::state::Ending>,
    /// Riddles and word-locks, judged by the engine (`answer_puzzle`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub puzzles: Vec<crate::state::Puzzle>,
    /// Where an editor finds the format's JSON Schema (`"$schema": "adventure.schema.json"`);
    /// the engine ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
}

/// How an adventure's characters gain levels (its `levelling` field).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LevellingMode {
    /// By the SRD's XP table.
    #[default]
    Xp,
    /// At the adventure's milestones.
    Milestone,
}

impl LevellingMode {
    /// Whether it is [`LevellingMode::Xp`] (for serde's `skip_serializing_if`).
    pub fn is_xp(&self) -> bool {
        *self == LevellingMode::Xp
    }
}

/// A milestone of an adventure: a flag set or a room entered grants every living character a
/// level (milestone levelling). It becomes a [`crate::state::Milestone`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdventureMilestone {
    /// Stable id, unique in the adventure.
    pub id: String,
    /// The flag whose setting reaches it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The room whose entering reaches it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
}

/// One room of an adventure; it becomes a [`crate::state::Location`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Room {
    /// Stable id, unique in the adventure ("ice-chasm").
    pub id: String,
    /// Title ("The Ice Chasm").
    pub title: String,
    /// One line, for the snapshot.
    pub short_description: String,
    /// The full description.
    pub description: String,
    /// Ways out.
    #[serde(default)]
    pub exits: Vec<Exit>,
    /// Things worth a look: objects, secrets, traps.
    #[serde(default)]
    pub features: Vec<Feature>,
    /// Items lying in the open.
    #[serde(default)]
    pub loot: Vec<ItemStack>,
    /// Monsters that start here.
    #[serde(default)]
    pub monsters: Vec<MonsterSpawn>,
    /// Named places in the room, with coordinates, cover and terrain (optional).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<Area>,
    /// How lit it is: "bright" (the default), "dim" or "dark". In darkness a creature without
    /// darkvision is effectively blinded.
    #[serde(default, skip_serializing_if = "crate::state::Light::is_bright")]
    pub light: crate::state::Light,
}

/// A monster placed in a room, built from an SRD stat block with optional overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MonsterSpawn {
    /// Stable id, unique in the adventure ("frost-harpy").
    pub id: String,
    /// The SRD monster's name ("Harpy"), in any case.
    pub srd: String,
    /// The name shown, if not the SRD's ("Frost Harpy").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Hit point maximum, if not the SRD's average.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_points: Option<u32>,
    /// Armor Class, if not the SRD's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor_class: Option<i32>,
    /// Whether it fights the party on sight.
    #[serde(default = "yes")]
    pub hostile: bool,
    /// The id of the room's area it stands in when a fight starts (default: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    /// What happens once it is out of the fight (dead, fled or surrendered): story effects
    /// the engine plays once (`{"set_flag": {"flag": "harpy_defeated", "value": true}}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_defeat: Vec<crate::state::StoryEffect>,
}

fn yes() -> bool {
    true
}

/// A non-player character of an adventure: a [`crate::state::Npc`] with `room` in place of
/// `location`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdventureNpc {
    /// Stable id, unique in the adventure.
    pub id: String,
    /// Name.
    pub name: String,
    /// What the party sees.
    pub description: String,
    /// Attitude towards the party at the start.
    pub disposition: Disposition,
    /// The id of the room it is in.
    pub room: String,
    /// What it wants (kept from the LLM until revealed).
    #[serde(default)]
    pub goal: String,
    /// Whether the party knows the goal from the start.
    #[serde(default)]
    pub goal_revealed: bool,
    /// The steps towards its goal, each passed when its trigger flag is set.
    #[serde(default)]
    pub goal_steps: Vec<GoalStep>,
    /// The step it starts at (0 unless the story began earlier).
    #[serde(default)]
    pub current_step: usize,
    /// The DC of an Insight check to read it: its goal, or whether its last claim was a lie
    /// (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insight_dc: Option<i32>,
    /// What it knows and will tell, each at an attitude.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<crate::state::social::Topic>,
    /// The gifts it wants, and what giving each does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wants: Vec<crate::state::social::Want>,
    /// What the party may ask of it, granted on a successful check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<crate::state::social::Request>,
}

/// The largest adventure read by [`Adventure::load`] and [`Adventure::from_json`], in bytes
/// (4 MiB): the built-in five-room adventure is about 22 KB, and everything in an adventure is
/// kept in every campaign's state.
pub const ADVENTURE_MAX_BYTES: usize = 4 << 20;

/// An adventure over the bound; `size` is `None` when reading stopped at the bound.
fn too_large(source_name: &str, size: Option<usize>, max_bytes: usize) -> AdventureError {
    let size = size.map_or_else(
        || format!("more than {max_bytes} bytes"),
        |size| format!("{size} bytes"),
    );
    AdventureError::one(
        source_name,
        "",
        format!(
            "the adventure is {size} long; at most {max_bytes} are read (Adventure::load_with_limit reads larger ones)"
        ),
    )
}

impl Adventure {
    /// Every item stack lying in its rooms: room loot, then each feature's loot, room by room.
    pub fn loot(&self) -> impl Iterator<Item = &ItemStack> {
        self.rooms.iter().flat_map(|r| {
            r.loot
                .iter()
                .chain(r.features.iter().flat_map(|f| f.loot.iter()))
        })
    }

    /// Parses and validates an adventure on the bundled SRD (feature `bundled-srd`; see
    /// [`Adventure::from_json_on`] for another). `source_name` (usually the file name) starts
    /// every line of the error, which lists every problem found, not only the first.
    ///
    /// Text over [`ADVENTURE_MAX_BYTES`] is refused before it is parsed; to read larger ones,
    /// use [`Adventure::from_json_with_limit`] or [`Adventure::load_with_limit`].
    #[cfg(feature = "bundled-srd")]
    pub fn from_json(text: &str, source_name: &str) -> Result<Adventure, AdventureError> {
        Adventure::from_json_with_limit(text, source_name, ADVENTURE_MAX_BYTES)
    }

    /// [`Adventure::from_json`] with another bound on the text's size, in bytes.
    #[cfg(feature = "bundled-srd")]
    pub fn from_json_with_limit(
        text: &str,
        source_name: &str,
        max_bytes: usize,
    ) -> Result<Adventure, AdventureError> {
        Adventure::from_json_on(crate::srd::Srd::bundled(), text, source_name, max_bytes)
    }

    /// Parses and validates an adventure whose monsters, spells and items are `srd`'s (a
    /// 5e-database SRD, homebrew), refusing text over `max_bytes`; characters given as builder
    /// choices are built on `srd`. Otherwise as [`Adventure::from_json`].
    pub fn from_json_on(
        srd: &crate::srd::Srd,
        text: &str,
        source_name: &str,
        max_bytes: usize,
    ) -> Result<Adventure, AdventureError> {
        if text.len() > max_bytes {
            return Err(too_large(source_name, Some(text.len()), max_bytes));
        }
        Adventure::parse(srd, text, source_name)
    }

    fn parse(
        srd: &crate::srd::Srd,
        text: &str,
        source_name: &str,
    ) -> Result<Adventure, AdventureError> {
        let mut problems = Vec::new();
        let decoded = decode::decode(text, srd, &mut problems);
        if let Some((adventure, raw_room_ids)) = &decoded {
            validate::check(adventure, srd, raw_room_ids, &mut problems);
            story_checks::check(adventure, &mut problems);
            trap_checks::check(adventure, &mut problems);
            puzzle_checks::check(adventure, &mut problems);
            if problems.is_empty() {
                reach::check(adventure, &mut problems);
            }
        }
        match decoded {
            Some((adventure, _)) if problems.is_empty() => Ok(adventure),
            _ => Err(AdventureError {
                source_name: source_name.to_owned(),
                problems,
            }),
        }
    }

    /// Reads and validates an adventure file of at most [`ADVENTURE_MAX_BYTES`] on the bundled
    /// SRD (feature `bundled-srd`; see [`Adventure::load_on`]); a file that cannot be read, or
    /// is larger, is an error naming its path.
    #[cfg(feature = "bundled-srd")]
    pub fn load(path: impl AsRef<Path>) -> Result<Adventure, AdventureError> {
        Adventure::load_with_limit(path, ADVENTURE_MAX_BYTES)
    }

    /// [`Adventure::load`] with another bound on the file's size, in bytes. The file is never
    /// read past the bound, so a huge file or one that never ends costs no memory.
    #[cfg(feature = "bundled-srd")]
    pub fn load_with_limit(
        path: impl AsRef<Path>,
        max_bytes: usize,
    ) -> Result<Adventure, AdventureError> {
        Adventure::load_on(crate::srd::Srd::bundled(), path, max_bytes)
    }

    /// [`Adventure::load_with_limit`] on `srd` (see [`Adventure::from_json_on`]).
    pub fn load_on(
        srd: &crate::srd::Srd,
        path: impl AsRef<Path>,
        max_bytes: usize,
    ) -> Result<Adventure, AdventureError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let text = crate::files::read_text_limited(path, max_bytes).map_err(|e| {
            if e.kind() == std::io::ErrorKind::FileTooLarge {
                too_large(&name, None, max_bytes)
            } else {
                AdventureError::one(&name, "", format!("cannot read the file: {e}"))
            }
        })?;
        Adventure::parse(srd, &text, &name)
    }

    /// Checks an adventure built or changed in code, with the same rules as
    /// [`Adventure::from_json`], on the bundled SRD (feature `bundled-srd`).
    #[cfg(feature = "bundled-srd")]
    pub fn validate(&self, source_name: &str) -> Result<(), AdventureError> {
        self.validate_on(crate::srd::Srd::bundled(), source_name)
    }

    /// [`Adventure::validate`] on `srd`: its monsters and spells must be `srd`'s.
    pub fn validate_on(
        &self,
        srd: &crate::srd::Srd,
        source_name: &str,
    ) -> Result<(), AdventureError> {
        let mut problems = Vec::new();
        validate::check(self, srd, &[], &mut problems);
        story_checks::check(self, &mut problems);
        trap_checks::check(self, &mut problems);
        puzzle_checks::check(self, &mut problems);
        if problems.is_empty() {
            reach::check(self, &mut problems);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(AdventureError {
                source_name: source_name.to_owned(),
                problems,
            })
        }
    }

    /// Starts a campaign: the pregenerated characters with these ids (all of them for an empty
    /// slice) in the start room, monsters from their SRD stat blocks at full hit points and not
    /// yet seen, the rooms as locations (the start room visited), the NPCs, the flags, day 1 at
    /// 08:00, exploring. An unknown id is an error listing the valid ones. On the bundled SRD
    /// (feature `bundled-srd`; see [`Adventure::new_game_on`]).
    #[cfg(feature = "bundled-srd")]
    pub fn new_game(&self, party: &[&str]) -> Result<GameState, AdventureError> {
        build::new_game(self, crate::srd::Srd::bundled_shared(), party)
    }

    /// [`Adventure::new_game`] on `srd`: its stat blocks and magic items are `srd`'s, and the
    /// state plays on it ([`GameState::srd`]).
    pub fn new_game_on(
        &self,
        srd: std::sync::Arc<crate::srd::Srd>,
        party: &[&str],
    ) -> Result<GameState, AdventureError> {
        build::new_game(self, srd, party)
    }

    /// How the campaign's characters will gain levels: by XP, or at these milestones.
    pub fn levelling(&self) -> crate::state::Levelling {
        match self.levelling {
            LevellingMode::Xp => crate::state::Levelling::Xp,
            LevellingMode::Milestone => crate::state::Levelling::Milestone {
                milestones: self
                    .milestones
                    .iter()
                    .map(|m| crate::state::Milestone {
                        id: m.id.clone(),
                        flag: m.flag.clone(),
                        room: m.room.clone(),
                        reached: false,
                    })
                    .collect(),
            },
        }
    }

    /// The ids of the pregenerated characters.
    pub fn character_ids(&self) -> Vec<&str> {
        self.characters.iter().map(|c| c.id.as_str()).collect()
    }

    /// A room by id.
    pub fn room(&self, id: &str) -> Option<&Room> {
        self.rooms.iter().find(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests;
