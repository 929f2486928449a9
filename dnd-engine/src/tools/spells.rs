//! `cast_spell`: checks the caster knows the spell and has the slot, spends it, and hands a
//! spell with effects to the effects engine (`tools::spell_effects`). A spell without effects
//! is narrative (or not modelled yet): the same path spends its slot and time, takes
//! concentration, and its result says what is left to the narrator.
//!
//! The targets come from the spell: one creature unless its data says more (Bless: three, and
//! one more per slot level above 1st) or it has an area; one creature named twice only for
//! darts, rays and beams (Magic Missile, Scorching Ray, Eldritch Blast), whose count the spell
//! also sets.

use super::results::{RollReasons, SpellCast};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError, creature};
use crate::combat::targeting::SpellTarget;
use crate::srd::{Spell, TargetLimit};
use crate::state::Change;

/// Arguments of `cast_spell`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CastSpellArgs {
    /// The caster: a character id or name.
    #[schemars(extend("description" = ""))]
    pub caster: String,
    /// The spell's name, as on the caster's sheet.
    #[schemars(extend("description" = ""))]
    pub spell: String,
    /// The slot level to use; null for the spell's own level (cantrips use none).
    #[schemars(extend("description" = ""))]
    pub slot_level: Option<u8>,
    /// Who the spell affects (ids or names); empty for spells without a target. For a spell
    /// with an area in a fight that keeps positions, the area decides (everyone it covers,
    /// allies included) and any creature named here must stand in it.
    #[schemars(extend("description" = ""))]
    pub targets: Vec<String>,
    /// Where a spell with an area is aimed, in a fight that keeps positions: a creature or an
    /// area of the room (id or name). A sphere, cylinder or cube cast at a point is centred
    /// there (within the spell's range); a cone, a line or a cube of range Self goes out from
    /// the caster toward it. Null: at the first target named. Null for a spell without an area,
    /// except a teleport (Misty Step), whose aim may name the area it goes to.
    #[serde(default)]
    #[schemars(description = "An area spell's target creature or area.")]
    pub aim: Option<String>,
    /// Where a spell that teleports its caster takes it (Misty Step: up to 30 ft), in a fight
    /// that keeps positions: a point of the room in feet (or leave it null and name an area of
    /// the room in aim: its point). Null for any other spell, and outside such a fight.
    #[serde(default)]
    #[schemars(description = "A teleport's point (feet).")]
    pub point: Option<Point>,
    /// True to cast a ritual spell as a ritual, outside a fight: no slot (slot_level null), 10
    /// minutes longer (the clock advances). Null or false for a casting with a slot.
    #[serde(default)]
    #[schemars(extend("description" = ""))]
    pub ritual: Option<bool>,
    /// The caster's choice where the spell asks for one, by its name: Protection from Energy's
    /// damage type ("fire"), Enhance Ability's enhancement ("bear's endurance"). Null for a
    /// spell with no choice; a refusal lists the options.
    #[serde(default)]
    #[schemars(description = "The spell's option (\"fire\").")]
    pub choice: Option<String>,
    /// True to use again, with no slot, a lasting spell the caster keeps: Call Lightning's next
    /// bolt (action, aim anew), Heat Metal's heat (bonus action), Moonbeam moved 60 ft (action)
    /// or Flaming Sphere 30 ft (bonus action, aim at a creature to ram it), Hunter's Mark moved
    /// to a new creature after its creature dropped (bonus action). Null or false to cast.
    #[serde(default)]
    #[schemars(description = "Use a lasting spell again (move Moonbeam).")]
    pub again: Option<bool>,
    /// An Evocation wizard's Sculpt Spells, casting an evocation spell: up to 1 + the spell's
    /// level creatures (ids or names) that succeed on its save and take no damage from it.
    /// Null otherwise.
    #[serde(default)]
    #[schemars(extend("description" = ""))]
    pub sculpt: Option<Vec<String>>,
    /// A sorcerer's Metamagic options for this casting, by name ("Quickened", "Twinned"): one
    /// per spell (Empowered beside another), paid in sorcery points. Null for none.
    #[serde(default)]
    #[schemars(extend("description" = ""))]
    pub metamagic: Option<Vec<String>>,
    /// With Careful Spell in metamagic: the creatures (ids or names) among those the spell
    /// affects that succeed on its save, up to the sorcerer's Charisma modifier (at least 1).
    /// Null otherwise.
    #[serde(default)]
    #[schemars(extend("description" = ""))]
    pub careful: Option<Vec<String>>,
}

/// A point of the room, in feet: `x` and `y` along the floor, `z` the height above it.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Feet along the floor (west to east).
    #[schemars(extend("description" = ""))]
    pub x: i32,
    /// Feet along the floor (south to north).
    #[schemars(extend("description" = ""))]
    pub y: i32,
    /// Feet above the floor; null for the floor.
    #[schemars(extend("description" = ""))]
    #[serde(default)]
    pub z: Option<i32>,
}

