//! The narration: templates filled with what the tools returned and the adventure's own words.
//!
//! Second person for the speaker, names for everyone else. Numbers the player may see (damage,
//! hit points, gold) come straight from the results; DCs, ACs and internal ids never appear:
//! sentences of the adventure's prose that state a DC or an AC are dropped, and ids are always
//! replaced by names.

use serde_json::Value;

use super::intent::Intent;
use super::snapshot::parse_hp;
use super::view::Turn;
use super::words::{best, capital, exit_name, lower_article, lower_first, sanitize, the, way};
use crate::tools::names as tool;

/// The whole narration of a finished turn.
pub(crate) fn narrate(turn: &Turn, lead: &[String], tail: &[String]) -> String {
    let mut parts: Vec<String> = turn
        .findings
        .iter()
        .filter_map(|f| finding(turn, f))
        .collect();
    parts.extend(lead.iter().cloned());
    let mut fallen = Fallen::default();
    for step in turn.steps() {
        parts.extend(describe(
            turn,
            &step.call.name,
            &step.call.arguments,
            step.ok,
            &step.result,
            &mut fallen,
        ));
    }
    parts.extend(tail.iter().cloned());
    let hero_down = turn
        .hero
        .as_deref()
        .and_then(|h| turn.now.hero(h))
        .is_some_and(|h| h.down);
    parts.push(if hero_down {
        "The cold closes over you, and the world goes dark.".into()
    } else {
        "What do you do?".into()
    });
    parts.retain(|p| !p.trim().is_empty());
    parts.join(" ")
}

/// "the Frost Harpy", or "you" for the speaker.
fn who(turn: &Turn, name_or_id: &str) -> String {
    let hero = turn.hero.as_deref().unwrap_or_default();
    if let Some(h) = turn.now.hero(name_or_id) {
        return if h.id == hero {
            "you".into()
        } else {
            h.name.clone()
        };
    }
    match turn.now.monster(name_or_id) {
        Some(m) => format!("the {}", m.name.trim_start_matches("The ")),
        None => format!("the {}", name_or_id.trim_start_matches("The ")),
    }
}

fn finding(turn: &Turn, line: &str) -> Option<String> {
    if let Some((watcher, rest)) = line.split_once(" notices (passive Perception): ") {
        let (name, description) = rest.split_once(" — ").unwrap_or((rest, ""));
        let subject = capital(&who(turn, watcher));
        let verb = if subject == "You" {
            "notice"
        } else {
            "notices"
        };
        return Some(format!(
            "{subject} {verb} {}. {}",
            lower_article(name),
            sanitize(description)
        ));
    }
    if let Some((watcher, direction)) = line.split_once(" notices (passive Perception) a way ") {
        let subject = capital(&who(turn, watcher));
        let verb = if subject == "You" {
            "notice"
        } else {
            "notices"
        };
        return Some(format!("{subject} {verb} a way on: {direction}."));
    }
    if let Some(name) = line.strip_suffix(" is here") {
        return Some(format!("{} is here.", capital(&who(turn, name))));
    }
    if let Some((name, next)) = line.split_once(" moves on: ") {
        return Some(format!("{name} {}", lower_first(&sanitize(next))));
    }
    None
}

/// Who has fallen so far, so that a fall is told once: a creature down before the turn, or
/// already fallen this turn, does not fall again when it is hit where it lies.
#[derive(Default)]
struct Fallen(Vec<String>);

impl Fallen {
    /// Records that `name_or_id` is down after a blow; `true` if this is news.
    fn falls(&mut self, turn: &Turn, name_or_id: &str) -> bool {
        let id = turn
            .now
            .hero(name_or_id)
            .map(|h| h.id.clone())
            .or_else(|| turn.now.monster(name_or_id).map(|m| m.id.clone()))
            .unwrap_or_else(|| name_or_id.to_owned());
        let down_before = turn.start.hero(&id).is_some_and(|h| h.down)
            || turn.start.monster(&id).is_some_and(|m| !m.alive);
        if down_before || self.0.contains(&id) {
            return false;
        }
        self.0.push(id);
        true
    }
}

