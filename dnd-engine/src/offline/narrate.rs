//! The narration: templates filled with what the tools returned and the adventure's own words.
//!
//! Second person for the speaker, names for everyone else. Numbers the player may see (damage,
//! hit points, gold) come straight from the results; DCs, ACs and internal ids never appear:
//! sentences of the adventure's prose that state a DC or an AC are dropped, and ids are always
//! replaced by names.

use serde_json::Value;

use super::intent::Intent;
use super::snapshot::parse_hp;
use super::view::{Step, Turn};
use super::words::{best, capital, exit_name, lower_article, lower_first, sanitize, the, way};
use crate::combat::actions::StandardAction;
use crate::effects::Outcome;
use crate::state::Morale;
use crate::tools::names as tool;
use crate::tools::results::{
    AttackOutcome, AttackReport, InventoryChanged, ItemUsed, MoveOutcome, RoomDetails, SpellCast,
    ToolOutput, TurnEvent, TurnNow,
};

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
        parts.extend(describe(turn, step, &mut fallen));
        parts.extend(step.story.iter().map(|line| sanitize(line)));
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

/// "the Dire Wolf", or "you" for the speaker.
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

fn describe(turn: &Turn, step: &Step, fallen: &mut Fallen) -> Vec<String> {
    let args = &step.call.arguments;
    let Some(output) = &step.output else {
        return refusal(&step.call.name, args).into_iter().collect();
    };
    match output {
        ToolOutput::Room(r) => room(turn, r, args["detail"] == "full"),
        ToolOutput::MovedTo(r) => {
            let mut out = vec![format!("You make your way {}.", way(&text(args, "exit")))];
            out.extend(room(turn, r, true));
            out
        }
        ToolOutput::FightStarted(started) => {
            let mut out = vec!["Steel rings out: the fight is on!".to_owned()];
            out.extend(monster_turns(turn, &started.monster_turns, &started.now, fallen));
            out
        }
        ToolOutput::TurnsPassed(passed) => {
            monster_turns(turn, &passed.monster_turns, &passed.now, fallen)
        }
        ToolOutput::FightEnded(_) => vec!["The fight is over; the cold silence returns.".into()],
        ToolOutput::Attack(AttackOutcome::Made(report)) => attack(turn, report, fallen),
        ToolOutput::Attack(AttackOutcome::Waiting(_)) => Vec::new(),
        ToolOutput::Spell(cast) => spell(turn, cast),
        ToolOutput::Check(check) => checked(args, check.result.success),
        ToolOutput::Lock(attempt) => vec![match (text(args, "method").as_str(), attempt.unlocked) {
            ("pick", true) => format!(
                "Your picks find the last pin; the {} swings open.",
                attempt.exit
            ),
            ("pick", false) => "The lock defeats your picks, for now.".into(),
            (_, true) => format!("With a crack of ice, the {} gives way.", attempt.exit),
            (_, false) => "You strain against it, but it does not budge.".into(),
        }],
        ToolOutput::Action(report) => match report.action {
            StandardAction::Disengage => {
                vec!["You break away, guarding every step, and slip out of reach.".into()]
            }
            StandardAction::Dodge => vec![
                "You give up the attack and weave and duck: until your next turn every blow at you comes with disadvantage.".into(),
            ],
            _ => Vec::new(),
        },
        ToolOutput::Save(save) => vec![if save.result.success {
            "You twist free and slip out of reach.".into()
        } else {
            "You try to break away, but you cannot get clear!".into()
        }],
        ToolOutput::ItemAdded(taken) => {
            let (item, n) = (&taken.took, taken.quantity);
            vec![if item.eq_ignore_ascii_case(crate::tools::GOLD_ITEM) {
                format!(
                    "You pocket {n} gold pieces; your purse now holds {}.",
                    taken.gold
                )
            } else if n > 1 {
                format!("You take {} (×{n}).", the(item))
            } else {
                format!("You take {}.", the(item))
            }]
        }
        ToolOutput::InventoryChanged(InventoryChanged::Removed(removed)) => {
            vec![format!("You hand over {}.", the(&removed.removed))]
        }
        ToolOutput::ItemUsed(used) => vec![match used {
            ItemUsed::Healed { used, hp, .. } => format!(
                "You drink {}; warmth floods back through you ({hp} HP now).",
                the(used)
            ),
            ItemUsed::Coated { used, coated, .. } => format!(
                "You work {} into your {}; the blade glows like a banked hearth.",
                the(used),
                coated.to_lowercase()
            ),
            ItemUsed::Unlocked {
                used,
                unlocked_exit,
            } => format!(
                "{} turns with a sound like cracking ice: {} is open.",
                capital(&the(used)),
                exit_name(unlocked_exit)
            ),
            ItemUsed::ScrollRead {
                used, spell, lost, ..
            } => {
                if *lost {
                    format!(
                        "The words of {} slip from your tongue and the scroll crumbles to dust.",
                        the(used)
                    )
                } else {
                    format!("You read {} aloud, and {spell} takes shape.", the(used))
                }
            }
            ItemUsed::Resolved { used, .. } => {
                format!("You use {}, and its magic takes hold.", the(used))
            }
            ItemUsed::Narrated { used, .. } => format!(
                "You use {}, but nothing you can see happens.",
                the(used)
            ),
        }],
        ToolOutput::CharacterUpdated(updated) => {
            let (c, m) = (updated.hp.current, updated.hp.max);
            vec![match updated.update.as_str() {
                "short_rest" => format!("You rest for an hour and bind your hurts ({c}/{m} HP)."),
                "long_rest" => {
                    format!("You sleep through the long cold night and wake restored ({c}/{m} HP).")
                }
                _ => String::new(),
            }]
        }
        ToolOutput::Inventory(inventory) => {
            let items: Vec<String> = inventory
                .items
                .iter()
                .map(|i| match i.quantity {
                    n if n > 1 => format!("{} ×{n}", i.name),
                    _ => i.name.clone(),
                })
                .collect();
            vec![format!(
                "You carry: {}; and {} gold pieces.",
                items.join(", "),
                inventory.gold
            )]
        }
        ToolOutput::Goals(goals) => goals
            .advanced
            .iter()
            .map(|a| match &a.now {
                Some(now) => format!("{} {}", a.npc, lower_first(&sanitize(now))),
                None => format!("{} has what they wanted, and is at peace.", a.npc),
            })
            .collect(),
        ToolOutput::Dice(dice) => vec![format!("The dice come up {}.", dice.total)],
        ToolOutput::MoveInFight(outcome) => moved(turn, outcome, fallen),
        ToolOutput::Reactions(set) => set
            .reactions
            .iter()
            .map(|r| format!("You keep {} ready on your lips.", r.spell))
            .collect(),
        ToolOutput::LevelGained(up) => vec![format!(
            "{} grows stronger: level {}, {} more hit points.",
            up.character, up.level, up.hp_gained
        )],
        ToolOutput::Talk(_)
        | ToolOutput::Social(_)
        | ToolOutput::TrapDisarm(_)
        | ToolOutput::ObjectAttacked(_) => super::tell::story(output),
        ToolOutput::Puzzle(answered) => vec![match (answered.solved, answered.locked) {
            (true, _) => format!("{}'s answer rings true.", answered.character),
            (false, true) => "That is not it, and no answer will be heard again.".into(),
            (false, false) => "That is not the answer.".into(),
        }],
        _ => Vec::new(),
    }
}

