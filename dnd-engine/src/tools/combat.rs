//! `roll_attack`: attacks through the rules, each spending from the attacker's turn (one attack
//! of a character's Attack action; a monster's whole action). An attack outside a fight starts
//! one first (`combat::fight_on_attack`).

use schemars::JsonSchema;
use serde::Deserialize;

use super::checks::add_situation;
use super::creature::{self, CreatureInfo};
use super::results::{AttackOutcome, AttackReport, AttackWaiting, FightStarted, SwingReport};
pub(super) use super::swings::{first_in_reach, reaches, swings_of};
use super::swings::{in_reach_hint, spend_limited};
use super::{ToolContext, ToolError};
use crate::combat::positions::{self, Reach};
use crate::dice::Advantage;
use crate::rules::conditions::{attack_modifiers, effective_defenses};
use crate::rules::{
    AdvantageSources, AttackProfile, AttackTarget, DamageDice, Spend,
    roll_attack_for as rules_attack,
};
use crate::state::{Change, Cover, MonsterInstance, StoryEvent, StoryKind, Target};
use crate::store::RollDetail;

/// Arguments of `roll_attack`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackArgs {
    /// Who attacks: a character or visible monster, id or name.
    #[schemars(extend("description" = ""))]
    pub attacker: String,
    /// Who is attacked: a character or visible monster, id or name.
    #[schemars(extend("description" = ""))]
    pub target: String,
    /// The weapon, action or kept spell weapon by name ("Longsword", "Multiattack",
    /// "Spiritual Weapon"); null for the first on the sheet.
    #[schemars(description = "A weapon or action by name; null: the first on the sheet.")]
    pub attack: Option<String>,
    /// From the situation; the engine adds what conditions give.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
}

/// One attack to make: its name, bonus, damage, and how far it reaches (whether it is made in
/// melee depends on the distance: `combat::positions::attack_range`).
pub(super) struct Swing {
    pub(super) name: String,
    pub(super) bonus: i32,
    pub(super) damage: Vec<DamageDice>,
    /// A magic weapon or a spell attack; otherwise defenses against nonmagical attacks count.
    pub(super) magical: bool,
    /// How far it reaches (`combat::positions`).
    pub(super) reach: Reach,
}