fn condition_of(hp: Option<(u32, u32)>) -> &'static str {
    match hp {
        Some((c, m)) if m > 0 && c * 4 > m * 3 => "barely scratched",
        Some((c, m)) if m > 0 && c * 2 > m => "hurt",
        Some((c, m)) if m > 0 && c * 4 > m => "bloodied",
        Some(_) => "reeling",
        None => "still fighting",
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn describe(
    turn: &Turn,
    tool: &str,
    args: &Value,
    ok: bool,
    r: &Value,
    fallen: &mut Fallen,
) -> Vec<String> {
    if !ok {
        return refusal(tool, args).into_iter().collect();
    }
    match tool {
        tool::GET_ROOM_DETAILS => room(turn, r, args["detail"] == "full"),
        tool::MOVE_TO => {
            let mut out = vec![format!("You make your way {}.", way(&text(args, "exit")))];
            out.extend(room(turn, r, true));
            out
        }
        tool::START_ENCOUNTER => {
            let mut out = vec!["Steel rings out: the fight is on!".to_owned()];
            out.extend(monster_turns(turn, r, fallen));
            out
        }
        tool::NEXT_TURN => monster_turns(turn, r, fallen),
        tool::END_ENCOUNTER => vec!["The fight is over; the cold silence returns.".into()],
        tool::ROLL_ATTACK => attack(turn, r, fallen),
        tool::CAST_SPELL => spell(turn, r),
        tool::ROLL_SKILL_CHECK => check(args, r),
        tool::OPEN_LOCK => vec![
            match (text(args, "method").as_str(), r["unlocked"] == true) {
                ("pick", true) => format!(
                    "Your picks find the last pin; the {} swings open.",
                    text(r, "exit")
                ),
                ("pick", false) => "The lock defeats your picks, for now.".into(),
                (_, true) => format!("With a crack of ice, the {} gives way.", text(r, "exit")),
                (_, false) => "You strain against it, but it does not budge.".into(),
            },
        ],
        tool::DISENGAGE => vec!["You break away, guarding every step, and slip out of reach.".into()],
        tool::DODGE => vec![
            "You give up the attack and weave and duck: until your next turn every blow at you comes with disadvantage.".into(),
        ],
        tool::ROLL_SAVING_THROW => vec![if r["result"]["success"].as_bool() == Some(true) {
            "You twist free and slip out of reach.".into()
        } else {
            "You try to break away, but you cannot get clear!".into()
        }],
        tool::ADD_INVENTORY => {
            let item = text(r, "took");
            let n = r["quantity"].as_u64().unwrap_or(1);
            vec![if item.eq_ignore_ascii_case("gold pieces") {
                format!(
                    "You pocket {n} gold pieces; your purse now holds {}.",
                    r["gold"]
                )
            } else if n > 1 {
                format!("You take {} (×{n}).", the(&item))
            } else {
                format!("You take {}.", the(&item))
            }]
        }
        tool::UPDATE_INVENTORY => vec![format!("You hand over {}.", the(&text(r, "removed")))],
        tool::USE_ITEM => {
            let used = text(r, "used");
            if r.get("healed_up_to").is_some() {
                vec![format!(
                    "You drink {}; warmth floods back through you ({} HP now).",
                    the(&used),
                    text(r, "hp")
                )]
            } else if let Some(weapon) = r.get("coated").and_then(Value::as_str) {
                vec![format!(
                    "You work {} into your {}; the blade glows like a banked hearth.",
                    the(&used),
                    weapon.to_lowercase()
                )]
            } else if let Some(direction) = r.get("unlocked_exit").and_then(Value::as_str) {
                let opened = exit_name(direction);
                vec![format!(
                    "{} turns with a sound like cracking ice: {opened} is open.",
                    capital(&the(&used))
                )]
            } else {
                vec![format!(
                    "You use {}, but nothing you can see happens.",
                    the(&used)
                )]
            }
        }
        tool::UPDATE_CHARACTER => {
            let (c, m) = (&r["hp"]["current"], &r["hp"]["max"]);
            vec![match text(r, "update").as_str() {
                "short_rest" => format!("You rest for an hour and bind your hurts ({c}/{m} HP)."),
                "long_rest" => {
                    format!("You sleep through the long cold night and wake restored ({c}/{m} HP).")
                }
                _ => String::new(),
            }]
        }
        tool::CHECK_INVENTORY => {
            let items: Vec<String> = r["items"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| match i["quantity"].as_u64() {
                    Some(n) if n > 1 => format!("{} ×{n}", text(i, "name")),
                    _ => text(i, "name"),
                })
                .collect();
            vec![format!(
                "You carry: {}; and {} gold pieces.",
                items.join(", "),
                r["gold"]
            )]
        }
        tool::ADVANCE_NPC_GOALS => r["advanced"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| match a["now"].as_str() {
                Some(now) => format!("{} {}", text(a, "npc"), lower_first(&sanitize(now))),
                None => format!("{} has what they wanted, and is at peace.", text(a, "npc")),
            })
            .collect(),
        tool::ROLL_DICE => vec![format!("The dice come up {}.", r["total"])],
        _ => Vec::new(),
    }
}

fn refusal(tool: &str, args: &Value) -> Option<String> {
    Some(match tool {
        tool::MOVE_TO => "You cannot go that way right now.".into(),
        tool::ROLL_ATTACK => "You cannot make that attack right now.".into(),
        tool::CAST_SPELL => "The words of that spell will not come to you.".into(),
        tool::ADD_INVENTORY => format!("You cannot take {}.", the(&text(args, "item"))),
        tool::USE_ITEM => "That does not work.".into(),
        tool::OPEN_LOCK => "That lock will not yield to you: it wants its own key.".into(),
        tool::UPDATE_INVENTORY => "You cannot part with that.".into(),
        tool::ROLL_SKILL_CHECK | tool::ROLL_SAVING_THROW => "You cannot try that right now.".into(),
        tool::DISENGAGE | tool::DODGE => "You cannot spare the moment for that right now.".into(),
        _ => return None,
    })
}

fn room(turn: &Turn, r: &Value, full: bool) -> Vec<String> {
    let features: Vec<&Value> = r["features"].as_array().into_iter().flatten().collect();
    let names: Vec<String> = features
        .iter()
        .map(|f| lower_article(&text(f, "name")))
        .collect();
    let moved = turn.ran(tool::MOVE_TO);
    match &turn.intent {
        // The room was only read to act on it: the action narrates.
        Intent::Take { .. } | Intent::Give { .. } if !moved => return Vec::new(),
        Intent::Talk { words } if !moved => {
            let npcs: Vec<&Value> = r["npcs"].as_array().into_iter().flatten().collect();
            let addressed = best(words, npcs.iter().map(|n| (*n, vec![text(n, "name")])))
                .or_else(|| npcs.first().copied());
            return addressed
                .map(|n| {
                    format!(
                        "{} regards you. {}",
                        text(n, "name"),
                        sanitize(&text(n, "description"))
                    )
                })
                .into_iter()
                .collect();
        }
        Intent::Search { .. } if !moved => {
            return if names.is_empty() {
                Vec::new()
            } else {
                vec![format!("What you know of here: {}.", names.join(", "))]
            };
        }
        Intent::Look {
            subject: Some(subject),
        } if !moved => {
            if let Some(f) = best(
                subject,
                features.iter().map(|f| (*f, vec![text(f, "name")])),
            ) {
                let mut out = vec![
                    format!("You study {}.", lower_article(&text(f, "name"))),
                    sanitize(&text(f, "description")),
                ];
                let loot: Vec<String> = f["loot"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|i| text(i, "name"))
                    .collect();
                if !loot.is_empty() {
                    out.push(format!("Within reach: {}.", loot.join(", ")));
                }
                return out;
            }
        }
        _ => {}
    }
    let mut out = vec![
        format!("{}.", text(r, "title").trim_end_matches('.')),
        sanitize(&text(r, "description")),
    ];
    if !names.is_empty() {
        out.push(format!("You can make out {}.", names.join(", ")));
    }
    let mut loot: Vec<String> = Vec::new();
    if full {
        for f in &features {
            for i in f["loot"].as_array().into_iter().flatten() {
                loot.push(format!(
                    "{} ({})",
                    text(i, "name"),
                    lower_article(&text(f, "name"))
                ));
            }
        }
    }
    for i in r["loot"].as_array().into_iter().flatten() {
        loot.push(text(i, "name"));
    }
    if !loot.is_empty() {
        out.push(format!("Within reach: {}.", loot.join(", ")));
    }
    for n in r["npcs"].as_array().into_iter().flatten() {
        out.push(format!(
            "{} is here. {}",
            text(n, "name"),
            sanitize(&text(n, "description"))
        ));
    }
    for m in r["monsters"].as_array().into_iter().flatten() {
        let name = capital(&who(turn, &text(m, "name")));
        out.push(if m["alive"].as_bool() == Some(false) {
            format!("{name} lies dead.")
        } else if m["hostile"].as_bool() == Some(false) {
            format!("{name} drifts nearby, watching.")
        } else {
            format!("{name} is here, and it means you harm.")
        })
    }
    let exits: Vec<String> = r["exits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            if e["locked"].as_bool() == Some(true) {
                format!("{} (locked)", text(e, "direction"))
            } else {
                text(e, "direction")
            }
        })
        .collect();
    if !exits.is_empty() {
        out.push(format!("Ways on: {}.", exits.join(", ")));
    }
    out
}

