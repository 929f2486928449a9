//! The mechanics panel under the narration: every roll with its dice and what it had to meet,
//! and every change to hit points, spell slots, items, conditions (each with its cause, time
//! left and what ends it, as the snapshot writes them) and the party's place.
//!
//! Each line is built from the turn's outcome alone (`TurnOutcome::rolls` and `::changes`) and
//! the state before and after the turn, so the panel shows exactly what code decided: the
//! narration may colour it, the panel cannot.

use dnd_engine::dice::Advantage;
use dnd_engine::offline::exit_name;
use dnd_engine::rules::{D20Roll, DeathSaveOutcome};
use dnd_engine::state::{Change, GameState, Target};
use dnd_engine::store::{RollDetail, RollRecord};

/// How a panel line reads for the party: the terminal paints it in a colour, the page in a
/// class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Nothing special.
    Plain,
    /// Good for the party: successes, healing, things gained.
    Good,
    /// Bad for the party: failures, damage, things lost.
    Bad,
    /// Places and discoveries.
    Place,
    /// Items and gold.
    Item,
}

/// One line of the panel: the main text, its tone, and details (the dice), shown dimmed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PanelLine {
    /// What happened.
    pub text: String,
    /// How it is painted.
    pub tone: Tone,
    /// The dice behind it, shown dimmed after the text.
    pub detail: String,
}

impl PanelLine {
    pub(crate) fn new(text: impl Into<String>, tone: Tone) -> PanelLine {
        PanelLine {
            text: text.into(),
            tone,
            detail: String::new(),
        }
    }

    pub(crate) fn with_detail(mut self, detail: impl Into<String>) -> PanelLine {
        self.detail = detail.into();
        self
    }
}

/// The panel of a turn: its rolls, then its changes (empty when the turn had neither).
pub fn panel_lines(
    rolls: &[RollRecord],
    changes: &[Change],
    before: &GameState,
    after: &GameState,
) -> Vec<PanelLine> {
    rolls
        .iter()
        .map(|roll| roll_line(roll, after))
        .chain(change_lines(changes, before, after))
        .collect()
}

/// "d20 14 +5", or "d20 14|7 adv +5".
fn d20_text(d20: &D20Roll, modifier: i32) -> String {
    let faces = if d20.count > 1 {
        let kind = match d20.advantage {
            Advantage::Advantage => " adv",
            Advantage::Disadvantage => " dis",
            Advantage::Normal => "",
        };
        format!("{}|{}{kind}", d20.rolls[0], d20.rolls[1])
    } else {
        d20.natural.to_string()
    };
    format!("d20 {faces} {}", signed(modifier))
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        format!("+{n}")
    }
}

fn natural_note(d20: &D20Roll) -> &'static str {
    match d20.natural {
        20 => ", natural 20",
        1 => ", natural 1",
        _ => "",
    }
}