fn refusal(tool: &str, args: &Value) -> Option<String> {
    Some(match tool {
        tool::TALK_TO if !args["give"].is_null() => "Your gift is not taken.".into(),
        tool::TALK_TO => "You get no answer to that.".into(),
        tool::SOCIAL_CHECK => "Your words find no purchase there.".into(),
        tool::ANSWER_PUZZLE => "No answer can be given there now.".into(),
        tool::DISARM_TRAP => "There is nothing there you can disarm.".into(),
        tool::ATTACK_OBJECT => "That is nothing your blows can break.".into(),
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

fn room(turn: &Turn, r: &RoomDetails, full: bool) -> Vec<String> {
    let names: Vec<String> = r.features.iter().map(|f| lower_article(&f.name)).collect();
    let moved = turn.ran(tool::MOVE_TO);
    match &turn.intent {
        // The room was only read to act on it: the action narrates.
        Intent::Take { .. } | Intent::Give { .. } if !moved => return Vec::new(),
        Intent::Talk { words } if !moved => {
            let addressed = best(words, r.npcs.iter().map(|n| (n, vec![n.name.clone()])))
                .or_else(|| r.npcs.first());
            return addressed
                .map(|n| format!("{} regards you. {}", n.name, sanitize(&n.description)))
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
                r.features.iter().map(|f| (f, vec![f.name.clone()])),
            ) {
                let mut out = vec![
                    format!("You study {}.", lower_article(&f.name)),
                    sanitize(f.description.as_deref().unwrap_or_default()),
                ];
                let loot: Vec<&str> = f.loot.iter().flatten().map(|i| i.name.as_str()).collect();
                if !loot.is_empty() {
                    out.push(format!("Within reach: {}.", loot.join(", ")));
                }
                return out;
            }
        }
        _ => {}
    }
    let mut out = vec![
        format!("{}.", r.title.trim_end_matches('.')),
        sanitize(&r.description),
    ];
    if !names.is_empty() {
        out.push(format!("You can make out {}.", names.join(", ")));
    }
    let mut loot: Vec<String> = Vec::new();
    if full {
        for f in &r.features {
            for i in f.loot.iter().flatten() {
                loot.push(format!("{} ({})", i.name, lower_article(&f.name)));
            }
        }
    }
    loot.extend(r.loot.iter().map(|i| i.name.clone()));
    if !loot.is_empty() {
        out.push(format!("Within reach: {}.", loot.join(", ")));
    }
    for n in &r.npcs {
        out.push(format!("{} is here. {}", n.name, sanitize(&n.description)));
    }
    for m in &r.monsters {
        let name = capital(&who(turn, &m.name));
        out.push(if !m.alive {
            format!("{name} lies dead.")
        } else if !m.hostile {
            format!("{name} drifts nearby, watching.")
        } else {
            format!("{name} is here, and it means you harm.")
        })
    }
    let exits: Vec<String> = r
        .exits
        .iter()
        .map(|e| {
            if e.locked {
                format!("{} (locked)", e.direction)
            } else {
                e.direction.clone()
            }
        })
        .collect();
    if !exits.is_empty() {
        out.push(format!("Ways on: {}.", exits.join(", ")));
    }
    out
}

fn attack(turn: &Turn, r: &AttackReport, fallen: &mut Fallen) -> Vec<String> {
    let attacker = who(turn, &r.attacker);
    let target = who(turn, &r.target);
    let mut out = Vec::new();
    for swing in &r.attacks {
        let weapon = &swing.attack;
        let damage = swing.result.total_damage;
        let crit = if swing.result.critical {
            " with a perfect blow"
        } else {
            ""
        };
        let hit = swing.result.hit;
        // Sneak Attack is the engine's: told when the report says it applied.
        let sneak = if swing
            .sneak_attack
            .as_deref()
            .is_some_and(|s| s.starts_with("Sneak Attack:"))
        {
            ", finding the gap in its guard (Sneak Attack),"
        } else {
            ""
        };
        out.push(match (attacker == "you", hit) {
            (true, true) => {
                format!("Your {weapon} strikes {target}{crit}{sneak} for {damage} damage.")
            }
            (true, false) => format!("Your {weapon} misses {target}."),
            (false, true) => {
                let tail = if target == "you" {
                    format!(" ({} HP left)", swing.target_hp)
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
        if let Some(reaction) = &swing.reaction {
            let by = capital(&who(turn, &reaction.by));
            let answers = if by == "You" { "answer" } else { "answers" };
            // A reaction that turns the hit (Shield) or only lessens it (Uncanny Dodge).
            let effect = if hit {
                "the blow lands, but only half as hard"
            } else {
                "the blow glances off"
            };
            out.push(format!(
                "{by} {answers} with {}: {effect}.",
                reaction.reaction
            ));
        }
        // A blow on one already down is told above; its fall is told once only.
        let falls = swing.target_down && fallen.falls(turn, &r.target);
        if falls && target == "you" {
            out.push("You fall to the ice.".into());
        } else if falls {
            out.push(format!("{} falls and does not rise!", capital(&target)));
        } else if !swing.target_down && hit && attacker == "you" {
            let hp = parse_hp(&swing.target_hp);
            out.push(format!("{} is {}.", capital(&target), condition_of(hp)));
        }
    }
    out
}

fn monster_turns(
    turn: &Turn,
    events: &[TurnEvent],
    now: &TurnNow,
    fallen: &mut Fallen,
) -> Vec<String> {
    let mut out = Vec::new();
    for event in events {
        match event {
            TurnEvent::Attack(report) => out.extend(attack(turn, report, fallen)),
            TurnEvent::DeathSave { death_save, .. } => {
                let subject = capital(&who(turn, death_save));
                out.push(format!("{subject} fight for breath on the edge of death."));
            }
            TurnEvent::Morale { monster, morale } => {
                let subject = capital(&who(turn, monster));
                out.push(if *morale == Morale::Fled {
                    format!("{subject} breaks and flees the fight!")
                } else {
                    format!("{subject} gives up the fight and surrenders.")
                });
            }
            TurnEvent::SaveAction(action) => {
                let subject = capital(&who(turn, &action.monster));
                out.push(format!("{subject} uses its {}.", action.action));
                for s in &action.saves {
                    let target = capital(&who(turn, &s.target));
                    out.push(match (s.save.success, target == "You") {
                        (true, true) => "You shake it off.".to_owned(),
                        (true, false) => format!("{target} shakes it off."),
                        (false, true) => "You fall under it.".to_owned(),
                        (false, false) => format!("{target} falls under it."),
                    });
                }
            }
            TurnEvent::Effects(used) => {
                let subject = capital(&who(turn, &used.monster));
                out.push(format!("{subject} uses {}.", used.uses));
            }
            TurnEvent::Legendary { attack: report, .. } => {
                out.extend(attack(turn, report, fallen));
            }
            TurnEvent::Moves { moves, .. } => out.extend(moved(turn, moves, fallen)),
            TurnEvent::Surprised { surprised } => {
                let subject = capital(&who(turn, surprised));
                let (verb, own) = if subject == "You" {
                    ("are", "your")
                } else {
                    ("is", "its")
                };
                out.push(format!(
                    "{subject} {verb} caught off guard and lose{} {own} first moment.",
                    if subject == "You" { "" } else { "s" }
                ));
            }
            TurnEvent::CannotAct { cannot_act, .. } => {
                out.push(format!(
                    "{} cannot act this turn.",
                    capital(&who(turn, cannot_act))
                ));
            }
            _ => {}
        }
    }
    if now.party_down {
        out.push("No one in the party is left standing.".into());
    }
    out
}

/// A move in a fight: where to, and the opportunity attacks it drew.
fn moved(turn: &Turn, outcome: &MoveOutcome, fallen: &mut Fallen) -> Vec<String> {
    let mut out = Vec::new();
    let attacks = match outcome {
        MoveOutcome::Moved(m) => {
            if m.moved {
                let subject = capital(&who(turn, &m.creature));
                let verb = if subject == "You" { "close" } else { "closes" };
                out.push(format!("{subject} {verb} in, {} ft to {}.", m.feet, m.to));
            }
            &m.opportunity_attacks
        }
        MoveOutcome::Dropped(d) => &d.opportunity_attacks,
    };
    for attack in attacks {
        out.extend(self::attack(turn, attack, fallen));
    }
    out
}

fn spell(turn: &Turn, cast: &SpellCast) -> Vec<String> {
    let mut out = vec![format!("You cast {}.", cast.spell)];
    for reaction in &cast.reactions {
        out.push(if reaction.succeeded {
            format!(
                "{} answers with {}: your spell unravels.",
                capital(&who(turn, &reaction.by)),
                reaction.reaction
            )
        } else {
            format!(
                "{} tries {}, but your spell holds.",
                capital(&who(turn, &reaction.by)),
                reaction.reaction
            )
        });
    }
    for effect in &cast.effects {
        out.extend(match effect {
            Outcome::Healed { target, healed, .. } => Some(format!(
                "{} recovers {healed} hit points.",
                capital(&who(turn, target))
            )),
            Outcome::Attack { target, attack } if attack.hit => Some(format!(
                "It strikes {} for {} damage.",
                who(turn, target),
                attack.total_damage
            )),
            Outcome::Attack { target, .. } => Some(format!("It misses {}.", who(turn, target))),
            Outcome::Save {
                target,
                save,
                damage,
                ..
            } => Some(format!(
                "{} {} and takes {damage} damage.",
                capital(&who(turn, target)),
                if save.success {
                    "partly resists"
                } else {
                    "takes the full force"
                }
            )),
            Outcome::Damage { target, damage, .. } => Some(format!(
                "It strikes {} for {damage} damage.",
                who(turn, target)
            )),
            // What lasts (a condition, an AC change, a pool) is not told yet.
            _ => None,
        });
    }
    out
}

fn checked(args: &Value, success: bool) -> Vec<String> {
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
