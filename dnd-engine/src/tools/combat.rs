//! `roll_attack`: attacks through the rules, each spending from the attacker's turn (one attack
//! of a character's Attack action; a monster's whole action). An attack outside a fight starts
//! one first (`combat::fight_on_attack`).

use schemars::JsonSchema;
use serde::Deserialize;

use super::checks::add_situation;
use super::creature::{self, CreatureInfo};
use super::results::{AttackOutcome, AttackReport, AttackWaiting, FightStarted, SwingReport};
use super::{ToolContext, ToolError};
use crate::combat::positions::{self, PositionError, Reach};
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
    pub attacker: String,
    /// Who is attacked: a character or visible monster, id or name.
    pub target: String,
    /// The weapon or action by name ("Longsword", "Claws", "Multiattack"); null for the first
    /// one on the sheet (a monster's multiattack when it has one). A spell whose weapon the
    /// caster keeps ("Spiritual Weapon") attacks with it again, as a bonus action.
    pub attack: Option<String>,
    /// Advantage or disadvantage the situation gives (conditions are added by the engine).
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
        let bonus = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Attack);
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
        let after_damage = super::damage::after_damage(ctx, &hurt, taken, Some(&by))?;
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

/// Spends a monster's attack of limited use (the giant spider's Web, Recharge 5–6) as it is
/// made, or refuses it while it is spent (`monster_plan::usable`, `monster_plan::spend`).
fn spend_limited(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    name: Option<&str>,
) -> Result<(), ToolError> {
    let (Some(template), Some(name)) = (who.template, name) else {
        return Ok(());
    };
    let Some(action) = template
        .actions
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name) && a.usage.is_some())
    else {
        return Ok(());
    };
    let Some(m) = ctx.state.monster(who.target.id()) else {
        return Ok(());
    };
    if !crate::combat::monster_plan::usable(m, action) {
        let usable: Vec<&str> = template
            .actions
            .iter()
            .filter(|a| a.attack.is_some() && crate::combat::monster_plan::usable(m, a))
            .map(|a| a.name.as_str())
            .collect();
        return Err(ToolError::new(format!(
            "{}'s {} is spent until it comes back (a recharge roll at the start of its turn, or rest); attack with: {}",
            who.name,
            action.name,
            usable.join(", ")
        )));
    }
    let changes = crate::combat::monster_plan::spend(who.target.id(), action);
    ctx.commit(changes)
}

/// The swings an attack makes: a character's weapon; a monster's named action, or its
/// multiattack expanded into its steps.
pub(super) fn swings_of(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    name: Option<&str>,
) -> Result<Vec<Swing>, ToolError> {
    if let Target::Character(id) = &who.target {
        let c = ctx
            .state
            .character(id)
            .ok_or_else(|| ToolError::new("character vanished"))?;
        // Alter Self's claws, by their name.
        if let Some(swing) = name.and_then(|n| super::wards::natural_swing(c, n)) {
            return Ok(vec![swing]);
        }
        let attack = match name {
            None => c.attacks.first().cloned(),
            // A monk's unarmed strike, even where the sheet does not list it.
            Some(n) => crate::character::monk::attack_named(c, n),
        }
        .ok_or_else(|| {
            let mut valid: Vec<&str> = c.attacks.iter().map(|a| a.name.as_str()).collect();
            valid.extend(crate::effects::natural_weapon(&c.timed_effects, None).map(|w| w.0));
            ToolError::new(format!(
                "{} has no attack {:?}; valid: {}",
                c.name,
                name.unwrap_or(""),
                valid.join(", ")
            ))
        })?;
        // Martial Arts: Dexterity and the martial arts die for a monk's fists and weapons.
        let attack = crate::character::monk::martial_attack(ctx.srd, c, &attack);
        let attack = attack.as_ref();
        let (bonus, damage) = super::feature_fighting::swing_numbers(ctx, c, attack);
        return Ok(vec![Swing {
            name: attack.name.clone(),
            bonus,
            damage: vec![damage],
            magical: c.attack_is_magical(attack),
            reach: Reach::of_character_attack(ctx.srd, attack),
        }]);
    }
    let template = who
        .template
        .ok_or_else(|| ToolError::new("monster without a stat block"))?;
    let attack_actions: Vec<&str> = template
        .actions
        .iter()
        .filter(|a| a.attack.is_some())
        .map(|a| a.name.as_str())
        .collect();
    let wants_multi = name.is_none_or(|n| n.eq_ignore_ascii_case("multiattack"));
    let multi = template
        .actions
        .iter()
        .find_map(|a| a.multiattack.first())
        .filter(|_| wants_multi);
    let steps: Vec<(String, u32)> = match (multi, name) {
        (Some(steps), _) => steps.iter().map(|s| (s.action.clone(), s.count)).collect(),
        (None, Some(n)) if !n.eq_ignore_ascii_case("multiattack") => vec![(n.to_owned(), 1)],
        _ => attack_actions
            .first()
            .map(|n| vec![((*n).to_owned(), 1)])
            .unwrap_or_default(),
    };
    let mut swings = Vec::new();
    for (action_name, count) in steps {
        let Some(action) = template
            .actions
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(&action_name))
        else {
            return Err(ToolError::new(format!(
                "{} has no action {action_name:?}; valid: {}",
                who.name,
                attack_actions.join(", ")
            )));
        };
        let Some(attack) = &action.attack else {
            if multi.is_none() {
                // A breath or a song is played on the monster's turn (`next_turn`), through
                // the effects engine: no attack roll makes it.
                return Err(ToolError::new(format!(
                    "{}'s {} makes no attack roll: it forces a save, and the monster uses it on its own turn (next_turn); attack with: {}",
                    who.name,
                    action.name,
                    attack_actions.join(", ")
                )));
            }
            continue; // a multiattack step without an attack roll (a frightening glare)
        };
        let damage = if action.damage.is_empty() {
            action.damage_options.iter().take(1).copied().collect()
        } else {
            action.damage.clone()
        };
        for _ in 0..count {
            swings.push(Swing {
                name: action.name.clone(),
                bonus: attack.to_hit,
                damage: damage.clone(),
                magical: template.attack_is_magical(attack),
                reach: Reach::of_monster_attack(attack),
            });
        }
    }
    if swings.is_empty() {
        return Err(ToolError::new(format!(
            "{} has no attack roll to make; valid: {}",
            who.name,
            attack_actions.join(", ")
        )));
    }
    Ok(swings)
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