fn attack(turn: &Turn, r: &Value, fallen: &mut Fallen) -> Vec<String> {
    let attacker = who(turn, &text(r, "attacker"));
    let target_id = text(r, "target");
    let target = who(turn, &target_id);
    let mut out = Vec::new();
    for swing in r["attacks"].as_array().into_iter().flatten() {
        let result = &swing["result"];
        let weapon = text(swing, "attack");
        let damage = result["total_damage"].as_u64().unwrap_or(0);
        let crit = if result["critical"].as_bool() == Some(true) {
            " with a perfect blow"
        } else {
            ""
        };
        let hit = result["hit"].as_bool() == Some(true);
        out.push(match (attacker == "you", hit) {
            (true, true) => format!("Your {weapon} strikes {target}{crit} for {damage} damage."),
            (true, false) => format!("Your {weapon} misses {target}."),
            (false, true) => {
                let hp = text(swing, "target_hp");
                let tail = if target == "you" {
                    format!(" ({hp} HP left)")
                } else {
                    String::new()
                };
                format!(
                    "{} hits {target} with its {}{crit} for {damage} damage{tail}.",
                    capital(&attacker),
                    weapon.to_lowercase()
                )
            }
            (false, false) => format!(
                "{} lashes out with its {}, but misses {target}.",
                capital(&attacker),
                weapon.to_lowercase()
            ),
        });
        let down = swing["target_down"].as_bool() == Some(true);
        // A blow on one already down is told above; its fall is told once only.
        let falls = down && fallen.falls(turn, &target_id);
        if falls && target == "you" {
            out.push("You fall to the ice.".into());
        } else if falls {
            out.push(format!("{} falls and does not rise!", capital(&target)));
        } else if !down && hit && attacker == "you" {
            let hp = parse_hp(&text(swing, "target_hp"));
            out.push(format!("{} is {}.", capital(&target), condition_of(hp)));
        }
    }
    out
}

