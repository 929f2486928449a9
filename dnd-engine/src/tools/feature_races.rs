//! The racial traits the tools play: the dragonborn's Breath Weapon through `use_feature` (the
//! one racial trait a player uses on purpose), and the hooks of the attack path for the traits
//! that change a swing: Savage Attacks' extra die on a half-orc's melee critical hit and a
//! Small creature's disadvantage with a heavy weapon. Every other trait works by itself
//! (`character::race`, `state::racial`), so `use_feature` refuses it with what it does.

use super::features::{Played, UseFeatureArgs};
use super::results::FeatureReport;
use super::{ToolContext, ToolError, creature};
use crate::effects::{self, Caster, Casting, Dice, Effect, Outcome};
use crate::rules::attack::roll_damage;
use crate::rules::{Ability, AdvantageSources, AttackResult, DamageDealt, DamageDice, Spend};
use crate::srd::{OnSave, RacialTrait, Rest};
use crate::state::{Change, Character};
use crate::store::RollDetail;

use super::combat::Swing;

/// The trait slug of the dragonborn's breath.
const BREATH_WEAPON: &str = "breath-weapon";

/// `use_feature` on a racial trait: `None` when `args.feature` names no racial trait (the
/// class features are then looked up), else the Breath Weapon played, or the refusal of a
/// trait the character lacks or that is not used on purpose.
pub(super) fn use_racial(
    args: &UseFeatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Option<FeatureReport>, ToolError> {
    let wanted = args.feature.trim();
    let Some(t) = ctx.srd.races.traits.iter().find(|t| {
        t.parent.is_none()
            && (t.slug.eq_ignore_ascii_case(wanted) || t.name.eq_ignore_ascii_case(wanted))
    }) else {
        return Ok(None);
    };
    let c = super::sheet::named_character(ctx.state, &args.character)?.clone();
    if !c.has_racial_trait(ctx.srd, &t.slug) {
        return Err(ToolError::new(format!(
            "{} is not a trait of {} (a {}); its racial traits: {}",
            t.name,
            c.name,
            c.race,
            names(&c.racial_traits(ctx.srd))
        )));
    }
    if t.slug != BREATH_WEAPON {
        return Err(ToolError::new(format!(
            "{} works by itself and is not used through use_feature ({}); the racial trait use_feature plays: {BREATH_WEAPON}",
            t.name, t.description
        )));
    }
    let played = breath_weapon(&c, t, args, ctx)?;
    let after = ctx
        .state
        .character(&c.id)
        .ok_or_else(|| ToolError::new("character vanished"))?;
    Ok(Some(FeatureReport {
        character: after.name.clone(),
        feature: t.name.clone(),
        effect: played.effect,
        healed: None,
        rolled: played.rolled,
        hp: after.hp,
        uses_left: uses_left(after),
        uses_of: 1,
        strikes: Vec::new(),
    }))
}

fn names(traits: &[&RacialTrait]) -> String {
    traits
        .iter()
        .map(|t| t.slug.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn uses_left(c: &Character) -> u8 {
    c.feature_uses.get(BREATH_WEAPON).map_or(1, |u| u.left())
}

/// The breath's dice at `level`: 2d6, 3d6 at 6th level, 4d6 at 11th, 5d6 at 16th.
pub fn breath_dice(level: u8) -> u16 {
    2 + [6, 11, 16].iter().filter(|&&l| level >= l).count() as u16
}

/// The breath's save DC: 8 + Constitution modifier + proficiency bonus.
pub fn breath_dc(c: &Character) -> i32 {
    8 + c.abilities.modifier(Ability::Constitution) + c.proficiency_bonus()
}

/// Breath Weapon (dragonborn): an action; every creature in the ancestry's area (a 5-by-30-ft
/// line or a 15-ft cone from the dragonborn, aimed at `target`, where the fight keeps
/// positions; else the creatures named in `target`, comma-separated) saves against 8 + Con +
/// proficiency or takes the ancestry's damage, half on a success. Once per short rest.
fn breath_weapon(
    c: &Character,
    t: &RacialTrait,
    args: &UseFeatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    if args.amount.is_some() || args.option.is_some() {
        return Err(ToolError::new(
            "Breath Weapon takes a target (whom the breath is aimed at, or several names separated by commas) and no amount or option: leave them null",
        ));
    }
    let ancestry = c.draconic_ancestry(ctx.srd).ok_or_else(|| {
        ToolError::new(format!(
            "{} chose no draconic ancestry (choices.draconic-ancestry), so its breath has no element",
            c.name
        ))
    })?;
    let (Some(kind), Some(breath)) = (ancestry.damage_type, ancestry.breath.as_ref()) else {
        return Err(ToolError::new(format!("{} gives no breath", ancestry.name)));
    };
    let Some(aim) = args.target.as_deref().filter(|s| !s.trim().is_empty()) else {
        return Err(ToolError::new(format!(
            "Breath Weapon needs a target: whom {}'s {}-ft {} is aimed at",
            c.name, breath.size_feet, breath.shape
        )));
    };
    if uses_left(c) == 0 {
        return Err(ToolError::new(format!(
            "{} has used its Breath Weapon: it comes back after a short or long rest",
            c.name
        )));
    }
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    let shape = breath_area(ctx, &breath.shape, breath.size_feet)?;
    let names: Vec<String> = aim.split(',').map(|s| s.trim().to_owned()).collect();
    let limit = shape.target_limit(0, c.level);
    let chosen = super::spell_areas::targets(ctx, &c.id, &shape, limit, None, &names)?;
    if chosen.iter().any(|(info, _)| info.target.id() == c.id) {
        return Err(ToolError::new(format!(
            "{} cannot breathe on itself: name whom the breath is aimed at",
            c.name
        )));
    }
    let subjects: Vec<_> = chosen
        .iter()
        .map(|(info, at)| info.subject(at.clone()))
        .collect();
    let dc = breath_dc(c);
    let dice = Dice {
        count: breath_dice(c.level),
        sides: 6,
        bonus: 0,
        add_modifier: false,
        per_slot_level: 0,
        slot_levels_per_step: 1,
        bonus_per_slot_level: 0,
        by_tier: false,
    };
    let save = Effect::Save {
        ability: breath.save,
        dc: Some(dc),
        on_success: OnSave::Half,
        ignores_cover: false,
        on_fail: vec![Effect::Damage {
            dice,
            damage_type: kind,
        }],
    };
    let acting = Caster {
        id: c.id.clone(),
        name: c.name.clone(),
        attack_bonus: 0,
        save_dc: dc,
        modifier: 0,
        level: c.level,
    };
    let casting = Casting {
        caster: &acting,
        source: &t.name,
        level: 0,
        slot: 0,
        concentration: false,
    };
    let resolution = effects::resolve(ctx.state, casting, &subjects, &[save], ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    changes.push(Change::FeatureUsed {
        character: c.id.clone(),
        feature: BREATH_WEAPON.to_owned(),
        of: 1,
        restores: Rest::ShortRest,
        count: 1,
    });
    changes.extend(resolution.changes);
    let hits: Vec<String> = resolution
        .outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Save {
                target,
                save,
                damage,
                ..
            } => Some(format!(
                "{target} {} ({} vs DC {dc}): {damage} {}",
                if save.success { "saved" } else { "failed" },
                save.total,
                kind.name()
            )),
            _ => None,
        })
        .collect();
    super::damage::commit_with_follow_ups(ctx, &c.id, changes, resolution.rolls)?;
    Ok(Played {
        effect: format!(
            "{} breathes {} in a {}-ft {}: {}",
            c.name,
            kind.name(),
            breath.size_feet,
            breath.shape,
            hits.join("; ")
        ),
        healed: None,
        rolled: Some(format!("{}d6 {}", dice.count, kind.name())),
        ..Played::default()
    })
}

/// The breath's area as the area code reads a spell's: a self-range spell's record (Burning
/// Hands, a cone from the caster) with the breath's shape and size, so positions decide who is
/// in a breath exactly as they decide who is in a spell's cone or line.
fn breath_area(
    ctx: &ToolContext<'_>,
    shape: &str,
    feet: u32,
) -> Result<crate::srd::Spell, ToolError> {
    let mut spell = ctx
        .srd
        .spell_named("Burning Hands")
        .cloned()
        .ok_or_else(|| ToolError::new("the SRD has no Burning Hands to shape the breath by"))?;
    spell.name = "Breath Weapon".into();
    spell.targets = None;
    spell.area = Some(crate::srd::Area {
        shape: shape.to_owned(),
        size: feet,
    });
    Ok(spell)
}

/// Savage Attacks (half-orc): a melee weapon critical hit rolls one of the weapon's damage dice
/// once more and adds it (through the target's defenses, as the rest of the hit).
pub(super) fn savage_attacks(
    ctx: &mut ToolContext<'_>,
    who: &creature::CreatureInfo<'_>,
    swing: &Swing,
    melee: bool,
    defenses: &crate::rules::Defenses,
    result: &mut AttackResult,
) {
    let Some(c) = ctx.state.character(who.target.id()) else {
        return;
    };
    let is_weapon = ctx.srd.spell_named(&swing.name).is_none();
    let savage = result.hit && result.critical && melee && is_weapon;
    if !(savage && c.has_racial_trait(ctx.srd, "savage-attacks")) {
        return;
    }
    let Some(first) = swing.damage.first() else {
        return;
    };
    let die = DamageDice::new(1, first.sides, 0, first.kind);
    let dealt: DamageDealt = roll_damage(&die, false, defenses, ctx.rng);
    ctx.record_roll(
        format!("{} Savage Attacks", c.name),
        i64::from(dealt.taken),
        Some(who.target.clone()),
        RollDetail::Damage(dealt.clone()),
    );
    result.total_damage = result.total_damage.saturating_add(dealt.taken);
    result.damage.push(dealt);
}

/// A Small character's disadvantage when it attacks with a heavy weapon.
pub(super) fn small_with_heavy(
    ctx: &ToolContext<'_>,
    who: &creature::CreatureInfo<'_>,
    swing: &Swing,
) -> AdvantageSources {
    let Some(c) = ctx.state.character(who.target.id()) else {
        return AdvantageSources::default();
    };
    let heavy = ctx
        .srd
        .weapon(&swing.name)
        .is_ok_and(|w| w.properties.iter().any(|p| p == "heavy"));
    crate::character::race::heavy_weapon_sources(ctx.srd, c, heavy)
}
