//! The standard actions of the SRD's "Actions in Combat", as rules: Dash, Disengage, Dodge,
//! Help, Hide, Ready (and triggering it), Search, Use an Object, Grapple, Shove, escaping a
//! grapple and standing up from prone; and first aid, which stabilises a dying creature.
//!
//! Each function checks what the rules require, asks the gate ([`may_act`]) for what the act
//! spends, rolls what must be rolled, and gives back an [`Outcome`]: the changes to commit (the
//! spend first), the rolls to record and a typed [`ActionReport`]. Nothing is committed here,
//! so a refusal changes nothing. The effects that last (Dodging, Helped, Hidden, Readied,
//! Grappling) are `state::Effect`s; what they do to later rolls is
//! [`attack_situation`](super::attack_situation) and its siblings.
//!
//! Positions come from the encounter when the room keeps them; in a room without areas,
//! everyone is within 5 ft of everyone else.

use serde::{Deserialize, Serialize};

mod escape;
mod first_aid;
mod rolled;

pub use escape::{escape_spell, spell_hold};
pub use first_aid::first_aid;
pub use rolled::{escape_grapple, grapple, hide, hide_with, search, shove};

use super::{CombatError, may_act};
use crate::rules::{
    AdvantageSources, CheckResult, Condition, ConditionSet, ContestResult, Skill, Spend,
};
use crate::srd::{Size, Srd};
use crate::state::{Change, Effect, EffectKind, GameState, Target};

/// Which standard action a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the SRD's names
pub enum StandardAction {
    Dash,
    Disengage,
    Dodge,
    Help,
    Hide,
    Ready,
    TriggerReadied,
    Search,
    UseObject,
    Grapple,
    Shove,
    EscapeGrapple,
    StandUp,
    /// Stabilising a dying creature (a DC 10 Wisdom (Medicine) check).
    FirstAid,
    /// A caster commanding its summoned creature (`tools/summon_command.rs`).
    CommandSummon,
}

/// What a shove does when it succeeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShoveEffect {
    /// The target is knocked prone.
    Prone,
    /// The target is pushed 5 ft away.
    Push,
}

/// What an action did, for the model and the panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionReport {
    /// Who acted (name).
    pub creature: String,
    /// The action.
    pub action: StandardAction,
    /// Whether it did what it was for (a hide that hid, a grapple that held).
    pub success: bool,
    /// What happened, in a sentence.
    pub text: String,
    /// The check it rolled, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckResult>,
    /// The contest it rolled, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<ContestResult>,
    /// Why the roll had advantage or disadvantage.
    #[serde(default, skip_serializing_if = "is_empty")]
    pub advantage_reasons: AdvantageSources,
    /// What a hero's Search found where the party is (names and descriptions, never DCs),
    /// filled in by the tool that marks them found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<String>,
}

fn is_empty(s: &AdvantageSources) -> bool {
    s.advantage.is_empty() && s.disadvantage.is_empty()
}

/// The changes an action makes, the rolls it made (label and result) and its report.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Commit these, all or nothing: the spend first.
    pub changes: Vec<Change>,
    /// Record these.
    pub rolls: Vec<ActionRoll>,
    /// Return this.
    pub report: ActionReport,
}

/// One roll an action made, for the mechanics panel.
#[derive(Debug, Clone)]
pub struct ActionRoll {
    /// What it was for ("Vex Stealth (hide)").
    pub label: String,
    /// Who rolled.
    pub roller: Target,
    /// The check.
    pub result: CheckResult,
}

