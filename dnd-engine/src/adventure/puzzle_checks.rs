//! The checks on an adventure's puzzles: ids unique, the room and the NPC real, a question,
//! answers that still say something once filler words are dropped, at least one attempt
//! when attempts are limited, and effects that name what the adventure has.

use std::collections::BTreeSet;

use super::{Adventure, Problem, story_checks};
use crate::state::answer_words;

/// Appends the problems of every puzzle.
pub(super) fn check(adventure: &Adventure, problems: &mut Vec<Problem>) {
    let mut seen = BTreeSet::new();
    for (i, p) in adventure.puzzles.iter().enumerate() {
        let path = if p.id.trim().is_empty() {
            problems.push(Problem::new(
                format!("puzzles[{i}].id"),
                "a puzzle needs an id (\"sphinx-riddle\")",
            ));
            format!("puzzles[{i}]")
        } else {
            format!("puzzles[{}]", p.id)
        };
        if !p.id.is_empty() && !seen.insert(p.id.as_str()) {
            problems.push(Problem::new(
                format!("{path}.id"),
                format!("the puzzle id {:?} is used twice; ids are unique", p.id),
            ));
        }
        if adventure.room(&p.room).is_none() {
            let ids: Vec<&str> = adventure.rooms.iter().map(|r| r.id.as_str()).collect();
            problems.push(Problem::new(
                format!("{path}.room"),
                format!("no room {:?}; the rooms are: {}", p.room, ids.join(", ")),
            ));
        }
        if let Some(npc) = &p.npc {
            match adventure.npcs.iter().find(|n| &n.id == npc) {
                None => {
                    let ids: Vec<&str> = adventure.npcs.iter().map(|n| n.id.as_str()).collect();
                    problems.push(Problem::new(
                        format!("{path}.npc"),
                        format!("no NPC {npc:?}; the NPCs are: {}", ids.join(", ")),
                    ));
                }
                Some(n) if n.room != p.room => problems.push(Problem::new(
                    format!("{path}.room"),
                    format!(
                        "the puzzle is asked by {npc}, who starts in {:?}; give that room",
                        n.room
                    ),
                )),
                Some(_) => {}
            }
        }
        if p.question.trim().is_empty() {
            problems.push(Problem::new(
                format!("{path}.question"),
                "a puzzle needs the question the party is asked",
            ));
        }
        if p.answers.is_empty() {
            problems.push(Problem::new(
                format!("{path}.answers"),
                "a puzzle needs at least one accepted answer",
            ));
        }
        for (j, answer) in p.answers.iter().enumerate() {
            if answer_words(answer).is_empty() {
                problems.push(Problem::new(
                    format!("{path}.answers[{j}]"),
                    format!(
                        "{answer:?} has no words left once articles and filler (\"the\", \"is\", \"it\") are dropped, so nothing could match it"
                    ),
                ));
            }
        }
        if p.attempts == Some(0) {
            problems.push(Problem::new(
                format!("{path}.attempts"),
                "0 attempts would lock the puzzle before anyone answers; give 1 or more, or leave it out for no limit",
            ));
        }
        story_checks::effects(
            adventure,
            &p.on_success,
            &format!("{path}.on_success"),
            problems,
        );
        story_checks::effects(
            adventure,
            &p.on_failure,
            &format!("{path}.on_failure"),
            problems,
        );
    }
}