fn monster_turns(turn: &Turn, r: &Value, fallen: &mut Fallen) -> Vec<String> {
    let mut out = Vec::new();
    for t in r["monster_turns"].as_array().into_iter().flatten() {
        if t.get("attacks").is_some() {
            out.extend(attack(turn, t, fallen));
        } else if let Some(name) = t.get("death_save").and_then(Value::as_str) {
            let subject = capital(&who(turn, name));
            out.push(format!("{subject} fight for breath on the edge of death."));
        } else if let Some(morale) = t.get("morale").and_then(Value::as_str) {
            let subject = capital(&who(turn, &text(t, "monster")));
            out.push(if morale == "fled" {
                format!("{subject} breaks and flees the fight!")
            } else {
                format!("{subject} gives up the fight and surrenders.")
            });
        } else if let Some(saves) = t.get("saves").and_then(Value::as_array) {
            let subject = capital(&who(turn, &text(t, "monster")));
            out.push(format!("{subject} uses its {}.", text(t, "action")));
            for s in saves {
                let target = capital(&who(turn, &text(s, "target")));
                let resisted = s["save"]["success"].as_bool() == Some(true);
                let you = target == "You";
                out.push(match (resisted, you) {
                    (true, true) => "You shake it off.".to_owned(),
                    (true, false) => format!("{target} shakes it off."),
                    (false, true) => "You fall under it.".to_owned(),
                    (false, false) => format!("{target} falls under it."),
                });
            }
        } else if let Some(name) = t.get("cannot_act").and_then(Value::as_str) {
            out.push(format!(
                "{} cannot act this turn.",
                capital(&who(turn, name))
            ));
        }
    }
    if r["now"]["party_down"].as_bool() == Some(true) {
        out.push("No one in the party is left standing.".into());
    }
    out
}

fn spell(turn: &Turn, r: &Value) -> Vec<String> {
    let mut out = vec![format!("You cast {}.", text(r, "spell"))];
    for e in r["effects"].as_array().into_iter().flatten() {
        let target = who(turn, &text(e, "target"));
        if let Some(healed) = e["healed"].as_u64() {
            out.push(format!(
                "{} recovers {healed} hit points.",
                capital(&target)
            ));
        } else if let Some(a) = e.get("attack") {
            out.push(if a["hit"].as_bool() == Some(true) {
                format!("It strikes {target} for {} damage.", a["total_damage"])
            } else {
                format!("It misses {target}.")
            });
        } else if let Some(save) = e.get("save") {
            let resisted = save["success"].as_bool() == Some(true);
            out.push(format!(
                "{} {} and takes {} damage.",
                capital(&target),
                if resisted {
                    "partly resists"
                } else {
                    "takes the full force"
                },
                e["damage"]
            ));
        } else if let Some(d) = e["damage"].as_u64() {
            out.push(format!("It strikes {target} for {d} damage."));
        }
    }
    out
}

fn check(args: &Value, r: &Value) -> Vec<String> {
    let success = r["result"]["success"].as_bool() == Some(true);
    match (text(args, "skill").as_str(), success) {
        ("perception" | "investigation", true) => {
            vec!["You search every crack and shadow with care, but find nothing you had not already noticed.".into()]
        }
        ("perception" | "investigation", false) => {
            vec!["You search for a while, but nothing new catches your eye.".into()]
        }
        (_, true) => vec!["You manage it.".into()],
        (_, false) => vec!["You try, but it does not work out.".into()],
    }
}
