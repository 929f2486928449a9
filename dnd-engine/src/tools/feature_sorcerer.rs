//! The sorcerer's Font of Magic and Metamagic. Flexible Casting through `use_feature` (a bonus
//! action each, `amount` the slot level): `flexible-casting-converting-spell-slot` spends a slot
//! for as many sorcery points as its level, `flexible-casting-creating-spell-slots` spends
//! 2/3/5/6/7 points to make a spent slot of 1st to 5th level whole again. Metamagic through
//! `cast_spell`'s `metamagic` argument ([`metamagic`]): checked and priced before anything is
//! spent, the points spent with the casting. Careful Spell's creatures are named in
//! `cast_spell`'s `careful` and must be among those the spell affects ([`careful_among`]);
//! Empowered Spell's rerolls are the engine's (`effects::reroll_lowest`). The rules are
//! `character::sorcerer`'s.

use super::features::{FeatureUse, Played, refused};
use super::spells::CastSpellArgs;
use super::{ToolContext, ToolError};
use crate::character::sorcerer::{self, HIGHEST_CREATED_SLOT, Metamagic};
use crate::character::uses;
use crate::rules::{CastingTime, Spend};
use crate::srd::{Class, ClassFeature, Spell};
use crate::state::{Change, Character, RollOn, TimedEffect, TimedKind};

/// What Heightened Spell's disadvantage is called on its target.
const HEIGHTENED: &str = "Heightened Spell";

/// The font of sorcery points of `c`: its class and the `font-of-magic` feature.
fn font<'s>(
    ctx: &ToolContext<'s>,
    c: &Character,
) -> Result<(&'s Class, &'s ClassFeature), ToolError> {
    uses::feature_of(ctx.srd, c, "font-of-magic").map_err(refused)
}

/// The slot level in `amount`, with what Flexible Casting allows.
fn slot_level(using: &FeatureUse<'_>, highest: u8) -> Result<u8, ToolError> {
    let a = using.args;
    if a.target.is_some() || a.option.is_some() {
        return Err(ToolError::new(format!(
            "{} takes no target or option: the slot level goes in amount",
            using.feature.name
        )));
    }
    match a.amount {
        Some(n @ 1..) if n <= u32::from(highest) => Ok(n as u8),
        _ => Err(ToolError::new(format!(
            "{} needs amount: a slot level from 1 to {highest}",
            using.feature.name
        ))),
    }
}

/// Flexible Casting: a spell slot into sorcery points (its level in points, never past the
/// pool's maximum).
pub(super) fn slot_to_points(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    let (class, font_feature) = font(ctx, c)?;
    let level = slot_level(using, 9)?;
    if c.spell_slots.available(level) == 0 {
        return Err(ToolError::new(format!(
            "{} has no level-{level} slot to convert (left: {})",
            c.name,
            c.spell_slots.describe_available()
        )));
    }
    let (of, _) = uses::uses_of(class, font_feature, c).unwrap_or((0, crate::srd::Rest::LongRest));
    let spent = c
        .feature_uses
        .get(&font_feature.slug)
        .map_or(0, |u| u.spent);
    if level > spent {
        return Err(ToolError::new(format!(
            "{} has {} of {of} sorcery points: a level-{level} slot would give {level}, past the maximum; convert a slot of level {} or lower",
            c.name,
            of - spent,
            spent
        )));
    }
    let mut changes = super::features::costing(ctx, &c.id, Spend::BonusAction)?;
    changes.push(Change::SlotSpent {
        character: c.id.clone(),
        level,
    });
    changes.push(Change::FeatureUsesRegained {
        character: c.id.clone(),
        feature: font_feature.slug.clone(),
        count: level,
    });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} turns a level-{level} slot into {level} sorcery points ({} of {of})",
            c.name,
            of - spent + level
        ),
        ..Played::default()
    })
}

