//! The story tools from the player's words: a word with an NPC (`talk_to`, a topic or a gift),
//! a social check (`social_check`), an answer to a puzzle (`answer_puzzle`), a trap disarmed
//! (`disarm_trap`) and an object attacked (`attack_object`).
//!
//! Nothing here knows an adventure: the NPCs, puzzles and features are those the request shows,
//! and the engine decides what the words do (a topic told, a gift wanted, an answer right, a
//! check won). Each is one round of calls, then the narration.

use serde_json::{Value, json};

use super::intent::Sway;
use super::plan::{Next, once, refuse};
use super::view::{Feature, Item, Npc, Turn};
use super::words::{best, keys, mentions, words};
use crate::tools::names as tool;

/// The NPC the words name (by name or id), else the first one here.
fn addressed<'a>(turn: &'a Turn, said: &str) -> Option<&'a Npc> {
    let npcs = &turn.now.npcs;
    best(
        said,
        npcs.iter().map(|n| (n, vec![n.name.clone(), n.id.clone()])),
    )
    .or_else(|| npcs.first())
}

/// The words after the first lead word (`leads`: "to", "about") that follows the NPC's name:
/// "persuade the warden to open the gate" → "open the gate".
fn after_name(said: &str, npc: &Npc, leads: &[&str]) -> Option<String> {
    let tokens = words(said);
    let name = keys(&npc.name);
    let from = tokens
        .iter()
        .position(|t| name.iter().any(|n| t.starts_with(n.as_str())))
        .map_or(0, |i| i + 1);
    let rest = &tokens[from..];
    let at = rest.iter().position(|t| leads.contains(&t.as_str()))?;
    let phrase: Vec<&str> = rest[at + 1..]
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "the" | "a" | "an" | "me" | "us"))
        .collect();
    (!phrase.is_empty()).then(|| phrase.join(" "))
}

/// "talk to X", "ask X about Y", "I answer X: words".
pub(crate) fn talk(turn: &Turn, hero: &str, said: &str) -> Next {
    let now = &turn.now;
    let Some(npc) = addressed(turn, said) else {
        return refuse("Your words fall into silence; no one here answers.");
    };
    let who = now.hero(hero).map_or(hero, |h| h.name.as_str());
    // The words after the colon are the answer ("I answer the sphinx: a shadow"): passed as
    // said, and judged by the engine, to the puzzle this NPC asks (or the one here).
    let answering = mentions(said, "answer") || mentions(said, "solve");
    let puzzle = now
        .puzzles
        .iter()
        .find(|p| p.asked_by.as_deref() == Some(npc.name.as_str()))
        .or_else(|| now.puzzles.first());
    if answering && let Some(puzzle) = puzzle {
        let answer = match said.split_once(':') {
            Some((_, a)) => a.trim().to_owned(),
            None => answer_in(said, npc),
        };
        return once(turn, || {
            vec![(
                tool::ANSWER_PUZZLE,
                json!({"character": hero, "puzzle": puzzle.id, "answer": answer}),
            )]
        });
    }
    let topic = after_name(said, npc, &["about", "of"]);
    once(turn, || {
        vec![
            (
                tool::TALK_TO,
                json!({"character": hero, "npc": npc.name, "topic": topic, "give": null}),
            ),
            (
                tool::LOG_STORY_EVENT,
                json!({"kind": "social", "text": format!("{who} spoke with {}.", npc.name)}),
            ),
        ]
    })
}

/// The answer in words with no colon: what follows "answer" or "solve", without the name of
/// the one asked nor the words that say whom ("I answer the sphinx's riddle with shadow" →
/// "shadow").
fn answer_in(said: &str, npc: &Npc) -> String {
    let tokens = words(said);
    let from = tokens
        .iter()
        .position(|t| t == "answer" || t == "solve")
        .map_or(0, |i| i + 1);
    // The name's significant words ("sphinx"), and the "s" of "the sphinx's".
    let name = keys(&npc.name);
    tokens[from..]
        .iter()
        .filter(|t| {
            !name.contains(t)
                && !matches!(
                    t.as_str(),
                    "s" | "to"
                        | "with"
                        | "riddle"
                        | "puzzle"
                        | "question"
                        | "her"
                        | "his"
                        | "their"
                )
        })
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// "give the X to Y": `talk_to` with the item; whether Y wants it is the engine's to say.
pub(crate) fn give(turn: &Turn, hero: &str, said: &str) -> Next {
    let now = &turn.now;
    let Some(npc) = addressed(turn, said) else {
        return refuse("There is no one here by that name to give it to.");
    };
    let items: Vec<&Item> = now
        .hero(hero)
        .map(|h| h.items.iter().collect())
        .unwrap_or_default();
    let Some(item) = best(said, items.iter().map(|i| (*i, vec![i.name.clone()]))) else {
        return refuse("You carry nothing like that to give.");
    };
    let who = now.hero(hero).map_or(hero, |h| h.name.as_str());
    once(turn, || {
        vec![
            (
                tool::TALK_TO,
                json!({"character": hero, "npc": npc.name, "topic": null, "give": item.name}),
            ),
            (
                tool::LOG_STORY_EVENT,
                json!({"kind": "social", "text": format!("{who} offered the {} to {}.", item.name, npc.name)}),
            ),
        ]
    })
}

/// Persuasion, deception, intimidation or insight at an NPC here.
pub(crate) fn social(turn: &Turn, hero: &str, skill: Sway, said: &str) -> Next {
    let Some(npc) = addressed(turn, said) else {
        return refuse("There is no one here to win over.");
    };
    let request = match skill {
        Sway::Insight => None,
        // A threat demands something: the words themselves when they name nothing.
        Sway::Intimidation => after_name(said, npc, &["to", "into"]).or_else(|| Some(said.into())),
        _ => after_name(said, npc, &["to", "into"]),
    };
    // The NPC's own requests keep their size; anything else asked costs it a little.
    let size = request.as_ref().map(|_| "minor");
    once(turn, || {
        vec![(
            tool::SOCIAL_CHECK,
            json!({"character": hero, "npc": npc.name, "skill": skill.name(),
                   "request": request, "size": size, "advantage": null}),
        )]
    })
}

/// The room's feature the words name, else the first one `fallback` picks.
fn feature<'a>(
    turn: &'a Turn,
    phrase: Option<&str>,
    fallback: impl Fn(&Feature) -> bool,
) -> Option<&'a Feature> {
    let features = &turn.now.room.features;
    match phrase {
        Some(p) => best(
            p,
            features.iter().map(|f| {
                let mut names = vec![f.name.clone()];
                names.extend(f.id.clone());
                (f, names)
            }),
        ),
        None => features.iter().find(|f| fallback(f)),
    }
}

/// "disarm the X": a trap the party knows of, here.
pub(crate) fn disarm(turn: &Turn, hero: &str, phrase: Option<&str>) -> Next {
    let Some(f) = feature(turn, phrase, |f| f.trapped) else {
        return refuse("You know of no trap here to disarm.");
    };
    once(turn, || {
        vec![(
            tool::DISARM_TRAP,
            json!({"character": hero, "feature": f.name}),
        )]
    })
}

/// "attack the X" where X is no creature but a thing here: `attack_object`, `None` when the
/// words name no feature of the room.
pub(crate) fn break_object(turn: &Turn, hero: &str, phrase: &str) -> Option<Next> {
    let f = feature(turn, Some(phrase), |_| false)?;
    Some(once(turn, || {
        vec![(
            tool::ATTACK_OBJECT,
            json!({"attacker": hero, "object": f.name, "attack": Value::Null}),
        )]
    }))
}