pub(super) fn roll_attack(
    args: AttackArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<AttackOutcome, ToolError> {
    // A spell's weapon (Spiritual Weapon) attacks again with the caster's bonus action.
    let (attacker, target) = (&args.attacker, &args.target);
    if let Some(cast) = super::spell_weapon::strike(ctx, attacker, target, args.attack.as_deref())?
    {
        return Ok(AttackOutcome::Spell(Box::new(cast)));
    }
    let started = start_if_attacked(ctx, &args.attacker, &args.target)?;
    if let Some(start) = started {
        let spend = spend_of(ctx, &args.attacker)?;
        // The fight stays started (that is the result), and the attack waits for its turn.
        if let Err(refused) = crate::combat::may_act(ctx.state, &args.attacker, spend) {
            return Ok(AttackOutcome::Waiting(AttackWaiting {
                attack_made: false,
                why: refused.to_string(),
                encounter_started: start,
            }));
        }
        let mut report = attack(
            ctx,
            &args.attacker,
            &args.target,
            args.attack.as_deref(),
            args.advantage,
        )?;
        report.encounter_started = Some(Box::new(start));
        return Ok(AttackOutcome::Made(report));
    }
    attack(
        ctx,
        &args.attacker,
        &args.target,
        args.attack.as_deref(),
        args.advantage,
    )
    .map(AttackOutcome::Made)
}

/// An attack outside a fight that involves a monster starts the fight first (the same code as
/// `start_encounter`): what starting it reported, or `None` when no fight was started.
fn start_if_attacked(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
) -> Result<Option<FightStarted>, ToolError> {
    if ctx.state.encounter.is_some() {
        return Ok(None);
    }
    let who = creature::find(ctx.state, ctx.srd, attacker)?.target;
    let victim = creature::find(ctx.state, ctx.srd, target)?.target;
    let fighting: Vec<MonsterInstance> = crate::combat::fight_on_attack(ctx.state, &who, &victim)
        .into_iter()
        .cloned()
        .collect();
    if fighting.is_empty() {
        return Ok(None);
    }
    super::encounter::begin_fight(ctx, &fighting, &[]).map(Some)
}

/// What one `roll_attack` spends: one attack of a character's Attack action, or a monster's
/// action (a Multiattack is one action of several swings).
fn spend_of(ctx: &ToolContext<'_>, attacker: &str) -> Result<Spend, ToolError> {
    Ok(match creature::find(ctx.state, ctx.srd, attacker)?.target {
        Target::Character(_) => Spend::Attack,
        Target::Monster(_) => Spend::Action,
    })
}

/// Resolves every swing of an attack (all of a multiattack), applying damage as it lands,
/// after spending it from the attacker's turn (which also refuses the dead and the
/// incapacitated).
pub(super) fn attack(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
    attack_name: Option<&str>,
    advantage: Option<Advantage>,
) -> Result<AttackReport, ToolError> {
    let spend = spend_of(ctx, attacker)?;
    // A fled foe is gone; a surrendered one fights again once attacked.
    let victim = creature::find(ctx.state, ctx.srd, target)?.target;
    if let Some(change) = super::monster_turn::attacked(ctx, &victim)? {
        ctx.commit(vec![change])?;
    }
    super::encounter::act(ctx, attacker, spend)?;
    attack_spent(ctx, attacker, target, attack_name, advantage)
}

/// [`attack`] once what it spends is spent (a readied attack spends the reaction first).
pub(super) fn attack_spent(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
    attack_name: Option<&str>,
    advantage: Option<Advantage>,
) -> Result<AttackReport, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, attacker)?;
    let chosen = attack_name.map_or_else(
        || first_in_reach(ctx, attacker, target),
        |n| Some(n.to_owned()),
    );
    let swings = swings_of(ctx, &who, chosen.as_deref())?;
    spend_limited(ctx, &who, chosen.as_deref())?;
    // Sanctuary: a failed Wisdom save loses the attack (what it spent stays spent).
    let warded = creature::find(ctx.state, ctx.srd, target)?;
    let sanctuary = super::wards::sanctuary_save(ctx, &who, &warded)?;
    let lost = sanctuary.as_ref().is_some_and(|w| w.lost);
    let mut outcomes = Vec::new();
    for swing in swings.into_iter().filter(|_| !lost) {
        let victim = creature::find(ctx.state, ctx.srd, target)?;
        if victim.target == who.target {
            return Err(ToolError::new(format!("{} cannot attack itself", who.name)));
        }
        if let Some(why) = crate::effects::apart(ctx.state, who.target.id(), victim.target.id()) {
            return Err(ToolError::new(why));
        }
        if !victim.standing && !victim.is_character() {
            if outcomes.is_empty() {
                return Err(ToolError::new(format!("{} is already dead", victim.name)));
            }
            break;
        }
        let setup = attack_setup(ctx, &who, &victim, &swing, advantage)?;
        // Mirror Image: the swing may go at a duplicate, at the duplicate's AC.
        let duplicate = super::wards::duplicate_struck(ctx, &victim);
        let sources = setup.sources;
        // Bless adds a d4 to the roll, Bane takes one away (`effects::roll_bonus`).
        let mut bonus = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Attack);
        // Divine Favor's and Branding Smite's dice ride on a character's weapon hits.
        let (damage, riders) = weapon_riders(ctx.state, &who, &swing);
        // A mark the attacker put on the target adds its dice to a weapon hit (Hunter's Mark).
        let mut damage = damage;
        if let Some(first) = swing.damage.first()
            && who.is_character()
            && ctx.srd.spell_named(&swing.name).is_none()
        {
            let (by, on) = (who.target.id(), victim.target.id());
            damage.extend(crate::effects::mark_damage(ctx.state, by, on, first.kind));
        }
        damage.extend(super::wards::enlarged_dice(ctx, &who, &swing.damage));
        // Sneak Attack: the engine's dice on a qualifying finesse or ranged attack.
        let sneak =
            super::feature_rogue::sneak_attack(ctx, &who, &victim, &swing, sources.resolve());
        damage.extend(sneak.iter().flatten().map(|s| s.dice));
        // A readied Divine Smite rides a melee weapon hit; its slot is spent only if it lands.
        let smite =
            super::feature_paladin::smite_rider(ctx, &who, &victim, &swing.name, setup.range.melee);
        damage.extend(smite.as_ref().map(|(dice, _)| *dice));
        let melee = setup.range.melee;
        let rage =
            super::feature_barbarian::on_attack(ctx, &who, &victim, &swing, melee, &mut damage);
        let slayer =
            super::feature_ranger::colossus_slayer(ctx, &who, &victim, &swing, &mut damage);
        let struck = super::feature_hunter::struck(ctx, &who, &victim, &swing);
        let profile = AttackProfile {
            attack_bonus: swing.bonus + bonus.total,
            damage: &damage,
            critical_range: critical_range(ctx, &who, &swing),
        };
        let defense = AttackTarget {
            armor_class: duplicate.as_ref().map_or(setup.armor_class, |(_, ac)| *ac),
            defenses: effective_defenses(&victim.defenses, &victim.conditions)
                .against_attack(swing.magical),
            hits_are_critical: setup.hits_are_critical,
        };
        let lucky = sources.lucky; // a halfling's natural 1 is rolled again
        let mut result = rules_attack(&profile, &defense, sources.resolve(), lucky, ctx.rng);
        let by = who.target.id(); // Bardic Inspiration, where the die could turn a miss
        bonus.reasons.extend(super::feature_bard::inspired_attack(
            ctx,
            by,
            &mut result,
            &profile,
            &defense,
        ));
        let defenses = &defense.defenses;
        super::feature_fighting::great_weapon(ctx, &who, &swing, melee, defenses, &mut result);
        super::feature_races::savage_attacks(
            ctx,
            &who,
            &swing,
            melee,
            &defense.defenses,
            &mut result,
        );
        super::wards::reduced_hit(ctx, &who, &mut result);
        // A hero hit by a monster may cast the Shield it declared, when that turns the hit (not
        // a duplicate struck instead); a monster hit by a hero may parry or cast Shield from
        // its list, when that turns it.
        let (by, on) = (who.target.id().to_owned(), victim.target.id().to_owned());
        let reaction = match (who.is_character(), victim.is_character()) {
            (false, true) if duplicate.is_none() => {
                let (swung, ranged) = (&swing.name, !setup.range.melee);
                super::feature_reactions::against_hit(ctx, &who, swung, ranged, &on, &mut result)?
            }
            (true, false) => {
                let melee = setup.range.melee;
                super::monster_reactions::against_hit(ctx, &by, &on, melee, &mut result)?
            }
            _ => None,
        };
        let note = if bonus.reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", bonus.reasons.join(", "))
        };
        ctx.record_roll(
            format!(
                "{} attacks {} ({}){note}",
                who.name, victim.name, swing.name
            ),
            i64::from(result.total),
            Some(who.target.clone()),
            RollDetail::Attack(result.clone()),
        );
        let mut changes = setup.ends; // a Help spent, a hider revealed
        changes.extend(rage); // a raging barbarian's attack keeps the rage up
        changes.extend(struck); // what Horde Breaker follows
        if let (true, Some((images, _))) = (result.hit, &duplicate) {
            changes.push(crate::effects::image_destroyed(images));
        }
        // A hit on a duplicate hurts no one.
        let landed = result.hit && duplicate.is_none();
        if landed {
            changes.extend(slayer); // Colossus Slayer, once a turn
            // A smite for the next hit only is spent by this one.
            changes.extend(
                riders
                    .into_iter()
                    .map(|effect| Change::TimedEffectEnded { effect }),
            );
            changes.extend(smite.into_iter().flat_map(|(_, spent)| spent));
            changes.push(Change::Damage {
                target: victim.target.clone(),
                amount: result.total_damage,
                critical: result.critical,
            });
            if let Some(Ok(_)) = sneak {
                changes.extend(super::feature_rogue::sneak_spent(ctx.state, &by));
            }
        }
        ctx.commit(changes)?;
        let carried = if landed && !who.is_character() {
            let id = who.target.id().to_owned();
            super::monster_action::on_hit(
                ctx,
                &id,
                &swing.name,
                &victim.target,
                result.total_damage,
            )?
        } else {
            // A monk's swing: Martial Arts opened, a readied Stunning Strike on a melee hit.
            let melee_hit =
                landed && setup.range.melee && ctx.srd.spell_named(&swing.name).is_none();
            super::feature_monk::after_swing(ctx, &who, &victim.target, &swing.name, melee_hit)?
        };
        let (hurt, by) = (victim.target.id().to_owned(), who.target.id().to_owned());
        let taken = if landed { result.total_damage } else { 0 };
        let mut after_damage = super::damage::after_damage(ctx, &hurt, taken, Some(&by))?;
        // A hero hurt may have answered with the Hellish Rebuke it declared.
        let reaction = reaction.or(after_damage.rebuke.take());
        // Giant Killer: a hunter's reaction strikes back at a big attacker beside it.
        let reaction = super::feature_hunter::giant_killer(ctx, &who, &hurt, reaction)?;
        let after = creature::find(ctx.state, ctx.srd, target)?;
        if victim.standing && !after.standing {
            let text = if after.is_character() {
                format!("{} fell to {}'s {}", after.name, who.name, swing.name)
            } else {
                format!(
                    "{} slew {} with its {}",
                    who.name,
                    after.name,
                    swing.name.to_lowercase()
                )
            };
            let event = StoryEvent {
                turn: ctx.state.turn + 1,
                kind: StoryKind::Death,
                text,
            };
            ctx.log.events.push(event);
        }
        let duplicate = duplicate.map(|(_, ac)| {
            let fate = if result.hit { "destroyed" } else { "missed" };
            format!("struck at a duplicate (AC {ac}): {fate}")
        });
        let sneak_attack = super::feature_rogue::sneak_report(sneak.as_ref(), landed, result.hit);
        outcomes.push(SwingReport {
            attack: swing.name,
            result,
            advantage_reasons: sources,
            distance_ft: setup.range.distance_ft,
            cover: (setup.range.cover != Cover::None)
                .then(|| setup.range.cover.describe().to_owned()),
            target_hp: crate::state::compact::hit_points(after.hp.0, after.hp.1),
            target_down: !after.standing,
            on_hit_save: carried,
            hold_saves: after_damage.hold_saves,
            concentration_save: after_damage.concentration,
            reaction,
            duplicate,
            sneak_attack,
        });
        // An attacker felled mid-multiattack (by Giant Killer) swings no more.
        if !creature::find(ctx.state, ctx.srd, attacker).is_ok_and(|a| a.standing) {
            break;
        }
    }
    Ok(AttackReport {
        attacker: who.name.to_owned(),
        target: target.to_owned(),
        attacks: outcomes,
        encounter_started: None,
        opportunity_attack: false,
        sanctuary,
    })
}