/// Flexible Casting: sorcery points into a spell slot of 1st to 5th level (2/3/5/6/7 points).
/// Kept simple: the slot made is one of the sorcerer's own slots of that level spent earlier,
/// made whole, so a long rest has nothing extra to take away.
pub(super) fn points_to_slot(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    let (class, font_feature) = font(ctx, c)?;
    let level = slot_level(using, HIGHEST_CREATED_SLOT)?;
    let price = sorcerer::slot_price(class, c, level).ok_or_else(|| {
        ToolError::new(format!(
            "Flexible Casting makes slots of 1st to {HIGHEST_CREATED_SLOT}th level"
        ))
    })?;
    let i = usize::from(level - 1);
    if c.spell_slots.spent[i] == 0 {
        return Err(ToolError::new(format!(
            "{}'s level-{level} slots are all there ({} of {}): a slot is made only in place of one spent",
            c.name,
            c.spell_slots.available(level),
            c.spell_slots.max[i]
        )));
    }
    let spent = uses::spend_many(class, font_feature, c, price).map_err(refused)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::BonusAction)?;
    changes.push(spent);
    changes.push(Change::SlotCreated {
        character: c.id.clone(),
        level,
    });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} spends {price} sorcery points on a level-{level} spell slot",
            c.name
        ),
        ..Played::default()
    })
}

/// The Metamagic a casting uses, checked: the options, and the change spending their points.
#[derive(Default)]
pub(super) struct MetaCast {
    options: Vec<Metamagic>,
    spend: Option<Change>,
    /// Careful Spell's creatures, by id.
    careful: Vec<String>,
    /// Empowered Spell's dice to roll again.
    rerolls: u8,
}

impl MetaCast {
    fn has(&self, option: Metamagic) -> bool {
        self.options.contains(&option)
    }

    /// Subtle Spell: no verbal component, so Silence does not stop it.
    pub(super) fn subtle(&self) -> bool {
        self.has(Metamagic::Subtle)
    }

    /// The spell as Distant Spell casts it (its range doubled), or `None` without it.
    pub(super) fn reshaped(&self, spell: &Spell) -> Option<Spell> {
        self.has(Metamagic::Distant)
            .then(|| sorcerer::distant(spell))
            .flatten()
    }

    /// Twinned Spell: a second creature for a spell of one.
    pub(super) fn twinned(&self) -> bool {
        self.has(Metamagic::Twinned)
    }

    /// Careful Spell: the creatures (ids) that succeed on the spell's save.
    pub(super) fn careful(&self) -> Vec<String> {
        self.careful.clone()
    }

    /// Empowered Spell: how many damage dice the engine may roll again (0 without it).
    pub(super) fn rerolls(&self) -> u8 {
        self.rerolls
    }

    /// Spends what casting costs in the turn: a bonus action for a Quickened spell, the
    /// spell's own casting time otherwise.
    pub(super) fn act_casting(
        &self,
        ctx: &mut ToolContext<'_>,
        caster: &str,
        spell: &str,
    ) -> Result<(), ToolError> {
        if !self.has(Metamagic::Quickened) {
            return super::encounter::act_casting(ctx, caster, spell);
        }
        let cantrip = ctx.srd.spell(spell).is_ok_and(|s| s.level == 0);
        let spend = Spend::Spell {
            casting: CastingTime::BonusAction,
            cantrip,
        };
        super::encounter::act(ctx, caster, spend)
    }

    /// Spends the points and, for Heightened Spell, gives the first target disadvantage on its
    /// next save of the spell's ability: before the spell resolves.
    pub(super) fn commit(
        &self,
        ctx: &mut ToolContext<'_>,
        caster: &Character,
        spell: &Spell,
        targets: &[String],
    ) -> Result<(), ToolError> {
        let Some(spend) = self.spend.clone() else {
            return Ok(());
        };
        let mut changes = vec![spend];
        if self.has(Metamagic::Heightened)
            && let (Some(first), Some(ability)) = (targets.first(), sorcerer::spell_save(spell))
        {
            let target = super::creature::find(ctx.state, ctx.srd, first)?.target;
            changes.push(Change::TimedEffectStarted {
                effect: TimedEffect {
                    source: caster.id.clone(),
                    spell: HEIGHTENED.to_owned(),
                    target: target.id().to_owned(),
                    concentration: false,
                    rounds_left: Some(1),
                    ends_on_damage: false,
                    level: 0,
                    at_turn_end: false,
                    kind: TimedKind::Advantage {
                        on: RollOn::Saves,
                        ability: Some(ability),
                        disadvantage: true,
                        next_only: true,
                        source_only: false,
                    },
                },
            });
        }
        ctx.commit(changes)
    }