/// Why an action was refused. Each message says what is allowed instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The gate refused (not its turn, spent, cannot act, unknown).
    #[error(transparent)]
    Combat(#[from] CombatError),
    /// The action only means something in a fight.
    #[error(
        "{action} is an action in a fight, and no fight is running: start_encounter first (outside a fight, {instead})"
    )]
    OnlyInFight {
        /// The action.
        action: &'static str,
        /// What to do instead.
        instead: &'static str,
    },
    /// The target is too large to grapple or shove.
    #[error(
        "{target} is {target_size:?}, more than one size larger than {creature} ({size:?}): a grapple or shove needs a target no larger than {largest:?}"
    )]
    TooLarge {
        /// Who tried.
        creature: String,
        /// Its size.
        size: Size,
        /// The target.
        target: String,
        /// The target's size.
        target_size: Size,
        /// The largest it may grapple or shove.
        largest: Size,
    },
    /// The other creature is farther than the act reaches.
    #[error(
        "{target} is {distance} ft from {creature}: {what} reaches only 5 ft; move closer first"
    )]
    OutOfReach {
        /// Who tried.
        creature: String,
        /// The other.
        target: String,
        /// Feet between them.
        distance: u32,
        /// "a grapple", "help with an attack".
        what: &'static str,
    },
    /// Anything else the rules forbid, with what is allowed.
    #[error("{0}")]
    Refused(String),
}

fn refused(why: impl Into<String>) -> ActionError {
    ActionError::Refused(why.into())
}

/// A creature named in an action: id, name, side and conditions.
struct Who {
    id: String,
    name: String,
    character: bool,
    conditions: ConditionSet,
}

fn who(state: &GameState, name: &str) -> Result<Who, ActionError> {
    if let Some(c) = state.character(name) {
        return Ok(Who {
            id: c.id.clone(),
            name: c.name.clone(),
            character: true,
            conditions: c.conditions,
        });
    }
    if let Some(m) = state.monster(name).filter(|m| m.revealed) {
        return Ok(Who {
            id: m.id.clone(),
            name: m.name.clone(),
            character: false,
            conditions: m.conditions,
        });
    }
    let mut known: Vec<String> = state.characters.iter().map(|c| c.id.clone()).collect();
    known.extend(
        state
            .monsters
            .iter()
            .filter(|m| m.revealed)
            .map(|m| m.id.clone()),
    );
    Err(CombatError::UnknownCreature {
        name: name.to_owned(),
        known,
    }
    .into())
}

/// The other creature of an action: in the fight and alive.
fn other(state: &GameState, actor: &Who, name: &str) -> Result<Who, ActionError> {
    let o = who(state, name)?;
    if o.id.eq_ignore_ascii_case(&actor.id) {
        return Err(refused(format!(
            "{} cannot do that to itself: name another creature in the fight",
            actor.name
        )));
    }
    let in_fight = state
        .encounter
        .as_ref()
        .is_some_and(|e| e.slot(&o.id).is_some());
    let alive = state.character(&o.id).is_some_and(|c| !c.dead)
        || state.monster(&o.id).is_some_and(|m| m.is_alive());
    if !in_fight || !alive {
        return Err(refused(format!(
            "{} is {}: name a living creature in the fight",
            o.name,
            if alive { "not in the fight" } else { "dead" }
        )));
    }
    Ok(o)
}

fn in_fight(
    state: &GameState,
    action: &'static str,
    instead: &'static str,
) -> Result<u32, ActionError> {
    state
        .encounter
        .as_ref()
        .map(|e| e.round)
        .ok_or(ActionError::OnlyInFight { action, instead })
}

fn spend(state: &GameState, who: &Who, what: Spend) -> Result<Vec<Change>, ActionError> {
    Ok(may_act(state, &who.id, what)?.into_iter().collect())
}

fn report(who: &Who, action: StandardAction, success: bool, text: String) -> ActionReport {
    ActionReport {
        creature: who.name.clone(),
        action,
        success,
        text,
        check: None,
        contest: None,
        advantage_reasons: AdvantageSources::default(),
        found: Vec::new(),
    }
}

fn started(round: u32, creature: &str, kind: EffectKind) -> Change {
    Change::EffectStarted {
        effect: Effect {
            creature: creature.to_owned(),
            round,
            kind,
        },
    }
}