/// One roll as a panel line, by its kind; a record from before rolls were typed is shown by its
/// label and total. `state` gives names to ids.
pub fn roll_line(roll: &RollRecord, state: &GameState) -> PanelLine {
    // Green is good for the party: a monster's hit or successful save is bad news.
    let party = !matches!(roll.roller, Some(Target::Monster(_)));
    let tone = |good_for_roller: bool| {
        if good_for_roller == party {
            Tone::Good
        } else {
            Tone::Bad
        }
    };
    let plain = || PanelLine::new(format!("{}: {}", roll.label, roll.total), Tone::Plain);
    match roll.detail.as_ref() {
        RollDetail::Check(check) | RollDetail::Save(check) => {
            let mark = if check.success { "✓" } else { "✗" };
            let why = check
                .automatic_failure
                .as_deref()
                .map(|w| format!(", fails: {w}"))
                .unwrap_or_default();
            PanelLine::new(
                format!(
                    "{}: {} vs DC {} {mark}{why}",
                    roll.label, check.total, check.dc
                ),
                tone(check.success),
            )
            .with_detail(format!(
                "{}{}",
                d20_text(&check.d20, check.modifier),
                natural_note(&check.d20)
            ))
        }
        RollDetail::Attack(attack) => {
            let result = match (attack.hit, attack.critical) {
                (true, true) => format!("critical hit, {} damage", attack.total_damage),
                (true, false) => format!("hit, {} damage", attack.total_damage),
                (false, _) => "miss".to_owned(),
            };
            let mut dice = d20_text(&attack.d20, attack.attack_bonus);
            for d in attack.damage.iter().filter(|_| attack.hit) {
                let faces: Vec<String> = d.faces.iter().map(u16::to_string).collect();
                dice.push_str(&format!(
                    "; {} [{}] = {}",
                    d.dice,
                    faces.join(", "),
                    d.taken
                ));
            }
            PanelLine::new(
                format!(
                    "{}: {} vs AC {}, {result}",
                    roll.label, attack.total, attack.target_ac
                ),
                tone(attack.hit),
            )
            .with_detail(format!("{dice}{}", natural_note(&attack.d20)))
        }
        RollDetail::Initiative(initiative) => {
            let modifier = initiative.total - i32::from(initiative.d20.natural);
            let who = target_id_name(&initiative.id, state);
            PanelLine::new(
                format!("{who} initiative: {}", initiative.total),
                Tone::Plain,
            )
            .with_detail(d20_text(&initiative.d20, modifier))
        }
        RollDetail::DeathSave(save) => {
            let (what, tone) = match save.outcome {
                DeathSaveOutcome::Success => ("success", Tone::Good),
                DeathSaveOutcome::Failure => ("failure", Tone::Bad),
                DeathSaveOutcome::TwoFailures => ("two failures", Tone::Bad),
                DeathSaveOutcome::RegainsOneHitPoint => ("back on your feet with 1 HP", Tone::Good),
                DeathSaveOutcome::Stabilised => ("stable", Tone::Good),
                DeathSaveOutcome::Dies => ("dead", Tone::Bad),
            };
            PanelLine::new(format!("{}: {} — {what}", roll.label, save.natural), tone).with_detail(
                format!("{} ✓, {} ✗", save.saves.successes, save.saves.failures),
            )
        }
        // Damage on its own (a spell's, a fall's): the faces, and what was taken.
        RollDetail::Damage(damage) => {
            let faces: Vec<String> = damage.faces.iter().map(u16::to_string).collect();
            PanelLine::new(format!("{}: {}", roll.label, damage.taken), Tone::Plain)
                .with_detail(format!("{} [{}]", damage.dice, faces.join(", ")))
        }
        RollDetail::Recharge(recharge) => PanelLine::new(
            format!(
                "{}: {} on a d6 — {}",
                roll.label,
                recharge.roll,
                if recharge.recharged {
                    "recharged"
                } else {
                    "not yet"
                }
            ),
            tone(recharge.recharged),
        )
        .with_detail(format!("recharges on {}–6", recharge.min)),
        // A plain roll or healing: its rendering shows every die.
        RollDetail::Dice(dice) | RollDetail::Healing(dice) => plain().with_detail(dice.to_string()),
        RollDetail::ShortRest(rest) => {
            plain().with_detail(format!("HP {} → {}", rest.hp_before, rest.hp_after))
        }
        // A long rest, an old record, or a kind of roll added later: the label and total.
        _ => plain(),
    }
}

/// Whether an item is the coins a tool turns into gold.
fn is_coins(item: &str) -> bool {
    item.eq_ignore_ascii_case(dnd_engine::tools::GOLD_ITEM)
}