    /// Once cast: Extended Spell makes the spell's timed effects from this caster last twice
    /// as long (24 hours at most); Heightened Spell's disadvantage, if the spell's save did not
    /// use it (a target that made none), ends with the casting.
    pub(super) fn after(
        &self,
        ctx: &mut ToolContext<'_>,
        caster: &str,
        spell: &Spell,
    ) -> Result<(), ToolError> {
        let heightened =
            |e: &&TimedEffect| e.source.eq_ignore_ascii_case(caster) && e.spell == HEIGHTENED;
        let unused: Vec<Change> = ctx
            .state
            .monsters
            .iter()
            .flat_map(|m| &m.timed_effects)
            .chain(ctx.state.characters.iter().flat_map(|c| &c.timed_effects))
            .filter(heightened)
            .map(|e| Change::TimedEffectEnded { effect: e.clone() })
            .collect();
        ctx.commit(unused)?;
        if !self.has(Metamagic::Extended) {
            return Ok(());
        }
        let ours = |e: &&TimedEffect| {
            e.source.eq_ignore_ascii_case(caster) && e.spell.eq_ignore_ascii_case(&spell.name)
        };
        let changes: Vec<Change> = ctx
            .state
            .characters
            .iter()
            .flat_map(|c| &c.timed_effects)
            .chain(ctx.state.monsters.iter().flat_map(|m| &m.timed_effects))
            .filter(ours)
            .filter_map(|e| {
                let rounds = sorcerer::extended_rounds(e.rounds_left?);
                Some(Change::TimedEffectExtended {
                    effect: e.clone(),
                    rounds,
                })
            })
            .collect();
        ctx.commit(changes)
    }
}

/// Checks `cast_spell`'s `metamagic`: a sorcerer of 3rd level, options it knows, one per spell
/// (Empowered beside another), each fitting the spell, and the points for them all. Changes
/// nothing; the points are spent by [`MetaCast::commit`].
pub(super) fn metamagic(
    ctx: &ToolContext<'_>,
    args: &CastSpellArgs,
) -> Result<MetaCast, ToolError> {
    let Some(asked) = args.metamagic.as_ref().filter(|m| !m.is_empty()) else {
        if args.careful.as_ref().is_some_and(|named| !named.is_empty()) {
            return Err(careful_unasked());
        }
        return Ok(MetaCast::default());
    };
    let c = super::sheet::named_character(ctx.state, &args.caster)?;
    uses::feature_of(ctx.srd, c, "metamagic-1").map_err(refused)?;
    let known = sorcerer::known(c);
    let names = |list: &[Metamagic]| list.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ");
    let mut options = Vec::new();
    for text in asked {
        let option = Metamagic::named(text).ok_or_else(|| {
            ToolError::new(format!(
                "no Metamagic {text:?}; {} knows: {}",
                c.name,
                names(&known)
            ))
        })?;
        if !known.contains(&option) {
            return Err(ToolError::new(format!(
                "{} does not know {} Spell; it knows: {}",
                c.name,
                option.name(),
                names(&known)
            )));
        }
        if options.contains(&option) {
            return Err(ToolError::new(format!(
                "{} Spell is named twice: each option once",
                option.name()
            )));
        }
        options.push(option);
    }
    if options
        .iter()
        .filter(|m| **m != Metamagic::Empowered)
        .count()
        > 1
    {
        return Err(ToolError::new(format!(
            "one Metamagic option per spell (Empowered may go beside another): {} were named",
            names(&options)
        )));
    }
    let spell = ctx
        .srd
        .spell(&args.spell)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let slot = if spell.level == 0 {
        0
    } else {
        args.slot_level.unwrap_or(spell.level)
    };
    for option in &options {
        if let Some(why) = sorcerer::unfit(*option, spell, slot, c.level, args.targets.len()) {
            return Err(ToolError::new(why));
        }
    }
    let careful = careful_named(ctx, c, &options, args.careful.as_deref())?;
    let cost: u8 = options.iter().map(|m| m.cost(slot)).sum();
    let (class, font_feature) = font(ctx, c)?;
    let spend = uses::spend_many(class, font_feature, c, cost).map_err(|e| {
        ToolError::new(format!(
            "{} costs {cost} sorcery point(s): {e}",
            names(&options)
        ))
    })?;
    let rerolls = if options.contains(&Metamagic::Empowered) {
        sorcerer::charisma_count(c)
    } else {
        0
    };
    Ok(MetaCast {
        options,
        spend: Some(spend),
        careful,
        rerolls,
    })
}

