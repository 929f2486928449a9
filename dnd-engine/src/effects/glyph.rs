//! An explosive rune ([`Effect::Glyph`], Glyph of Warding): inscribed on an area of the caster's
//! room (`cast_spell`'s `aim`), kept as a timed effect on the caster until it bursts or is
//! dispelled. A creature hostile to the caster that moves into the area (from outside it) sets
//! it off: every creature within its radius of the area's point saves (Dexterity), taking the
//! dice on a failure and half on a success, and the glyph is gone. [`inscribe`] is the one read
//! of the effect and [`set_off`] / [`burst`] the one read of the timed kind; `tools::glyphs`
//! runs a burst after a move through the same interpreter as any casting.

use super::casting::{Casting, Outcome, Refused};
use super::vocabulary::{Dice, Effect};
use crate::rules::{Ability, DamageType};
use crate::srd::OnSave;
use crate::state::{
    Change, GameState, GlyphKept, Position, RepeatSave, TimedEffect, TimedKind, area_at,
};

/// The glyph the effects inscribe, if they do.
pub fn glyph_of(effects: &[Effect]) -> Option<&Effect> {
    effects.iter().find(|e| matches!(e, Effect::Glyph { .. }))
}

/// The timed effect that keeps the glyph `effect` (an [`Effect::Glyph`]) on the area `aim`
/// names in the caster's room `location`, cast as `casting`, and what happened; refused, with
/// the room's areas, when none is named.
pub fn inscribe(
    state: &GameState,
    casting: Casting<'_>,
    effect: &Effect,
    location: &str,
    aim: Option<&str>,
) -> Result<(Change, Outcome), Refused> {
    let Effect::Glyph {
        dice,
        damage_type,
        radius_ft,
        ability,
    } = effect
    else {
        return Err(Refused(format!("{} inscribes no glyph", casting.source)));
    };
    let areas = state.location(location).map_or(&[][..], |l| &l.areas);
    let area = aim.and_then(|name| {
        let name = name.trim();
        areas
            .iter()
            .find(|a| a.id.eq_ignore_ascii_case(name) || a.name.eq_ignore_ascii_case(name))
    });
    let Some(area) = area else {
        let known: Vec<&str> = areas.iter().map(|a| a.id.as_str()).collect();
        let given = aim.map_or("none".to_owned(), |a| format!("{a:?}"));
        return Err(Refused(if known.is_empty() {
            format!(
                "{} wards an area of the room, and this room has none: only the narrator can place it here",
                casting.source
            )
        } else {
            format!(
                "{} wards an area of the room: name it in aim, one of {} (given: {given})",
                casting.source,
                known.join(", ")
            )
        }));
    };
    let c = casting;
    let (count, sides, _) = dice.at(c.level, c.slot, c.caster.level, c.caster.modifier);
    let effect = TimedEffect {
        source: c.caster.id.clone(),
        spell: c.source.to_owned(),
        target: c.caster.id.clone(),
        concentration: false,
        rounds_left: None,
        ends_on_damage: false,
        level: c.slot,
        at_turn_end: false,
        kind: TimedKind::Glyph(Box::new(GlyphKept {
            location: location.to_owned(),
            area: area.id.clone(),
            save: RepeatSave {
                ability: *ability,
                dc: c.caster.save_dc,
            },
            count,
            sides,
            damage_type: *damage_type,
            radius_ft: *radius_ft,
        })),
    };
    let outcome = Outcome::Started {
        target: c.caster.name.clone(),
        effect: effect.clone(),
    };
    Ok((Change::TimedEffectStarted { effect }, outcome))
}

/// The glyphs a move of `mover` (an id) from `from` to `to` in the party's room sets off: those
/// of casters hostile to it on the area it enters.
pub fn set_off(state: &GameState, mover: &str, from: Position, to: Position) -> Vec<TimedEffect> {
    let Some(room) = state.party_location() else {
        return Vec::new();
    };
    let (Some(entered), left) = (area_at(&room.areas, to), area_at(&room.areas, from)) else {
        return Vec::new();
    };
    if left.is_some_and(|a| a.id == entered.id) {
        return Vec::new();
    }
    let is_character = |id: &str| state.character(id).is_some();
    state
        .characters
        .iter()
        .flat_map(|c| c.timed_effects.iter())
        .chain(state.monsters.iter().flat_map(|m| m.timed_effects.iter()))
        .filter(|e| match e.kind.glyph() {
            Some(GlyphKept { location, area, .. }) => {
                location.eq_ignore_ascii_case(&room.id)
                    && area.eq_ignore_ascii_case(&entered.id)
                    && is_character(&e.source) != is_character(mover)
            }
            _ => false,
        })
        .cloned()
        .collect()
}

/// What a glyph's burst does: the creatures of the fight within its radius of its area's point
/// (ids, nearest first), the effects they meet (the save for half), and its save DC. `None` for
/// another kind.
pub fn burst(state: &GameState, glyph: &TimedEffect) -> Option<(Vec<String>, Vec<Effect>, i32)> {
    let GlyphKept {
        area,
        save,
        count,
        sides,
        damage_type,
        radius_ft,
        ..
    } = glyph.kind.glyph()?;
    let room = state.party_location()?;
    let centre = room.areas.iter().find(|a| a.id == *area)?.position();
    let encounter = state.encounter.as_ref()?;
    let mut within: Vec<(f64, String)> = encounter
        .positions
        .iter()
        .map(|(id, p)| (p.exact_distance(centre), id.clone()))
        .filter(|(d, id)| *d <= f64::from(*radius_ft) && alive(state, id))
        .collect();
    within.sort_by(|a, b| a.0.total_cmp(&b.0));
    let effects = vec![explosion(save.ability, *count, *sides, *damage_type)];
    let ids = within.into_iter().map(|(_, id)| id).collect();
    Some((ids, effects, save.dc))
}

fn explosion(ability: Ability, count: u16, sides: u16, damage_type: DamageType) -> Effect {
    Effect::Save {
        ability,
        dc: None,
        on_success: OnSave::Half,
        ignores_cover: false,
        on_fail: vec![Effect::Damage {
            dice: Dice::flat(count, sides),
            damage_type,
        }],
    }
}

fn alive(state: &GameState, id: &str) -> bool {
    match state.character(id) {
        Some(c) => !c.dead,
        None => state.monster(id).is_some_and(|m| m.is_alive()),
    }
}
