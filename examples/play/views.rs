//! What the commands show: the character sheet, the inventory, the map of rooms seen, the
//! story so far, the list of saves, and the recap on resuming. Each is built from the state and
//! the store's story log only; nothing here changes a game.

use dnd_engine::gm::OutputCaps;
use dnd_engine::llm::Usage;
use dnd_engine::rules::{Ability, Proficiency};
use dnd_engine::state::{Character, GameState};
use dnd_engine::store::{CampaignId, CampaignInfo, GameStore, Page};

use crate::screen::{Screen, Tone};

/// The character sheet (`state` for the causes of its conditions).
pub fn print_sheet(screen: &Screen, state: &GameState, c: &Character) {
    let race = if c.race.is_empty() {
        String::new()
    } else {
        format!("{} ", c.race)
    };
    screen.say(
        Tone::Bold,
        &format!("{} — {race}{} {}", c.name, c.class, c.level),
    );
    let mut status = format!(
        "HP {}/{}{} · AC {} · speed {} ft · proficiency +{} · passive Perception {}",
        c.hp.current,
        c.hp.max,
        if c.hp.temporary > 0 {
            format!(" (+{} temporary)", c.hp.temporary)
        } else {
            String::new()
        },
        c.armor_class_now(),
        c.speed,
        c.proficiency_bonus(),
        c.passive_perception()
    );
    if c.dead {
        status.push_str(" · dead");
    } else if c.hp.current == 0 {
        status.push_str(&format!(
            " · down (death saves {} ✓ {} ✗)",
            c.death_saves.successes, c.death_saves.failures
        ));
    }
    screen.wrapped("", Tone::Plain, &status);
    screen.wrapped(
        "",
        Tone::Plain,
        &dnd_engine::state::progress_text(c, &state.levelling),
    );
    let scores: Vec<String> = Ability::ALL
        .iter()
        .map(|a| {
            format!(
                "{} {} ({})",
                a.abbreviation().to_ascii_uppercase(),
                c.abilities.score(*a),
                signed(c.abilities.modifier(*a))
            )
        })
        .collect();
    screen.wrapped("", Tone::Plain, &scores.join("  "));
    let saves: Vec<String> = Ability::ALL
        .iter()
        .filter(|a| c.save_proficiencies.contains(a))
        .map(|a| format!("{} {}", a.name(), signed(c.save_modifier(*a))))
        .collect();
    if !saves.is_empty() {
        screen.wrapped("", Tone::Plain, &format!("Saves: {}", saves.join(", ")));
    }
    let skills: Vec<String> = c
        .skills
        .iter()
        .filter(|(_, p)| **p != Proficiency::None)
        .map(|(s, p)| {
            let star = if *p == Proficiency::Expertise {
                "*"
            } else {
                ""
            };
            format!("{s}{star} {}", signed(c.skill_modifier(*s)))
        })
        .collect();
    if !skills.is_empty() {
        screen.wrapped("", Tone::Plain, &format!("Skills: {}", skills.join(", ")));
    }
    for attack in c.attacks.iter() {
        screen.wrapped(
            "",
            Tone::Plain,
            &format!(
                "Attack: {} {} to hit, {}",
                attack.name,
                signed(c.attack_bonus(attack)),
                c.attack_damage(attack)
            ),
        );
    }
    if let Some((attack, dc)) = c.spellcasting() {
        screen.wrapped(
            "",
            Tone::Plain,
            &format!(
                "Spellcasting: {} to hit, save DC {dc}; slots left: {}",
                signed(attack),
                c.spell_slots.describe_available()
            ),
        );
    }
    if !c.spells.is_empty() {
        screen.wrapped("", Tone::Plain, &format!("Spells: {}", c.spells.join(", ")));
    }
    if let Some(spell) = &c.concentration {
        screen.line(&format!("Concentrating on {spell}"));
    }
    // Each condition with its cause, time left and what ends it, then the other timed
    // effects: the same texts the model's snapshot holds.
    for line in condition_lines(state, c) {
        screen.wrapped("", Tone::Plain, &line);
    }
    screen.line(&format!(
        "Hit dice: {} of {} (d{}) · Gold: {} gp",
        c.hit_dice.available(),
        c.hit_dice.total,
        c.hit_dice.sides,
        c.gold
    ));
}