/// Careful Spell's creatures from `cast_spell`'s `careful`, by id: named only with Careful
/// Spell, at least one and at most the Charisma modifier (at least 1), each once.
fn careful_named(
    ctx: &ToolContext<'_>,
    c: &Character,
    options: &[Metamagic],
    named: Option<&[String]>,
) -> Result<Vec<String>, ToolError> {
    let most = usize::from(sorcerer::charisma_count(c));
    let named = match (options.contains(&Metamagic::Careful), named) {
        (false, None | Some([])) => return Ok(Vec::new()),
        (false, Some(_)) => return Err(careful_unasked()),
        (true, None) | (true, Some([])) => {
            return Err(ToolError::new(format!(
                "Careful Spell needs careful: the creatures (1 to {most}, {}'s Charisma modifier) that succeed on the spell's save",
                c.name
            )));
        }
        (true, Some(named)) => named,
    };
    if named.len() > most {
        return Err(ToolError::new(format!(
            "Careful Spell protects up to {most} creature(s) ({}'s Charisma modifier, at least 1): {} were named",
            c.name,
            named.len()
        )));
    }
    let mut ids: Vec<String> = Vec::with_capacity(named.len());
    for name in named {
        let id = super::creature::find(ctx.state, ctx.srd, name)?
            .target
            .id()
            .to_owned();
        if ids.contains(&id) {
            return Err(ToolError::new(format!(
                "{name} is named twice in careful: name each creature once"
            )));
        }
        ids.push(id);
    }
    Ok(ids)
}

/// `careful` named without Careful Spell in `metamagic`.
fn careful_unasked() -> ToolError {
    ToolError::new(
        "careful names the creatures of Careful Spell: add \"Careful\" to metamagic, or leave careful null",
    )
}

/// Refuses Careful Spell's creatures that are not among those `spell` affects (`chosen`: named
/// or covered by its area), saying which it affects.
pub(super) fn careful_among<T>(
    state: &crate::state::GameState,
    spell: &Spell,
    careful: &[String],
    chosen: &[(super::creature::CreatureInfo<'_>, T)],
) -> Result<(), ToolError> {
    let Some(outside) = careful
        .iter()
        .find(|id| !chosen.iter().any(|(t, _)| t.target.id() == id.as_str()))
    else {
        return Ok(());
    };
    let affected: Vec<&str> = chosen.iter().map(|(t, _)| t.name.as_str()).collect();
    let outside = state.name_of(outside);
    Err(ToolError::new(format!(
        "Careful Spell protects creatures the spell affects, and {outside} is not among those {} affects here ({}): name them in careful",
        spell.name,
        if affected.is_empty() {
            "none".to_owned()
        } else {
            affected.join(", ")
        }
    )))
}
