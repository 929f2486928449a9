//! The offline player decides from what the party knows: it stops at an ending, answers a
//! riddle with the words it has read, gives what a revealed goal asks for, and never acts on
//! what is hidden.

use std::sync::Arc;

use super::*;
use crate::adventure::Adventure;
use crate::state::GameState;

fn game_in(room: &str) -> GameState {
    let adventure = Adventure::built_in();
    let mut state = adventure.new_game(&["kraven"]).unwrap();
    Arc::make_mut(&mut state.characters)[0].location = room.into();
    for l in Arc::make_mut(&mut state.locations).iter_mut() {
        l.visited = l.id == room || l.id == adventure.start;
    }
    state
}

/// What the player says in a row on an unchanging state, up to walking on (the state does
/// not move, so it would say that again and again).
fn says(player: &mut OfflinePlayer, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(input) = player.next_input(None, state) {
        let walks = input.text.starts_with("I go");
        out.push(input.text);
        assert!(out.len() < 60, "{out:?}");
        if walks {
            break;
        }
    }
    out
}

#[test]
fn the_player_stops_once_the_adventure_has_ended() {
    let mut state = game_in("hall-of-echoes");
    let mut player = OfflinePlayer::new("kraven");
    assert!(player.next_input(None, &state).is_some());
    let ending = state.story.endings.first().map(|e| e.id.clone());
    Arc::make_mut(&mut state.story).ended = ending;
    assert!(state.story.ended.is_some());
    assert!(player.next_input(None, &state).is_none());
}

#[test]
fn the_player_greets_asks_answers_with_read_words_and_gives_what_a_goal_names() {
    let mut state = game_in("hall-of-echoes");
    let mut player = OfflinePlayer::new("kraven");
    let said = says(&mut player, &state);
    assert!(
        said.iter().any(|s| s == "I talk to Brother Aldous."),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|s| s.starts_with("I ask Brother Aldous about")),
        "{said:?}"
    );
    // The riddle's answer is no name it knows: the most frequent word it has read, first.
    let answers: Vec<&String> = said.iter().filter(|s| s.starts_with("I answer")).collect();
    assert_eq!(
        answers.first().map(|s| s.as_str()),
        Some("I answer Sigrun of the Oath: \"ice\"")
    );
    assert!(
        said.iter().any(|s| s.starts_with("I sense what")),
        "{said:?}"
    );
    // No gift before a goal or a word asks for it.
    assert!(!said.iter().any(|s| s.starts_with("I give")), "{said:?}");
    // Once the goal is revealed and names an item carried, it is given.
    let aldous = Arc::make_mut(&mut state.npcs)
        .iter_mut()
        .find(|n| n.id == "aldous")
        .unwrap();
    aldous.goal_revealed = true;
    Arc::make_mut(&mut Arc::make_mut(&mut state.characters)[0].inventory)
        .push(crate::state::ItemStack::new("Silver Locket", 1));
    let said = says(&mut player, &state);
    assert!(
        said.iter()
            .any(|s| s == "I give the Silver Locket to Brother Aldous."),
        "{said:?}"
    );
}

#[test]
fn the_player_never_acts_on_a_hidden_trap() {
    let mut state = game_in("wisp-mere");
    for l in Arc::make_mut(&mut state.locations).iter_mut() {
        for f in l.features.iter_mut().filter(|f| f.trap.is_some()) {
            f.found = false;
        }
    }
    let said = says(&mut OfflinePlayer::new("kraven"), &state);
    assert!(!said.iter().any(|s| s.contains("disarm")), "{said:?}");
    // Known, it is disarmed (tried once) before the player walks on.
    for l in Arc::make_mut(&mut state.locations).iter_mut() {
        for f in l.features.iter_mut().filter(|f| f.trap.is_some()) {
            f.found = true;
        }
    }
    let said = says(&mut OfflinePlayer::new("kraven"), &state);
    let disarm = said
        .iter()
        .position(|s| s.starts_with("I disarm"))
        .expect("a disarm");
    let walk = said
        .iter()
        .position(|s| s.starts_with("I go"))
        .unwrap_or(said.len());
    assert!(disarm < walk, "{said:?}");
    assert_eq!(said.iter().filter(|s| s.starts_with("I disarm")).count(), 1);
}

#[test]
fn the_partys_best_at_insight_reads_and_the_hero_speaks_otherwise() {
    let adventure = Adventure::built_in();
    let ids = adventure.character_ids();
    let mut state = adventure.new_game(&ids).unwrap();
    for c in Arc::make_mut(&mut state.characters).iter_mut() {
        c.location = "hall-of-echoes".into();
    }
    let hero = state.characters[0].clone();
    let best = state
        .characters
        .iter()
        .max_by_key(|c| {
            (
                c.skill_modifier(crate::rules::Skill::Insight),
                c.id == hero.id,
            )
        })
        .unwrap()
        .clone();
    assert_ne!(
        best.id, hero.id,
        "the test needs a better reader than the hero"
    );
    let mut player = OfflinePlayer::new(hero.id.clone());
    let mut reads = Vec::new();
    while let Some(input) = player.next_input(None, &state) {
        if input.text.starts_with("I go") {
            break;
        }
        if input.text.starts_with("I sense") {
            reads.push(input.speaker);
        } else if !input.text.starts_with("I persuade") {
            assert_eq!(input.speaker, hero.name, "{}", input.text);
        }
    }
    assert!(!reads.is_empty());
    assert!(reads.iter().all(|r| *r == best.name), "{reads:?}");
}

#[test]
fn what_the_party_has_not_found_changes_nothing_the_player_says() {
    let mut plain = game_in("hall-of-echoes");
    // Something to give, were the player to read what is wanted.
    Arc::make_mut(&mut Arc::make_mut(&mut plain.characters)[0].inventory)
        .push(crate::state::ItemStack::new("Climber's Kit", 1));
    let mut secret = plain.clone();
    // Every hidden thing rewritten: the puzzle's answers, what an NPC wants and may grant, a
    // goal not revealed, the words of topics kept back, hidden features and their traps.
    let story = Arc::make_mut(&mut secret.story);
    for p in story.puzzles.iter_mut() {
        p.answers = vec!["frost".into()];
    }
    for social in story.social.values_mut() {
        for w in social.wants.iter_mut() {
            w.item = "Climber's Kit".into();
        }
        social.requests.clear();
        social.insight_dc = Some(1);
        for t in social.topics.iter_mut() {
            t.says = "The answer is frost; bring me the climber's kit.".into();
        }
    }
    for n in Arc::make_mut(&mut secret.npcs).iter_mut() {
        if !n.goal_revealed {
            n.goal = "Wants the Climber's Kit, and the answer is frost.".into();
        }
    }
    for l in Arc::make_mut(&mut secret.locations).iter_mut() {
        for f in l.features.iter_mut().filter(|f| !f.is_known()) {
            f.description = "The answer is frost.".into();
            f.find_dc = Some(1);
            if let Some(trap) = f.trap.as_mut() {
                trap.notice_dc = Some(1);
            }
        }
    }
    let hero = OfflinePlayer::new("kraven");
    assert_eq!(
        says(&mut hero.clone(), &plain),
        says(&mut hero.clone(), &secret)
    );
}