/// The size of a character's race by the SRD (halflings and gnomes are Small, the other
/// races Medium), or of a monster from its stat block (Medium when it has none).
pub fn size_of(state: &GameState, srd: &Srd, id: &str) -> Size {
    if let Some(c) = state.character(id) {
        let race = c.race.to_ascii_lowercase();
        return if race.contains("halfling") || race.contains("gnome") {
            Size::Small
        } else {
            Size::Medium
        };
    }
    state
        .monster(id)
        .and_then(|m| srd.monster(&m.template).ok())
        .map_or(Size::Medium, |t| t.size)
}

/// A creature's modifier for a skill: a character's sheet; a monster's listed skill, else the
/// ability modifier.
pub fn skill_of(state: &GameState, srd: &Srd, id: &str, skill: Skill) -> i32 {
    if let Some(c) = state.character(id) {
        return c.skill_modifier(skill);
    }
    let Some(t) = state
        .monster(id)
        .and_then(|m| srd.monster(&m.template).ok())
    else {
        return 0;
    };
    let timed = crate::state::timed_effects(state, id);
    t.skills
        .get(&skill)
        .copied()
        .unwrap_or_else(|| t.abilities.modifier(skill.ability()))
        + crate::effects::skill_bonus(timed, skill)
}

/// A creature's passive Perception: a character's 10 + Perception, a monster's stat block.
pub fn passive_perception(state: &GameState, srd: &Srd, id: &str) -> i32 {
    if let Some(c) = state.character(id) {
        return c.passive_perception();
    }
    state
        .monster(id)
        .and_then(|m| srd.monster(&m.template).ok())
        .map_or(10, |t| t.passive_perception)
}

/// Feet between two combatants, when the room keeps positions (`None`: within 5 ft).
fn distance(state: &GameState, a: &str, b: &str) -> Option<u32> {
    let e = state.encounter.as_ref()?;
    Some(e.position(a)?.distance(e.position(b)?))
}

fn within_5_ft(state: &GameState, a: &Who, b: &Who, what: &'static str) -> Result<(), ActionError> {
    match distance(state, &a.id, &b.id) {
        Some(d) if d > 5 => Err(ActionError::OutOfReach {
            creature: a.name.clone(),
            target: b.name.clone(),
            distance: d,
            what,
        }),
        _ => Ok(()),
    }
}

/// Dash: the action, and extra movement equal to the creature's speed this turn.
pub fn dash(state: &GameState, creature: &str) -> Result<Outcome, ActionError> {
    dash_with(state, creature, Spend::Dash)
}

/// Dash paid with `cost`: the action ([`Spend::Dash`]) or a rogue's bonus action
/// ([`Spend::BonusDash`], Cunning Action).
pub fn dash_with(state: &GameState, creature: &str, cost: Spend) -> Result<Outcome, ActionError> {
    in_fight(state, "Dash", "the party moves with move_to")?;
    let w = who(state, creature)?;
    let changes = spend(state, &w, cost)?;
    let text = format!("{} dashes: as much movement again this turn", w.name);
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::Dash, true, text),
    })
}

/// Disengage: the action; its movement provokes no opportunity attacks for the rest of the
/// turn (`TurnBudget::disengaged`).
pub fn disengage(state: &GameState, creature: &str) -> Result<Outcome, ActionError> {
    disengage_with(state, creature, Spend::Disengage)
}

/// Disengage paid with `cost`: the action ([`Spend::Disengage`]) or a rogue's bonus action
/// ([`Spend::BonusDisengage`], Cunning Action).
pub fn disengage_with(
    state: &GameState,
    creature: &str,
    cost: Spend,
) -> Result<Outcome, ActionError> {
    in_fight(state, "Disengage", "no one makes opportunity attacks")?;
    let w = who(state, creature)?;
    let changes = spend(state, &w, cost)?;
    let text = format!(
        "{} disengages: moving away provokes no opportunity attacks this turn",
        w.name
    );
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::Disengage, true, text),
    })
}

