//! `cast_spell` for a summoning (`effects::Summon`: Conjure Animals, Animate Dead), the one
//! place that reads it. The caster's `choice` names the SRD creature, optionally with how many
//! ("wolf", "4 wolf"); the spell's data decides which creatures may come and how many at the
//! slot, and a wrong choice is refused with what is allowed, before anything is spent. The
//! creatures appear where the caster stands (`Change::Summoned`), held by the spell's timed
//! effect (`TimedKind::Summoned`: they are gone when it ends), and in a running fight join the
//! order at one initiative rolled for the group (the SRD's Conjure Animals: "roll initiative
//! for the summoned creatures as a group"; Animate Dead's undead the same way).

use super::results::SpellCast;
use super::{ToolContext, ToolError};
use crate::dice::Advantage;
use crate::effects::{Command, Outcome, Summon};
use crate::rules::HitPoints;
use crate::rules::ability_modifier;
use crate::rules::initiative::{InitiativeEntry, roll_initiative};
use crate::srd::Monster;
use crate::state::{Change, MonsterInstance, Summoned, TimedEffect, TimedKind};
use crate::store::RollDetail;

/// Casts the summoning `summon` of `p.spell` (see the module docs).
pub(super) fn cast(
    ctx: &mut ToolContext<'_>,
    p: super::spell_effects::Prepared<'_>,
    summon: &Summon,
    choice: Option<&str>,
    names: &[String],
) -> Result<SpellCast, ToolError> {
    let (caster, spell) = (p.caster, p.spell);
    let slot = p.slot.unwrap_or(spell.level);
    if !names.is_empty() {
        return Err(ToolError::new(format!(
            "{} names no target: give targets [] and the creature in choice ({})",
            spell.name,
            summon.describe()
        )));
    }
    // The Pact of the Chain's special forms: a chain warlock's familiar may take them.
    let summon = &super::feature_chain::familiar_forms(ctx, caster, spell, summon, choice)?;
    let (template, count) = chosen(ctx, summon, &spell.name, spell.level, slot, choice)?;
    let id = caster.id.clone();
    let mut cast = super::spell_effects::resolve_and_commit(ctx, p, &[], &[], Vec::new())?;
    let initiative = group_initiative(ctx, template);
    let speed = crate::combat::geometry::fighting_speed(&template.speed);
    let at = crate::combat::positions::position_of(ctx.state, &id);
    let location = ctx
        .state
        .character(&id)
        .map(|c| c.location.clone())
        .unwrap_or_default();
    // One at a time (a familiar): the one there goes first.
    let mut changes: Vec<Change> = if summon.one_at_a_time {
        ctx.state
            .monsters
            .iter()
            .filter(|m| {
                m.is_summon()
                    && m.summoned
                        .as_ref()
                        .is_some_and(|s| s.by == id && s.spell == spell.name)
            })
            .flat_map(|m| &m.timed_effects)
            .filter(|e| matches!(e.kind, TimedKind::Summoned))
            .map(|e| Change::TimedEffectEnded { effect: e.clone() })
            .collect()
    } else {
        Vec::new()
    };
    let mut creatures = Vec::new();
    let mut n = 1;
    while creatures.len() < count as usize {
        let new_id = format!("{}-{id}-{n}", template.slug);
        n += 1;
        if ctx.state.monster(&new_id).is_some() {
            continue;
        }
        let monster = MonsterInstance {
            id: new_id.clone(),
            name: format!(
                "{} {} ({})",
                template.name,
                creatures.len() + 1,
                cast.caster
            ),
            template: template.slug.clone(),
            hp: HitPoints::full(template.hit_points),
            armor_class: template.armor_class,
            conditions: Default::default(),
            location: location.clone(),
            hostile: false,
            revealed: true,
            area: None,
            morale: Default::default(),
            spent_actions: Vec::new(),
            uses_spent: Default::default(),
            legendary_resistance: 0,
            concentration: None,
            holds: Vec::new(),
            timed_effects: Vec::new(),
            summoned: Some(Summoned {
                by: id.clone(),
                spell: spell.name.clone(),
                bonus_action_command: matches!(summon.command, Command::BonusAction { .. }),
                no_attacks: !summon.attacks,
                command: None,
                gone: false,
            }),
            kind: template.kind.clone(),
        };
        changes.push(Change::Summoned {
            monster: Box::new(monster),
            initiative,
            speed,
        });
        if let (Some(to), Some(_)) = (at, initiative) {
            changes.push(Change::Moved {
                creature: new_id.clone(),
                to,
            });
        }
        changes.push(Change::TimedEffectStarted {
            effect: TimedEffect {
                source: id.clone(),
                spell: spell.name.clone(),
                target: new_id.clone(),
                concentration: spell.concentration,
                rounds_left: summon.rounds,
                ends_on_damage: false,
                level: slot,
                at_turn_end: false,
                kind: TimedKind::Summoned,
            },
        });
        creatures.push(new_id);
    }
    ctx.commit(changes)?;
    cast.lasting.push(Outcome::Summoned {
        creatures,
        initiative,
        command: match summon.command {
            Command::Free if !summon.attacks => {
                "it obeys its caster but cannot attack: it takes no attack on its turns".to_owned()
            }
            Command::Free => "a word, no action: they fight the caster's foes; command_summon names the foe they attack next".to_owned(),
            Command::BonusAction { range_ft } => format!(
                "a bonus action of the caster (within {range_ft} ft) with command_summon names the foe it attacks on its next turn; uncommanded it only defends itself"
            ),
        },
    });
    Ok(cast)
}