/// A swing's damage with the dice a character's timed effects add to its weapon hits
/// (`state::weapon_damage`), and the effects a hit spends (those for the next hit only).
/// Monsters' swings and spell attacks are left as they are.
pub(super) fn weapon_riders(
    state: &crate::state::GameState,
    who: &CreatureInfo<'_>,
    swing: &Swing,
) -> (Vec<DamageDice>, Vec<crate::state::TimedEffect>) {
    let mut damage = swing.damage.clone();
    let mut spent = Vec::new();
    if !who.is_character() {
        return (damage, spent);
    }
    for (effect, count, sides, kind) in crate::state::weapon_damage(
        crate::state::timed_effects(state, who.target.id()),
        &swing.name,
    ) {
        damage.push(DamageDice::new(count, sides, 0, kind));
        if matches!(
            effect.kind,
            crate::state::TimedKind::WeaponDamage {
                next_hit_only: true,
                ..
            }
        ) {
            spent.push(effect.clone());
        }
    }
    (damage, spent)
}

/// Everything an attack roll is made against, before the die is cast: the advantage sources
/// (conditions, range, effects, the stated situation), the armor class with cover, whether a
/// hit is critical, and the effects the roll uses up. One place for the roll and for its odds
/// ([`super::odds`]).
pub(super) struct AttackSetup {
    pub(super) sources: AdvantageSources,
    pub(super) armor_class: i32,
    pub(super) hits_are_critical: bool,
    pub(super) ends: Vec<Change>,
    /// The distance and cover it was checked at.
    pub(super) range: positions::RangeCheck,
}