/// The panel lines of a turn's changes: hit points (once per creature, before → after),
/// slots, items and gold, moves, discoveries, the fight starting and ending.
pub fn change_lines(changes: &[Change], before: &GameState, after: &GameState) -> Vec<PanelLine> {
    let mut lines = Vec::new();
    let mut hp_shown: Vec<&Target> = Vec::new();
    let mut slots_spent: Vec<(&String, u8)> = Vec::new();
    let mut here = before.party_location().map(|l| l.id.clone());
    let name_of = |id: &str| {
        after
            .character(id)
            .map(|c| c.name.clone())
            .unwrap_or_else(|| id.to_owned())
    };
    for change in changes {
        match change {
            // Hit points once per creature, however many hits and heals the turn had.
            Change::Damage { target, .. }
            | Change::Heal { target, .. }
            | Change::TemporaryHp { target, .. }
                if !hp_shown.contains(&target) =>
            {
                hp_shown.push(target);
                lines.extend(hp_line(target, changes, before, after));
            }
            Change::ConditionAdded { .. }
            | Change::TimedEffectStarted { .. }
            | Change::TimedEffectEnded { .. }
            | Change::HoldEnded { .. } => lines.extend(conditions::line(change, after)),
            Change::ConditionRemoved { target, condition } => lines.push(PanelLine::new(
                condition.lost(&target_name(target, after), exhaustion(target, after)),
                Tone::Good,
            )),
            Change::SlotSpent { character, level } => {
                // Counted down from before the turn: two spends of one level show 2 then 1
                // left, not the turn's end count twice.
                slots_spent.push((character, *level));
                let spent = slots_spent
                    .iter()
                    .filter(|s| **s == (character, *level))
                    .count();
                let left = before
                    .character(character)
                    .map_or(0, |c| usize::from(c.spell_slots.available(*level)))
                    .saturating_sub(spent);
                lines.push(PanelLine::new(
                    format!(
                        "{}: a level-{level} spell slot spent ({left} left)",
                        name_of(character)
                    ),
                    Tone::Plain,
                ));
            }
            Change::HitDiceSpent { character, count } => lines.push(PanelLine::new(
                format!("{}: {count} hit dice spent", name_of(character)),
                Tone::Plain,
            )),
            Change::LongRest { character } => lines.push(PanelLine::new(
                format!(
                    "{}: a long rest, hit points and slots back",
                    name_of(character)
                ),
                Tone::Good,
            )),
            Change::PactSlotsRecovered { character } => lines.push(PanelLine::new(
                format!("{}: pact slots back", name_of(character)),
                Tone::Good,
            )),
            // Coins go to the purse: the tool takes them into the pack and out again, and the
            // one line worth showing is the gold it added.
            Change::ItemAdded { item, .. } if is_coins(&item.name) => {}
            Change::LootTaken { item, .. } | Change::ItemRemoved { item, .. } if is_coins(item) => {
            }
            Change::ItemAdded { character, item } => lines.push(PanelLine::new(
                format!("{}: +{} {}", name_of(character), item.quantity, item.name),
                Tone::Item,
            )),
            Change::LootTaken {
                character,
                item,
                quantity,
                ..
            } => lines.push(PanelLine::new(
                format!("{}: +{quantity} {item}", name_of(character)),
                Tone::Item,
            )),
            Change::ItemRemoved {
                character,
                item,
                quantity,
            } => lines.push(PanelLine::new(
                format!("{}: −{quantity} {item}", name_of(character)),
                Tone::Item,
            )),
            Change::Gold { character, delta } => lines.push(PanelLine::new(
                format!(
                    "{}: {}{} gp",
                    name_of(character),
                    if *delta < 0 { "−" } else { "+" },
                    delta.unsigned_abs()
                ),
                Tone::Item,
            )),
            Change::PartyMoved { exit } => {
                let from = here.as_deref().and_then(|id| before.location(id));
                let to = from
                    .and_then(|l| {
                        l.exits
                            .iter()
                            .find(|e| e.direction.eq_ignore_ascii_case(exit) || e.to == *exit)
                    })
                    .map_or_else(|| exit.clone(), |e| e.to.clone());
                let title = after
                    .location(&to)
                    .map_or_else(|| to.clone(), |l| l.title.clone());
                lines.push(PanelLine::new(format!("→ {title}"), Tone::Place));
                here = Some(to);
            }
            Change::FeatureFound { location, feature } => {
                let known_before = before
                    .location(location)
                    .and_then(|l| l.features.iter().find(|f| f.id == *feature))
                    .is_some_and(|f| f.found);
                if known_before {
                    continue;
                }
                let name = after
                    .location(location)
                    .and_then(|l| l.features.iter().find(|f| f.id == *feature))
                    .map_or_else(|| feature.clone(), |f| f.name.clone());
                lines.push(PanelLine::new(format!("found: {name}"), Tone::Place));
            }
            Change::ExitFound {
                location,
                direction,
            } => {
                let hidden_before = before
                    .location(location)
                    .and_then(|l| l.exits.iter().find(|e| e.direction == *direction))
                    .is_none_or(|e| e.hidden);
                if hidden_before {
                    lines.push(PanelLine::new(
                        format!("found a way {direction}"),
                        Tone::Place,
                    ));
                }
            }
            Change::ExitUnlocked { direction, .. } => lines.push(PanelLine::new(
                format!("unlocked: {}", exit_name(direction)),
                Tone::Place,
            )),
            Change::TrapSpent { location, feature } => {
                let name = after
                    .location(location)
                    .and_then(|l| l.features.iter().find(|f| f.id == *feature))
                    .map_or_else(|| feature.clone(), |f| f.name.clone());
                lines.push(PanelLine::new(format!("trap spent: {name}"), Tone::Plain));
            }
            Change::MonsterRevealed { monster } => {
                if before.monster(monster).is_some_and(|m| m.revealed) {
                    continue;
                }
                let name = after
                    .monster(monster)
                    .map_or_else(|| monster.clone(), |m| m.name.clone());
                lines.push(PanelLine::new(format!("seen: {name}"), Tone::Bad));
            }
            Change::EncounterStarted { order } => {
                let order: Vec<String> = order
                    .iter()
                    .map(|s| format!("{} {}", target_id_name(&s.id, after), s.initiative))
                    .collect();
                lines.push(PanelLine::new(
                    format!("combat! order: {}", order.join(", ")),
                    Tone::Bad,
                ));
            }
            Change::EncounterEnded => {
                lines.push(PanelLine::new("the fight is over", Tone::Good));
            }
            Change::XpGained { character, amount } => lines.push(PanelLine::new(
                format!(
                    "{}: +{amount} XP, {}",
                    name_of(character),
                    after.character(character).map_or_else(String::new, |c| {
                        dnd_engine::state::progress_text(c, &after.levelling)
                    })
                ),
                Tone::Good,
            )),
            Change::MilestoneReached { .. } => lines.push(PanelLine::new(
                "a milestone: every living hero may take a level",
                Tone::Good,
            )),
            Change::LevelledUp(up) => lines.push(PanelLine::new(
                format!(
                    "{} reaches level {} (+{} max HP)",
                    name_of(&up.character),
                    up.level,
                    up.hp_gained
                ),
                Tone::Good,
            )),
            Change::NpcDisposition { npc, disposition } => {
                let name = after
                    .npc(npc)
                    .map_or_else(|| npc.clone(), |n| n.name.clone());
                let attitude = serde_json::to_value(disposition)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                lines.push(PanelLine::new(
                    format!("{name} is now {attitude}"),
                    Tone::Plain,
                ));
            }
            Change::NpcGoalRevealed { npc } => {
                let name = after
                    .npc(npc)
                    .map_or_else(|| npc.clone(), |n| n.name.clone());
                lines.push(PanelLine::new(
                    format!("you learn what {name} wants"),
                    Tone::Place,
                ));
            }
            Change::Summoned {
                monster,
                initiative,
                ..
            } => {
                let by = monster.summoned.as_ref().map_or_else(String::new, |s| {
                    format!(" by {}'s {}", target_id_name(&s.by, after), s.spell)
                });
                let at = initiative.map_or_else(String::new, |i| format!(", initiative {i}"));
                lines.push(PanelLine::new(
                    format!("summoned: {}{by}, on your side{at}", monster.name),
                    Tone::Good,
                ));
            }
            Change::SummonCommanded {
                monster,
                target: Some(foe),
            } => lines.push(PanelLine::new(
                format!(
                    "{} is commanded to attack {}",
                    target_id_name(monster, after),
                    target_id_name(foe, after)
                ),
                Tone::Plain,
            )),
            // Bookkeeping the player does not need in the panel: the turn order moving on, the
            // clock, flags, memory, the summary, death saves (their roll is shown), concentration.
            _ => {}
        }
    }
    lines
}

