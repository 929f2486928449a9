//! The reactions the engine takes for a character when a monster's attack hits it, in order,
//! each only when legal and useful then: a declared Shield that turns the hit
//! (`tools::reactions`), then a Lore bard's Cutting Words, then Deflect Missiles against a
//! ranged weapon hit (a monk of 3rd level), then Uncanny Dodge (a rogue of 5th level). One hook for `tools::combat`, so the attack path stays one call.

use super::creature::CreatureInfo;
use super::results::ReactionCast;
use super::{ToolContext, ToolError};
use crate::rules::AttackResult;
use crate::srd::AttackKind;

/// What a character hit by monster `who`'s swing `swing` did with its reaction, changing
/// `result` (a miss, less damage); `ranged` when the swing was made at range.
pub(super) fn against_hit(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    swing: &str,
    ranged: bool,
    victim: &str,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    let by = who.name.clone();
    if let Some(cast) = super::reactions::shield_against_hit(ctx, &by, victim, result)? {
        return Ok(Some(cast));
    }
    if let Some(cut) = super::feature_bard::cutting_words(ctx, who, result)? {
        return Ok(Some(cut));
    }
    // A weapon's attack (a thrown spear, an arrow), not a spell's.
    let weapon = who.template.is_some_and(|m| {
        m.actions.iter().any(|a| {
            a.name.eq_ignore_ascii_case(swing)
                && a.attack.as_ref().is_some_and(|x| {
                    matches!(
                        x.kind,
                        AttackKind::RangedWeapon
                            | AttackKind::MeleeOrRangedWeapon
                            | AttackKind::MeleeWeapon
                    )
                })
        })
    });
    if ranged
        && weapon
        && let Some(deflected) = super::feature_monk::deflect_missiles(ctx, &by, victim, result)?
    {
        return Ok(Some(deflected));
    }
    super::feature_rogue::uncanny_dodge(ctx, who, victim, result)
}