impl From<Point> for crate::state::Position {
    fn from(p: Point) -> Self {
        crate::state::Position {
            x: p.x,
            y: p.y,
            z: p.z.unwrap_or(0),
        }
    }
}

pub(super) fn cast_spell(
    args: CastSpellArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<SpellCast, ToolError> {
    // Counterspell answers a spell being cast, which only the reaction window sees.
    // So does Hellish Rebuke being damaged.
    if let Ok(spell) = ctx.srd.spell(&args.spell)
        && let Some(when) =
            super::reactions::trigger_of(spell).filter(|w| *w != crate::state::ReactionTrigger::Hit)
    {
        return Err(ToolError::new(format!(
            "{} is cast as a reaction ({}): declare it with {} ({{\"spell\": \"{}\", \"when\": \"{}\"}}) and the engine casts it during monsters' turns",
            spell.name,
            match when {
                crate::state::ReactionTrigger::SpellCast => "when a creature casts a spell",
                _ => "when a creature it can see damages it",
            },
            super::names::DECLARE_REACTIONS,
            spell.name,
            when.name()
        )));
    }
    if args.again == Some(true) {
        if args.slot_level.is_some()
            || args.ritual == Some(true)
            || args.choice.is_some()
            || args.sculpt.is_some()
            || args.metamagic.is_some()
            || args.careful.is_some()
        {
            return Err(ToolError::new(format!(
                "using {} again spends no slot and makes no new choice: leave slot_level, ritual, choice, sculpt, metamagic and careful null (or cast it anew with again null)",
                args.spell
            )));
        }
        let aim = args.aim.as_deref();
        return super::spell_zones::again(ctx, &args.caster, &args.spell, aim, &args.targets);
    }
    super::feature_druid::may_cast(ctx.state, &args.caster)?; // no spells in a beast's shape
    // Metamagic checked and priced first; a Quickened spell costs a bonus action.
    let meta = super::feature_sorcerer::metamagic(ctx, &args)?;
    meta.act_casting(ctx, &args.caster, &args.spell)?;
    // Casting ends what lasts until the caster acts (Invisibility); a refusal below restores it.
    let ends = crate::effects::acting_ends(ctx.state, &args.caster);
    if !ends.is_empty() {
        ctx.commit(ends)?;
    }
    let caster = ctx
        .state
        .character(&args.caster)
        .ok_or_else(|| ToolError::new(format!("{:?} is not a character; only characters cast with this tool (monsters use roll_attack)", args.caster)))?
        .clone();
    if !caster.can_act() {
        return Err(ToolError::new(format!(
            "{} cannot cast: down or incapacitated",
            caster.name
        )));
    }
    let spell = ctx
        .srd
        .spell(&args.spell)
        .map_err(|e| ToolError::new(e.to_string()))?;
    // Agonizing and Repelling Blast change a warlock's Eldritch Blast.
    let invoked = super::feature_warlock::invoked_spell(&caster, spell);
    let spell = invoked.as_ref().unwrap_or(spell);
    let distant = meta.reshaped(spell); // Distant Spell's range
    let spell = distant.as_ref().unwrap_or(spell);
    if let Some(why) =
        crate::effects::silenced(ctx.state, &caster.id, spell).filter(|_| !meta.subtle())
    {
        return Err(ToolError::new(why));
    }
    let ritual = args.ritual == Some(true);
    let prepared = caster
        .spells
        .iter()
        .any(|s| crate::srd::slugify(s) == spell.slug);
    let book_ritual = ritual && super::spell_rituals::from_spellbook(ctx, &caster, spell);
    let own = prepared || book_ritual || super::feature_warlock::granted(&caster, spell);
    // A spell granted by a feature or trait (Thief of Five Fates, Infernal Legacy).
    let granted = super::spell_granted::casting(ctx, &caster, spell, args.slot_level, own, ritual)?;
    if !own && granted.is_none() {
        return Err(ToolError::new(format!(
            "{} does not know {}; known spells: {}",
            caster.name,
            spell.name,
            caster.spells.join(", ")
        )));
    }
    let caster = granted.as_ref().map_or(caster, |g| g.caster.clone());
    let (attack_bonus, save_dc) = caster
        .spellcasting()
        .ok_or_else(|| ToolError::new(format!("{} has no spellcasting ability", caster.name)))?;
    let ability_mod = caster
        .spellcasting_ability
        .map_or(0, |a| caster.abilities.modifier(a));
    let mut changes = Vec::new();
    if ritual {
        changes.extend(super::spell_rituals::ritual(
            ctx,
            &caster,
            spell,
            args.slot_level,
        )?);
    }
    // An invocation's spell at will (Armor of Shadows, Fiendish Vigor) spends no slot.
    let at_will = super::feature_warlock::at_will(&caster, spell, args.slot_level, &args.targets)?;
    let slot = if let Some(g) = &granted {
        changes.extend(g.changes.iter().cloned());
        g.slot
    } else if spell.level == 0 || ritual || at_will {
        None
    } else {
        let slot = args.slot_level.unwrap_or(spell.level);
        if slot < spell.level || slot > 9 {
            return Err(ToolError::new(format!(
                "{} is a level-{} spell: cast it with a slot of level {} to 9",
                spell.name, spell.level, spell.level
            )));
        }
        if caster.spell_slots.available(slot) == 0 {
            return Err(ToolError::new(format!(
                "{} has no level-{slot} slot left (left: {})",
                caster.name,
                caster.spell_slots.describe_available()
            )));
        }
        changes.push(Change::SlotSpent {
            character: caster.id.clone(),
            level: slot,
        });
        Some(slot)
    };
    // A component with a cost must be carried, and leaves with the casting if consumed.
    changes.extend(super::spell_components::costly_component(&caster, spell)?);
    let sculpted = super::feature_wizard::sculpted(ctx, &caster, spell, args.sculpt.as_deref())?;
    // A spell without effects (narrative, or not modelled yet) goes the same way with nothing
    // to resolve: it spends its slot and time, takes concentration, and its result says what
    // is left to the narrator.
    let prepared = super::spell_effects::Prepared {
        caster: &caster,
        spell,
        slot,
        changes,
        attack_bonus,
        save_dc,
        modifier: ability_mod,
        zone: None,
        again: false,
        sculpted,
        twinned: meta.twinned(),
        careful: meta.careful(),
        rerolls: meta.rerolls(),
    };
    let (aim, choice) = (args.aim.as_deref(), args.choice.as_deref());
    let point = args.point.map(Into::into);
    meta.commit(ctx, &caster, spell, &args.targets)?;
    let mut cast = super::spell_effects::cast(ctx, prepared, aim, choice, point, &args.targets)?;
    meta.after(ctx, &caster.id, spell)?;
    if let Some(g) = granted {
        cast.narrator = Some(match cast.narrator.take() {
            Some(n) => format!("{}; {n}", g.note),
            None => g.note,
        });
    }
    Ok(cast)
}

/// Adds the reasons of one roll when it has any (or the positions gave a distance).
pub(super) fn push_reasons(
    reasons: &mut Vec<RollReasons>,
    target: &str,
    at: &SpellTarget,
    kept: bool,
    advantage_reasons: crate::rules::AdvantageSources,
    modifier_reasons: Vec<String>,
) {
    let cover = at.cover.as_ref().map(|a| a.cover.describe().to_owned());
    let nothing = advantage_reasons.reasons().is_empty() && modifier_reasons.is_empty();
    if nothing && cover.is_none() && !kept {
        return;
    }
    reasons.push(RollReasons {
        target: target.to_owned(),
        distance_ft: (kept && at.distance_ft > 0).then_some(at.distance_ft),
        cover,
        advantage_reasons,
        modifier_reasons,
    });
}

/// Finds the creatures a casting names, within what the spell allows: at most its count
/// ([`crate::srd::Spell::target_limit`]: one, unless the spell's data says more or it has an
/// area), and each creature once unless the spell's darts, rays or beams may strike one
/// creature more than once.
pub(super) fn choose_targets<'s>(
    ctx: &ToolContext<'s>,
    spell: &Spell,
    limit: TargetLimit,
    names: &[String],
) -> Result<Vec<creature::CreatureInfo<'s>>, ToolError> {
    if let Some(max) = limit.max
        && names.len() > max as usize
    {
        let each = if limit.repeat {
            " (one per dart, ray or beam; a creature may be named again)"
        } else {
            ", each a different creature"
        };
        return Err(ToolError::new(format!(
            "{} names at most {max} target{} when cast this way{each}; {} were named",
            spell.name,
            if max == 1 { "" } else { "s" },
            names.len()
        )));
    }
    let mut targets: Vec<creature::CreatureInfo<'s>> = Vec::with_capacity(names.len());
    for name in names {
        let found = creature::find(ctx.state, ctx.srd, name)?;
        if !limit.repeat && targets.iter().any(|t| t.target == found.target) {
            return Err(ToolError::new(format!(
                "{} affects each creature once, and {} is named twice: name each creature at most once (only darts, rays and beams, as Magic Missile, Scorching Ray and Eldritch Blast, may strike one creature again)",
                spell.name, found.name
            )));
        }
        targets.push(found);
    }
    Ok(targets)
}