/// Dodge: the action; until the start of its next turn, attacks against it have disadvantage
/// if it can see the attacker, and it has advantage on Dexterity saves.
pub fn dodge(state: &GameState, creature: &str) -> Result<Outcome, ActionError> {
    let round = in_fight(state, "Dodge", "there is nothing to dodge")?;
    let w = who(state, creature)?;
    let mut changes = spend(state, &w, Spend::Action)?;
    changes.push(started(round, &w.id, EffectKind::Dodging));
    let text = format!(
        "{} dodges: attacks against it have disadvantage and it has advantage on Dexterity saves until its next turn",
        w.name
    );
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::Dodge, true, text),
    })
}

/// Help: the action; `ally` has advantage on its next ability check, or, with `target`, on its
/// next attack roll against that foe, who must be within 5 ft of the helper; before the start
/// of the helper's next turn.
pub fn help(
    state: &GameState,
    helper: &str,
    ally: &str,
    target: Option<&str>,
) -> Result<Outcome, ActionError> {
    let round = in_fight(
        state,
        "Help",
        "an ally's check gets advantage by the situation",
    )?;
    let w = who(state, helper)?;
    let a = other(state, &w, ally)?;
    if a.character != w.character {
        return Err(refused(format!(
            "{} is not {}'s ally: help a creature on its own side",
            a.name, w.name
        )));
    }
    let foe = match target {
        Some(t) => {
            let f = other(state, &w, t)?;
            if f.character == w.character {
                return Err(refused(format!(
                    "{} is an ally: help against a foe of {}",
                    f.name, w.name
                )));
            }
            within_5_ft(state, &w, &f, "help with an attack")?;
            Some(f)
        }
        None => None,
    };
    let mut changes = spend(state, &w, Spend::Action)?;
    let kind = EffectKind::Helped {
        helper: w.id.clone(),
        against: foe.as_ref().map(|f| f.id.clone()),
    };
    changes.push(started(round, &a.id, kind));
    let text = match &foe {
        Some(f) => format!(
            "{} helps {}: advantage on its next attack against {} before {}'s next turn",
            w.name, a.name, f.name, w.name
        ),
        None => format!(
            "{} helps {}: advantage on its next ability check before {}'s next turn",
            w.name, a.name, w.name
        ),
    };
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::Help, true, text),
    })
}

/// Ready: the action; until the start of its next turn, when `trigger` happens it may attack
/// (`attack`, or the first on its sheet) with its reaction, through [`trigger_readied`].
pub fn ready(
    state: &GameState,
    creature: &str,
    trigger: &str,
    attack: Option<&str>,
    target: Option<&str>,
) -> Result<Outcome, ActionError> {
    let round = in_fight(state, "Ready", "there is nothing to wait for")?;
    let w = who(state, creature)?;
    if trigger.trim().is_empty() {
        return Err(refused(
            "a readied action needs a trigger: the circumstance that sets it off (\"the harpy lands on the bridge\")",
        ));
    }
    if let (Some(name), Some(c)) = (attack, state.character(&w.id))
        && !c.attacks.iter().any(|a| a.name.eq_ignore_ascii_case(name))
    {
        let valid: Vec<&str> = c.attacks.iter().map(|a| a.name.as_str()).collect();
        return Err(refused(format!(
            "{} has no attack {name:?} to ready; valid: {}",
            w.name,
            valid.join(", ")
        )));
    }
    let target = target.map(|t| other(state, &w, t)).transpose()?;
    let mut changes = spend(state, &w, Spend::Action)?;
    let kind = EffectKind::Readied {
        trigger: trigger.trim().to_owned(),
        attack: attack.map(str::to_owned),
        target: target.as_ref().map(|t| t.id.clone()),
    };
    changes.push(started(round, &w.id, kind));
    let text = format!(
        "{} readies an attack for when {}: trigger_readied uses its reaction then, before its next turn",
        w.name,
        trigger.trim()
    );
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::Ready, true, text),
    })
}