/// A character's attack when none is named: the first on the sheet that reaches the target
/// without disadvantage from range, else the first that reaches at all; `None` (the sheet's
/// first, which the range check then refuses with the distances) when none does, and for
/// monsters (their multiattack).
pub(super) fn first_in_reach(
    ctx: &ToolContext<'_>,
    attacker: &str,
    target: &str,
) -> Option<String> {
    let c = ctx.state.character(attacker)?;
    let victim = creature::find(ctx.state, ctx.srd, target).ok()?;
    let fits = |a: &&crate::state::CharacterAttack| {
        let reach = Reach::of_character_attack(ctx.srd, a);
        positions::attack_range(ctx.state, &c.id, victim.target.id(), &a.name, reach).ok()
    };
    c.attacks
        .iter()
        .find(|a| fits(a).is_some_and(|r| r.disadvantage.is_empty()))
        .or_else(|| c.attacks.iter().find(|a| fits(a).is_some()))
        .map(|a| a.name.clone())
}

/// A range error, with the attacks of a character that do reach the target from where it
/// stands ("attacks that reach: Javelin (range 30/120 ft)").
fn in_reach_hint(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    target: &str,
    error: PositionError,
) -> String {
    let Some(c) = ctx.state.character(who.target.id()) else {
        return error.to_string();
    };
    let reaching: Vec<String> = c
        .attacks
        .iter()
        .filter_map(|a| {
            let reach = Reach::of_character_attack(ctx.srd, a);
            positions::attack_range(ctx.state, &c.id, target, &a.name, reach)
                .ok()
                .map(|_| format!("{} ({})", a.name, reach.describe()))
        })
        .collect();
    if reaching.is_empty() {
        error.to_string()
    } else {
        format!(
            "{error}; attacks that reach from here: {}",
            reaching.join(", ")
        )
    }
}

/// Whether `attacker`'s default attack (a monster's multiattack, a character's first that
/// reaches) can be made at `target` from where they stand, and `target` is not already down.
pub(super) fn reaches(ctx: &ToolContext<'_>, attacker: &str, target: &str) -> bool {
    let Ok(who) = creature::find(ctx.state, ctx.srd, attacker) else {
        return false;
    };
    let chosen = first_in_reach(ctx, attacker, target);
    let Ok(swings) = swings_of(ctx, &who, chosen.as_deref()) else {
        return false;
    };
    swings.iter().any(|swing| {
        positions::attack_range(ctx.state, attacker, target, &swing.name, swing.reach).is_ok()
    })
}
