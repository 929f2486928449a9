//! `attack_object`: an object (`state::FeatureObject`, the heart of ice) attacked with a
//! character's weapon against its Armor Class, in or out of a fight; the damage goes through
//! its immunities and resistances, `Change::ObjectDamaged` tracks it, and at 0 hit points it
//! breaks and its `on_broken` story effects play. Only an object the party knows is named,
//! in a result or an error.

use schemars::JsonSchema;
use serde::Deserialize;

use super::creature;
use super::results::ObjectAttacked;
use super::traps::known_feature;
use super::{ToolContext, ToolError};
use crate::rules::ConditionSet;
use crate::rules::conditions::attack_modifiers;
use crate::rules::{AttackProfile, AttackTarget, Spend, roll_attack_for};
use crate::state::{Change, Target};
use crate::store::RollDetail;

/// Arguments of `attack_object`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackObjectArgs {
    /// Who attacks (one attack of its Attack action, in a fight): a character id or name.
    #[schemars(extend("description" = ""))]
    pub attacker: String,
    /// The object where the party is, by id or name, as the room lists it.
    #[schemars(extend("description" = ""))]
    pub object: String,
    /// The weapon by name; null for the first on the sheet.
    #[schemars(extend("description" = ""))]
    pub attack: Option<String>,
}

pub(super) fn attack_object(
    args: AttackObjectArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ObjectAttacked, ToolError> {
    let who = super::items::character(ctx, &args.attacker)?.clone();
    let location = who.location.clone();
    let f = known_feature(ctx.state, &location, &args.object)
        .filter(|f| f.object.is_some())
        .cloned()
        .ok_or_else(|| {
            let objects: Vec<String> = ctx
                .state
                .location(&location)
                .map(|l| {
                    l.features
                        .iter()
                        .filter(|f| f.is_known() && f.object.is_some())
                        .map(|f| f.id.clone())
                        .collect()
                })
                .unwrap_or_default();
            ToolError::new(format!(
                "no object {:?} the party knows here that can be broken; objects here: {}",
                args.object,
                if objects.is_empty() {
                    "none".to_owned()
                } else {
                    objects.join(", ")
                }
            ))
        })?;
    let Some(object) = f.object.clone() else {
        return Err(ToolError::new("no object"));
    };
    if object.is_broken() {
        return Err(ToolError::new(format!(
            "{} is already broken: there is nothing left to break",
            f.name
        )));
    }
    let info = creature::find(ctx.state, ctx.srd, &who.id)?;
    if !info.standing {
        return Err(ToolError::new(format!(
            "{} is down and cannot attack",
            who.name
        )));
    }
    let swing = super::combat::swings_of(ctx, &info, args.attack.as_deref())?
        .into_iter()
        .next()
        .ok_or_else(|| ToolError::new(format!("{} has no attack", who.name)))?;
    super::encounter::act(ctx, &who.id, Spend::Attack)?;
    let profile = AttackProfile {
        attack_bonus: swing.bonus,
        damage: &swing.damage,
        critical_range: 20,
    };
    let target = AttackTarget {
        armor_class: object.armor_class,
        defenses: object.defenses(),
        hits_are_critical: false,
    };
    // The attacker's own conditions count (poisoned, blinded, prone); an object has none, and
    // one stands within reach of what it swings at.
    let advantage = attack_modifiers(&info.conditions, &ConditionSet::default(), true)
        .sources
        .resolve();
    let result = roll_attack_for(&profile, &target, advantage, false, ctx.rng);
    ctx.record_roll(
        format!("{} attacks {} with {}", who.name, f.name, swing.name),
        i64::from(result.total),
        Some(Target::Character(who.id.clone())),
        RollDetail::Attack(result.clone()),
    );
    let damage = result.total_damage.min(object.hp_left());
    if damage > 0 {
        ctx.commit(vec![Change::ObjectDamaged {
            location: location.clone(),
            feature: f.id.clone(),
            amount: damage,
        }])?;
    }
    let broken = damage >= object.hp_left();
    let mut told = Vec::new();
    if broken {
        told.push(format!("{} breaks.", f.name));
        told.extend(super::story::play(ctx, &object.on_broken, Some(&who.id))?);
    }
    Ok(ObjectAttacked {
        attacker: who.name.clone(),
        object: f.name.clone(),
        attack: swing.name,
        hit: result.hit,
        damage,
        hp_left: object.hp_left() - damage,
        broken,
        result,
        what_happened: told,
    })
}