/// The [`AttackSetup`] of one swing, or why it cannot be made from where the attacker stands.
/// The lowest natural d20 that crits: a character's weapon attack reads its features
/// (Improved Critical); a spell's attack and a monster's crit on a 20.
pub(super) fn critical_range(ctx: &ToolContext<'_>, who: &CreatureInfo<'_>, swing: &Swing) -> u8 {
    match ctx.state.character(who.target.id()) {
        Some(c) if ctx.srd.spell_named(&swing.name).is_none() => {
            crate::character::features::weapon_critical_range(ctx.srd, c)
        }
        _ => 20,
    }
}

pub(super) fn attack_setup(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
    advantage: Option<Advantage>,
) -> Result<AttackSetup, ToolError> {
    let range = positions::attack_range(
        ctx.state,
        who.target.id(),
        victim.target.id(),
        &swing.name,
        swing.reach,
    )
    .map_err(|e| ToolError::new(in_reach_hint(ctx, who, victim.target.id(), e)))?;
    let modifiers = attack_modifiers(&who.conditions, &victim.conditions, range.melee);
    let mut sources = modifiers.sources.clone();
    for why in &range.disadvantage {
        sources.disadvantage(why.clone());
    }
    let effects = crate::combat::attack_situation(ctx.state, who.target.id(), victim.target.id());
    sources.extend(effects.sources);
    sources.extend(super::feature_races::small_with_heavy(ctx, who, swing));
    super::feature_barbarian::attack_sources(ctx, who, swing, range.melee, &mut sources);
    let mut ends = effects.ends;
    super::feature_fighting::protection(ctx, who, victim, &mut sources, &mut ends);
    add_situation(&mut sources, advantage);
    Ok(AttackSetup {
        sources,
        armor_class: victim.armor_class + range.armor_bonus(),
        hits_are_critical: modifiers.hit_is_critical,
        ends,
        range,
    })
}
