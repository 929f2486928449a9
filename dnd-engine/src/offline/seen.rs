//! What the player at the table knows of the world: the offline player decides from this view
//! only, never from the adventure's hidden data (a trap not noticed, a goal not revealed, a
//! puzzle's answers, an NPC's wants).
//!
//! Most of it is the state block the game master gets (`GameState::snapshot`: the room, its
//! known features, exits and loot, the NPCs here with their attitude and revealed goal, the
//! puzzles before the party). The rest is what a tool has shown the party, read from the
//! state with the same filter the tool applies: the topics an NPC will speak of at its
//! attitude and how many it keeps back (`talk_to`), what it has said (`talk_to`'s `says`), the
//! traps the party knows of (`get_room_details`' `trapped`), the objects it can attack
//! (`hit_points`), and every text the party has read (rooms visited, features found, NPCs
//! met), from which a riddle's candidate answers are drawn.

use std::collections::{BTreeMap, BTreeSet};

use crate::state::{Disposition, GameState, PuzzleView};

/// An NPC where the party is, as the party knows it.
#[derive(Debug, Clone)]
pub(super) struct Person {
    pub id: String,
    pub name: String,
    /// How it looks (`get_room_details` shows it).
    pub description: String,
    pub attitude: Disposition,
    /// Its goal, once revealed.
    pub goal: Option<String>,
    /// The topics it will speak of now, by their first word and id.
    pub topics: Vec<(String, String)>,
    /// The ids of the topics it has told.
    pub told: BTreeSet<String>,
    /// What it has said.
    pub said: Vec<String>,
    /// How many topics it keeps back until it is friendlier.
    pub locked: usize,
}

/// A known feature of the room here.
#[derive(Debug, Clone)]
pub(super) struct Thing {
    pub name: String,
    /// Whether the party knows it holds an armed trap.
    pub trapped: bool,
    /// Whether it is an object that can be attacked and is not broken yet.
    pub breakable: bool,
    /// Whether there is loot on it.
    pub loot: bool,
}

/// The player's view.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    pub people: Vec<Person>,
    pub things: Vec<Thing>,
    pub puzzles: Vec<PuzzleView>,
    /// Everything any NPC has told the party (`talk_to`'s `says`), wherever it was.
    pub heard: Vec<String>,
}

impl Seen {
    /// What the party knows now.
    pub fn of(state: &GameState) -> Seen {
        let snapshot = state.snapshot();
        let people = snapshot
            .npcs
            .iter()
            .map(|n| {
                let social = state.story.social.get(&n.id).cloned().unwrap_or_default();
                let open = |needs: Disposition| needs <= n.disposition;
                Person {
                    id: n.id.clone(),
                    name: n.name.clone(),
                    description: state
                        .npc(&n.id)
                        .map(|npc| npc.description.clone())
                        .unwrap_or_default(),
                    attitude: n.disposition,
                    goal: n.goal.clone(),
                    topics: social
                        .topics
                        .iter()
                        .filter(|t| open(t.needs))
                        .map(|t| {
                            let word = t.keywords.first().cloned().unwrap_or_default();
                            (word, t.id.clone())
                        })
                        .collect(),
                    told: social.progress.told.clone(),
                    said: social
                        .topics
                        .iter()
                        .filter(|t| social.progress.told.contains(&t.id))
                        .map(|t| t.says.clone())
                        .collect(),
                    locked: social.topics.iter().filter(|t| !open(t.needs)).count(),
                }
            })
            .collect();
        let things = state
            .party_location()
            .map(|l| {
                l.features
                    .iter()
                    .filter(|f| f.is_known())
                    .map(|f| Thing {
                        name: f.name.clone(),
                        trapped: f.trap_known() && f.trap_armed(),
                        breakable: f
                            .object
                            .as_ref()
                            .is_some_and(|o| o.damage_taken < o.hit_points),
                        loot: !f.loot.is_empty(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let puzzles = snapshot.puzzles.clone();
        let heard = state
            .story
            .social
            .values()
            .flat_map(|s| {
                s.topics
                    .iter()
                    .filter(|t| s.progress.told.contains(&t.id))
                    .map(|t| t.says.clone())
            })
            .collect();
        Seen {
            heard,
            people,
            things,
            puzzles,
        }
    }
}

/// Words too common to be anyone's answer.
const COMMON: &[&str] = &[
    "the",
    "and",
    "for",
    "from",
    "with",
    "into",
    "over",
    "under",
    "that",
    "this",
    "these",
    "those",
    "but",
    "not",
    "its",
    "his",
    "her",
    "hers",
    "their",
    "them",
    "they",
    "you",
    "your",
    "are",
    "was",
    "were",
    "been",
    "being",
    "has",
    "have",
    "had",
    "will",
    "would",
    "can",
    "could",
    "than",
    "then",
    "there",
    "here",
    "where",
    "when",
    "while",
    "what",
    "who",
    "whom",
    "which",
    "only",
    "once",
    "more",
    "most",
    "some",
    "each",
    "every",
    "never",
    "too",
    "very",
    "just",
    "all",
    "any",
    "one",
    "out",
    "off",
    "onto",
    "upon",
    "like",
    "through",
    "across",
    "something",
    "someone",
    "anyone",
    "nothing",
    "look",
    "looks",
    "even",
    "ever",
    "also",
    "again",
    "long",
    "she",
    "him",
    "our",
    "who",
    "how",
    "why",
    "yet",
    "now",
    "down",
];

/// The significant words of a text: lower case, three letters or more, no common word.
pub(super) fn significant(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 3)
        .map(str::to_lowercase)
        .filter(|w| !COMMON.contains(&w.as_str()))
        .collect()
}

/// Candidate answers to `question`, best first: the words of every text the party has read,
/// by how often they came up (ties alphabetical), leaving out common words, the question's
/// own words and the names of the people and heroes. No answer is known by name: the engine
/// judges each one.
pub(super) fn candidates(state: &GameState, seen: &Seen, question: &str) -> Vec<String> {
    let mut texts: Vec<&str> = Vec::new();
    for l in state.locations.iter().filter(|l| l.visited) {
        texts.push(&l.title);
        texts.push(&l.description);
        for f in l.features.iter().filter(|f| f.is_known()) {
            texts.push(&f.name);
            texts.push(&f.description);
        }
        for n in state.npcs.iter().filter(|n| n.location == l.id) {
            texts.push(&n.description);
        }
    }
    for p in &seen.people {
        texts.extend(p.said.iter().map(String::as_str));
        texts.extend(p.goal.as_deref());
    }
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 3)
            .map(str::to_lowercase)
            .collect()
    };
    let mut left_out: BTreeSet<String> = words(question).into_iter().collect();
    for name in seen
        .people
        .iter()
        .map(|p| p.name.as_str())
        .chain(state.characters.iter().map(|c| c.name.as_str()))
    {
        left_out.extend(words(name));
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for text in texts {
        for w in words(text) {
            if !COMMON.contains(&w.as_str()) && !left_out.contains(&w) {
                *counts.entry(w).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked.into_iter().map(|(w, _)| w).collect()
}