/// The exhaustion level of a character or monster (0 when it is not found).
pub(crate) fn exhaustion(target: &Target, state: &GameState) -> u8 {
    match target {
        Target::Character(id) => state.character(id).map_or(0, |c| c.conditions.exhaustion),
        Target::Monster(id) => state.monster(id).map_or(0, |m| m.conditions.exhaustion),
    }
}

/// A creature's name from a change's target.
pub(crate) fn target_name(target: &Target, state: &GameState) -> String {
    match target {
        Target::Character(id) | Target::Monster(id) => target_id_name(id, state),
    }
}

/// A character's or monster's name from its id.
pub(crate) fn target_id_name(id: &str, state: &GameState) -> String {
    state
        .character(id)
        .map(|c| c.name.clone())
        .or_else(|| state.monster(id).map(|m| m.name.clone()))
        .unwrap_or_else(|| id.to_owned())
}

/// A character's hit points before → after; for a monster only what it took (its hit points
/// are the game master's secret), and whether it dropped.
fn hp_line(
    target: &Target,
    changes: &[Change],
    before: &GameState,
    after: &GameState,
) -> Option<PanelLine> {
    match target {
        Target::Character(id) => {
            let (b, a) = (before.character(id)?, after.character(id)?);
            let tone = if a.hp.current < b.hp.current {
                Tone::Bad
            } else {
                Tone::Good
            };
            let temporary = if a.hp.temporary > 0 {
                format!(" (+{} temporary)", a.hp.temporary)
            } else {
                String::new()
            };
            let down = if a.dead {
                ", dead"
            } else if a.hp.current == 0 {
                ", down"
            } else {
                ""
            };
            Some(PanelLine::new(
                format!(
                    "{}: HP {} → {} of {}{temporary}{down}",
                    a.name, b.hp.current, a.hp.current, a.hp.max
                ),
                tone,
            ))
        }
        Target::Monster(id) => {
            let m = after.monster(id)?;
            // Dead before the turn: nothing happened to it worth a line (no damage to the
            // dead, no second fall).
            if before.monster(id).is_some_and(|m| !m.is_alive()) {
                return None;
            }
            let (taken, healed) = changes
                .iter()
                .fold((0u32, 0u32), |(taken, healed), change| match change {
                    Change::Damage { target, amount, .. }
                        if target == &Target::Monster(id.clone()) =>
                    {
                        (taken + amount, healed)
                    }
                    Change::Heal { target, amount } if target == &Target::Monster(id.clone()) => {
                        (taken, healed + amount)
                    }
                    _ => (taken, healed),
                });
            let mut text = m.name.clone();
            if taken > 0 {
                text.push_str(&format!(" takes {taken} damage"));
            }
            if healed > 0 {
                text.push_str(&format!(" heals {healed}"));
            }
            if !m.is_alive() {
                text.push_str(", and falls");
            }
            Some(PanelLine::new(text, Tone::Plain))
        }
    }
}

#[cfg(test)]
mod tests;

mod conditions;