/// The creature the caster's `choice` names and how many come, or a refusal saying what is
/// allowed: a creature of the SRD, of the type and challenge rating an option allows, at most
/// as many as the slot allows.
fn chosen<'s>(
    ctx: &ToolContext<'s>,
    summon: &Summon,
    spell: &str,
    level: u8,
    slot: u8,
    choice: Option<&str>,
) -> Result<(&'s Monster, u32), ToolError> {
    let allowed = || {
        let mut words = summon.describe();
        if slot > level {
            words.push_str(&format!(" (at the spell's level; more at slot {slot})"));
        }
        words
    };
    let Some(choice) = choice.map(str::trim).filter(|c| !c.is_empty()) else {
        return Err(ToolError::new(format!(
            "{spell} needs choice: the SRD creature that comes, optionally with how many (\"wolf\", \"4 wolf\"). Allowed: {}",
            allowed()
        )));
    };
    let (asked, name) = match choice.split_once(' ') {
        Some((n, rest)) if n.parse::<u32>().is_ok() => (n.parse::<u32>().ok(), rest.trim()),
        _ => (None, choice),
    };
    let template = ctx.srd.monster(name).map_err(|_| {
        ToolError::new(format!(
            "{name:?} is not a creature of the SRD: {spell} brings {}",
            allowed()
        ))
    })?;
    let option = summon
        .option_for(
            spell,
            &template.slug,
            &template.kind,
            template.challenge_rating,
        )
        .map_err(|e| ToolError::new(e.to_string()))?;
    let most = summon.count(option, level, slot);
    match asked {
        Some(n) if n == 0 || n > most => Err(ToolError::new(format!(
            "{spell} at slot {slot} brings at most {most} {} (asked: {n}); name from 1 to {most}",
            template.name
        ))),
        Some(n) => Ok((template, n)),
        None => Ok((template, most)),
    }
}

/// One initiative for the group in a running fight (recorded), `None` outside a fight.
fn group_initiative(ctx: &mut ToolContext<'_>, template: &Monster) -> Option<i32> {
    ctx.state.encounter.as_ref()?;
    let dex = template.abilities.dexterity;
    let rolls = roll_initiative(
        &[InitiativeEntry {
            id: template.slug.clone(),
            bonus: ability_modifier(dex),
            dexterity: dex,
            advantage: Advantage::Normal,
        }],
        ctx.rng,
    );
    let roll = rolls.into_iter().next()?;
    let total = roll.total;
    ctx.record_roll(
        format!("{} initiative (summoned, as a group)", template.name),
        i64::from(total),
        None,
        RollDetail::Initiative(roll),
    );
    Some(total)
}