/// What a triggered readied action does: the changes (the reaction spent, the readiness
/// ended), then the attack the tool makes without spending again.
#[derive(Debug, Clone)]
pub struct Triggered {
    /// Commit these first.
    pub changes: Vec<Change>,
    /// The attack readied (by name), or `None` for the first.
    pub attack: Option<String>,
    /// Whom it attacks (id).
    pub target: String,
}

/// Sets off `creature`'s readied action because `triggered_by` did what it waited for: the
/// reaction is spent, the readiness ends, and it attacks its readied target or the one who
/// triggered it.
pub fn trigger_readied(
    state: &GameState,
    creature: &str,
    triggered_by: &str,
) -> Result<Triggered, ActionError> {
    in_fight(state, "A readied action", "nothing is readied")?;
    let w = who(state, creature)?;
    let by = other(state, &w, triggered_by)?;
    let readied = state.encounter.as_ref().and_then(|e| {
        e.effects_of(&w.id)
            .find(|e| matches!(e.kind, EffectKind::Readied { .. }))
            .cloned()
    });
    let Some(effect) = readied else {
        return Err(refused(format!(
            "{} has no readied action: ready one with ready_action on its turn (it lasts until its next turn)",
            w.name
        )));
    };
    let EffectKind::Readied { attack, target, .. } = &effect.kind else {
        return Err(refused("not a readied action"));
    };
    let target = target.clone().unwrap_or(by.id);
    let mut changes = spend(state, &w, Spend::Reaction)?;
    changes.push(Change::EffectEnded {
        effect: effect.clone(),
    });
    Ok(Triggered {
        changes,
        attack: attack.clone(),
        target,
    })
}

/// Use an Object: the action (outside a fight, nothing is spent). The object is the story's:
/// an item from the inventory is used with `use_item` instead.
pub fn use_object(state: &GameState, creature: &str, object: &str) -> Result<Outcome, ActionError> {
    use_object_with(state, creature, object, Spend::Action)
}

/// Use an Object paid with `cost`: the action, or a Thief's bonus action (Fast Hands).
pub fn use_object_with(
    state: &GameState,
    creature: &str,
    object: &str,
    cost: Spend,
) -> Result<Outcome, ActionError> {
    let w = who(state, creature)?;
    if object.trim().is_empty() {
        return Err(refused(
            "name the object used (\"the lever\", \"the door\")",
        ));
    }
    let changes = spend(state, &w, cost)?;
    let text = format!("{} uses {}", w.name, object.trim());
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::UseObject, true, text),
    })
}

/// Standing up from prone: half the creature's speed in movement (none outside a fight);
/// refused at speed 0 or when not prone.
pub fn stand_up(state: &GameState, creature: &str) -> Result<Outcome, ActionError> {
    let w = who(state, creature)?;
    if !w.conditions.has(Condition::Prone) {
        return Err(refused(format!(
            "{} is not prone: it is already on its feet",
            w.name
        )));
    }
    let base = state
        .encounter
        .as_ref()
        .and_then(|e| e.slot(&w.id))
        .map_or_else(
            || state.character(&w.id).map_or(30, |c| c.speed),
            |s| s.speed,
        );
    let speed = w.conditions.speed(base);
    if speed == 0 {
        return Err(refused(format!(
            "{}'s speed is 0 (grappled, restrained or worse): it cannot stand up until that ends",
            w.name
        )));
    }
    let mut changes = spend(state, &w, Spend::Movement(speed / 2))?;
    changes.push(Change::ConditionRemoved {
        target: target_of(&w),
        condition: Condition::Prone,
    });
    let text = format!("{} stands up, using {} ft of movement", w.name, speed / 2);
    Ok(Outcome {
        changes,
        rolls: Vec::new(),
        report: report(&w, StandardAction::StandUp, true, text),
    })
}

fn target_of(w: &Who) -> Target {
    if w.character {
        Target::Character(w.id.clone())
    } else {
        Target::Monster(w.id.clone())
    }
}