/// "Condition: ..." and "Effect: ..." lines for `c`, or "Conditions: none".
pub fn condition_lines(state: &GameState, c: &Character) -> Vec<String> {
    let mut lines: Vec<String> = dnd_engine::state::condition_sources(state, &c.id)
        .iter()
        .map(|s| format!("Condition: {}", dnd_engine::state::compact::condition(s)))
        .collect();
    lines.extend(
        c.timed_effects
            .iter()
            .filter(|e| e.condition().is_none())
            .map(|e| format!("Effect: {}", e.describe())),
    );
    if lines.is_empty() {
        lines.push("Conditions: none".into());
    }
    lines
}

/// The inventory, with notes.
pub fn print_inventory(screen: &Screen, c: &Character) {
    screen.say(Tone::Bold, &format!("{} carries:", c.name));
    if c.inventory.is_empty() {
        screen.line("  nothing");
    }
    for item in c.inventory.iter() {
        let note = if item.note.is_empty() {
            String::new()
        } else {
            format!(" — {}", item.note)
        };
        screen.hanging(
            "  ",
            "      ",
            Tone::Plain,
            &format!("{} × {}{note}", item.quantity, item.name),
        );
    }
    screen.line(&format!("  {} gp", c.gold));
}

/// The rooms the party has seen and their known exits (hidden ones only once found).
pub fn print_map(screen: &Screen, state: &GameState) {
    let here = state.party_location().map(|l| l.id.as_str());
    screen.say(
        Tone::Bold,
        &format!("{}: the rooms you have seen", state.title),
    );
    for room in state.locations.iter().filter(|l| l.visited) {
        let marker = if Some(room.id.as_str()) == here {
            " (you are here)"
        } else {
            ""
        };
        screen.parts(&[
            (Tone::Plain, "  "),
            (Tone::Place, &room.title),
            (Tone::Accent, marker),
        ]);
        let exits: Vec<String> = room
            .exits
            .iter()
            .filter(|e| !e.hidden)
            .map(|e| {
                let to = state
                    .location(&e.to)
                    .filter(|l| l.visited)
                    .map_or("?", |l| l.title.as_str());
                let locked = if e.locked { ", locked" } else { "" };
                format!("{} → {to}{locked}", e.direction)
            })
            .collect();
        let exits = if exits.is_empty() {
            "none known".to_owned()
        } else {
            exits.join("; ")
        };
        screen.wrapped("      ", Tone::Dim, &format!("exits: {exits}"));
    }
}

/// Lines of the story ("turn 3: ..."), wrapped with a hanging indent.
pub fn print_story(screen: &Screen, lines: &[String]) {
    for line in lines {
        screen.hanging("  ", "      ", Tone::Plain, line);
    }
}

/// The recap on resuming: the campaign summary, the last few story events, and where the
/// party stands.
pub fn print_recap(screen: &Screen, name: &str, state: &GameState, recent: &[String]) {
    screen.say(
        Tone::Bold,
        &format!("Recap of \"{name}\" ({} turns played)", state.turn),
    );
    if !state.summary.trim().is_empty() {
        screen.wrapped("  ", Tone::Plain, state.summary.trim());
    }
    if !recent.is_empty() {
        screen.say(Tone::Dim, "  Lately:");
        print_story(screen, recent);
    }
    let place = state
        .party_location()
        .map_or("somewhere unknown", |l| l.title.as_str());
    let party: Vec<String> = state
        .characters
        .iter()
        .map(|c| format!("{} (HP {}/{})", c.name, c.hp.current, c.hp.max))
        .collect();
    screen.wrapped(
        "  ",
        Tone::Plain,
        &format!("{} in {place}.", party.join(", ")),
    );
}

