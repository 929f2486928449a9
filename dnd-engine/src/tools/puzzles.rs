//! `answer_puzzle`: the player's answer to a riddle or a word-lock, judged by the engine.
//!
//! The model passes the player's words as they were said; the engine compares them with the
//! adventure's accepted answers (forgivingly, `state::puzzle`), records the attempt and plays
//! the puzzle's `on_success` or `on_failure` effects. The answers never reach the model: the
//! result says only whether the words were right, and a refusal names only the puzzles the
//! party stands before.

use schemars::JsonSchema;
use serde::Deserialize;

use super::items::character;
use super::results::PuzzleAnswered;
use super::{ToolContext, ToolError};
use crate::state::Change;

/// Arguments of `answer_puzzle`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerPuzzleArgs {
    /// Who answers: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The puzzle's id, as the state lists it under `puzzles`.
    #[schemars(extend("description" = ""))]
    pub puzzle: String,
    /// The player's words, as said ("is it the glacier?"): never your own guess.
    #[schemars(description = "The player's words, as said.")]
    pub answer: String,
}

pub(super) fn answer_puzzle(
    args: AnswerPuzzleArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<PuzzleAnswered, ToolError> {
    let hero = character(ctx, &args.character)?;
    if hero.dead || hero.hp.current == 0 {
        return Err(ToolError::new(format!(
            "{} is down and cannot answer; a hero standing must",
            hero.name
        )));
    }
    let (hero_id, hero_name) = (hero.id.clone(), hero.name.clone());
    let state = &*ctx.state;
    let here: Vec<&str> = state.puzzles_here().iter().map(|p| p.id.as_str()).collect();
    let Some(puzzle) = state
        .story
        .puzzles
        .iter()
        .find(|p| p.id == args.puzzle && here.contains(&p.id.as_str()))
    else {
        // Solved or locked puzzles are the party's own history; any other id is answered the
        // same way whether it exists or not, so a guess learns nothing.
        let tries = state.puzzle_tries(&args.puzzle);
        let known = state.story.puzzles.iter().find(|p| p.id == args.puzzle);
        let why = match known {
            Some(_) if tries.solved => format!("the puzzle {:?} is already solved", args.puzzle),
            Some(p) if p.attempts_left(tries) == Some(0) => format!(
                "the puzzle {:?} has no attempts left: it stays unsolved",
                args.puzzle
            ),
            _ => format!("no puzzle {:?} before the party here", args.puzzle),
        };
        let open = if here.is_empty() {
            "no puzzle is before the party".to_owned()
        } else {
            format!("the puzzles before the party are: {}", here.join(", "))
        };
        return Err(ToolError::new(format!("{why}; {open}")));
    };
    if args.answer.trim().is_empty() {
        return Err(ToolError::new(
            "the answer is empty: pass the player's words as they said them",
        ));
    }
    let puzzle = puzzle.clone();
    let solved = puzzle.accepts(&args.answer);
    ctx.commit(vec![Change::PuzzleAnswered {
        puzzle: puzzle.id.clone(),
        solved,
    }])?;
    let effects = if solved {
        &puzzle.on_success
    } else {
        &puzzle.on_failure
    };
    let story = super::story::play(ctx, effects, Some(&hero_id))?;
    let left = puzzle.attempts_left(ctx.state.puzzle_tries(&puzzle.id));
    Ok(PuzzleAnswered {
        character: hero_name,
        puzzle: puzzle.id,
        solved,
        attempts_left: if solved { None } else { left },
        locked: !solved && left == Some(0),
        story,
    })
}
