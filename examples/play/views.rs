//! What the commands show: the character sheet, the inventory, the map of rooms seen, the
//! story so far, and the recap on resuming, printed from `dnd_table`'s data (the same the
//! server sends as JSON); nothing here changes a game.

use dnd_engine::gm::OutputCaps;
use dnd_engine::llm::Usage;
use dnd_engine::state::{Character, GameState};
use dnd_table::map::MapView;
use dnd_table::sheet::{Sheet, signed};

use crate::screen::{Screen, Tone};

/// The character sheet (`state` for the causes of its conditions).
pub fn print_sheet(screen: &Screen, state: &GameState, c: &Character) {
    let sheet = Sheet::of(state, c);
    let race = if sheet.race.is_empty() {
        String::new()
    } else {
        format!("{} ", sheet.race)
    };
    screen.say(
        Tone::Bold,
        &format!("{} — {race}{} {}", sheet.name, sheet.class, sheet.level),
    );
    let mut status = format!(
        "HP {}/{}{} · AC {} · speed {} ft · proficiency +{} · passive Perception {}",
        sheet.hp,
        sheet.max_hp,
        if sheet.temp_hp > 0 {
            format!(" (+{} temporary)", sheet.temp_hp)
        } else {
            String::new()
        },
        sheet.ac,
        sheet.speed,
        sheet.proficiency,
        sheet.passive_perception
    );
    if sheet.dead {
        status.push_str(" · dead");
    } else if let Some((successes, failures)) = sheet.down {
        status.push_str(&format!(" · down (death saves {successes} ✓ {failures} ✗)"));
    }
    screen.wrapped("", Tone::Plain, &status);
    screen.wrapped("", Tone::Plain, &sheet.progress);
    let scores: Vec<String> = sheet
        .abilities
        .iter()
        .map(|(name, score, modifier)| format!("{name} {score} ({})", signed(*modifier)))
        .collect();
    screen.wrapped("", Tone::Plain, &scores.join("  "));
    let saves: Vec<String> = sheet
        .saves
        .iter()
        .map(|(name, modifier)| format!("{name} {}", signed(*modifier)))
        .collect();
    if !saves.is_empty() {
        screen.wrapped("", Tone::Plain, &format!("Saves: {}", saves.join(", ")));
    }
    let skills: Vec<String> = sheet
        .skills
        .iter()
        .map(|(name, expertise, modifier)| {
            let star = if *expertise { "*" } else { "" };
            format!("{name}{star} {}", signed(*modifier))
        })
        .collect();
    if !skills.is_empty() {
        screen.wrapped("", Tone::Plain, &format!("Skills: {}", skills.join(", ")));
    }
    for (name, bonus, damage) in &sheet.attacks {
        screen.wrapped(
            "",
            Tone::Plain,
            &format!("Attack: {name} {} to hit, {damage}", signed(*bonus)),
        );
    }
    if let Some((attack, dc)) = sheet.spellcasting {
        screen.wrapped(
            "",
            Tone::Plain,
            &format!(
                "Spellcasting: {} to hit, save DC {dc}; slots left: {}",
                signed(attack),
                sheet.slots
            ),
        );
    }
    if !sheet.spells.is_empty() {
        screen.wrapped(
            "",
            Tone::Plain,
            &format!("Spells: {}", sheet.spells.join(", ")),
        );
    }
    if let Some(spell) = &sheet.concentration {
        screen.line(&format!("Concentrating on {spell}"));
    }
    // Each condition with its cause, time left and what ends it, then the other timed
    // effects: the same texts the model's snapshot holds.
    for line in &sheet.conditions {
        screen.wrapped("", Tone::Plain, line);
    }
    let (left, total, sides) = sheet.hit_dice;
    screen.line(&format!(
        "Hit dice: {left} of {total} (d{sides}) · Gold: {} gp",
        sheet.gold
    ));
}

/// The inventory, with notes.
pub fn print_inventory(screen: &Screen, state: &GameState, c: &Character) {
    let sheet = Sheet::of(state, c);
    screen.say(Tone::Bold, &format!("{} carries:", sheet.name));
    if sheet.inventory.is_empty() {
        screen.line("  nothing");
    }
    for item in &sheet.inventory {
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
    screen.line(&format!("  {} gp", sheet.gold));
}

/// The rooms the party has seen and their known exits (hidden ones only once found).
pub fn print_map(screen: &Screen, state: &GameState) {
    let map = MapView::of(state);
    screen.say(
        Tone::Bold,
        &format!("{}: the rooms you have seen", map.title),
    );
    for room in &map.rooms {
        let marker = if room.here { " (you are here)" } else { "" };
        screen.parts(&[
            (Tone::Plain, "  "),
            (Tone::Place, &room.title),
            (Tone::Accent, marker),
        ]);
        let exits: Vec<String> = room
            .ways
            .iter()
            .map(|way| {
                let locked = if way.locked { ", locked" } else { "" };
                format!(
                    "{} → {}{locked}",
                    way.direction,
                    way.to.as_deref().unwrap_or("?")
                )
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