/// Tokens and money spent this session, and the last turn's tokens, calls and cached tokens
/// (what prompt caching saved).
pub fn print_cost(
    screen: &Screen,
    usage: &Usage,
    last_turn: Option<&(Usage, usize)>,
    offline: bool,
    turns: u32,
) {
    screen.say(Tone::Bold, &format!("This session: {turns} turns"));
    screen.line(&format!(
        "  tokens: {} in ({} from the cache), {} out, {} in all",
        usage.prompt_tokens,
        usage.cached_tokens,
        usage.completion_tokens,
        usage.total_tokens()
    ));
    if let Some((last, calls)) = last_turn {
        screen.line(&format!(
            "  last turn: {calls} model call{}, {} tokens in ({} from the cache), {} out",
            if *calls == 1 { "" } else { "s" },
            last.prompt_tokens,
            last.cached_tokens,
            last.completion_tokens
        ));
    }
    let money = match usage.cost {
        _ if offline => "$0 (offline: no model, nothing sent)".to_owned(),
        Some(cost) => format!("${cost:.4}"),
        None if usage.total_tokens() == 0 => "$0".to_owned(),
        None => "unknown (the provider reports no price for this model)".to_owned(),
    };
    screen.line(&format!("  money: {money}"));
}

/// The output caps in force and how many answers they cut this session (`/cost`).
pub fn print_caps(screen: &Screen, caps: &OutputCaps, cut: usize) {
    screen.line(&format!(
        "  output caps (tokens): narration {}, actions {}, summary {}, strict answer {}, strict narration {}",
        caps.narration, caps.actions, caps.summary, caps.strict_answer, caps.strict_narration
    ));
    screen.line(&format!("  answers cut by a cap: {cut}"));
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        format!("+{n}")
    }
}

/// The last `last` entries of a campaign's story: its story log's events ("turn 3: ..."), or,
/// while the log is empty (the game master logs events at milestones: loot, a foe defeated),
/// each turn's words and the first sentence of its answer.
pub async fn story_lines(
    store: &dyn GameStore,
    campaign: &CampaignId,
    last: usize,
) -> Result<Vec<String>, String> {
    let all = Page::first(usize::MAX / 2);
    let events = store
        .story_log(campaign, all)
        .await
        .map_err(|e| e.to_string())?;
    if !events.is_empty() {
        let skip = events.len().saturating_sub(last);
        return Ok(events
            .iter()
            .skip(skip)
            .map(|e| format!("turn {}: {}", e.turn, e.text))
            .collect());
    }
    let turns = store
        .recent_turns(campaign, last)
        .await
        .map_err(|e| e.to_string())?;
    Ok(turns
        .iter()
        .map(|t| {
            let answer = t
                .record
                .player_messages
                .iter()
                .rev()
                .find(|line| line.speaker == "gm")
                .map(|line| first_sentence(&line.text))
                .unwrap_or_default();
            format!("turn {}: \"{}\" — {answer}", t.turn, t.record.input)
        })
        .collect())
}

/// The first sentence of a text (at most about 160 characters).
fn first_sentence(text: &str) -> String {
    let text = one_line(text);
    let end = text
        .char_indices()
        .find(|&(i, c)| i >= 20 && matches!(c, '.' | '!' | '?'))
        .map(|(i, c)| i + c.len_utf8());
    match end {
        Some(end) if end <= 200 => text[..end].to_owned(),
        _ if text.chars().count() <= 160 => text,
        _ => format!("{}…", text.chars().take(160).collect::<String>()),
    }
}

/// "kraven-1 (12 turns), run1 (5 turns)".
pub fn list(campaigns: &[CampaignInfo]) -> String {
    if campaigns.is_empty() {
        return "none yet".to_owned();
    }
    campaigns
        .iter()
        .map(|c| format!("{} ({} turns)", c.name, c.turns))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text on one line: newlines and runs of spaces become one space.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
