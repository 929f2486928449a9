//! `use_feature`: a character spends a limited class feature (`character::uses`) and the
//! engine plays it. Each feature the tool plays is one entry of [`PLAYED`]: its slug prefix and
//! the function that plays it (the fighter's here; other classes' in their own files). Each
//! goes through `may_act` for what it costs in a fight; a feature the character lacks, one of
//! a higher level, or one with no use left is refused with what it may use, changing nothing.

use schemars::JsonSchema;
use serde::Deserialize;

use super::feature_divine as divine;
use super::feature_invocations as invocations;
use super::feature_paladin as paladin;
use super::results::FeatureReport;
use super::{ToolContext, ToolError};
use crate::character::uses::{self, FeatureError};
use crate::combat::may_act;
use crate::dice::DiceExpr;
use crate::rules::Spend;
use crate::srd::{Class, ClassFeature};
use crate::state::{Change, Character, Target};
use crate::store::RollDetail;

/// Arguments of `use_feature`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UseFeatureArgs {
    /// A character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The class feature, by slug or name ("second-wind", "action-surge").
    #[schemars(description = "By slug or name.")]
    pub feature: String,
    /// Who or what the feature is used on, where it has a target (a character or visible
    /// monster, id or name); null where it has none.
    #[serde(default)]
    #[schemars(extend("description" = ""))]
    pub target: Option<String>,
    /// How much of a pool to spend, where the feature draws from one (points, hit points), or
    /// the slot level (Divine Smite, Primeval Awareness, Flexible Casting); null for the
    /// feature's usual amount.
    #[serde(default)]
    #[schemars(description = "Points, hit points or a slot level, where it takes one.")]
    pub amount: Option<u32>,
    /// The option chosen, where the feature offers several: Cunning Action's dash, disengage
    /// or hide; a weapon; Wild Shape's beast; a Berserker's frenzy; null where it offers none.
    #[serde(default)]
    #[schemars(
        description = "Its option where it has several (\"disengage\", a weapon, a beast)."
    )]
    pub option: Option<String>,
}

/// What a feature's player gets: the character as it was, its class and feature (checked to
/// be the character's, at its level), and the call's arguments.
pub(super) struct FeatureUse<'a> {
    /// The character, before the feature.
    pub(super) c: Character,
    /// Its class.
    pub(super) class: &'a Class,
    /// The feature being used.
    pub(super) feature: &'a ClassFeature,
    /// The call's arguments.
    pub(super) args: &'a UseFeatureArgs,
}

/// What a feature's player did, for the report: a sentence, and the healing and dice if any.
#[derive(Default)]
pub(super) struct Played {
    /// What it did, in a sentence for the narration.
    pub(super) effect: String,
    /// Hit points restored.
    pub(super) healed: Option<u32>,
    /// The dice as rolled.
    pub(super) rolled: Option<String>,
    /// The strikes it made (Martial Arts, Flurry of Blows).
    pub(super) strikes: Vec<super::results::AttackReport>,
    /// The pool it drew from, by feature slug (ki), whose uses the report gives; `None`: the
    /// feature's own.
    pub(super) pool: Option<&'static str>,
}

/// Plays one feature: checks, spends (its changes committed through `ctx`), and says what it
/// did, or refuses changing nothing.
type Player = fn(&FeatureUse<'_>, &mut ToolContext<'_>) -> Result<Played, ToolError>;

/// The features `use_feature` plays, by slug prefix, each with its player.
const PLAYED: &[(&str, Player)] = &[
    ("second-wind", second_wind),
    ("action-surge", action_surge),
    ("cunning-action", super::feature_rogue::cunning_action),
    ("fast-hands", super::feature_rogue::cunning_action),
    ("martial-arts", super::feature_monk::martial_arts),
    ("flurry-of-blows", super::feature_monk::flurry_of_blows),
    ("patient-defense", super::feature_monk::patient_defense),
    ("step-of-the-wind", super::feature_monk::step_of_the_wind),
    ("stunning-strike", super::feature_monk::stunning_strike),
    (
        "bardic-inspiration",
        super::feature_bard::bardic_inspiration,
    ),
    ("wild-shape", super::feature_druid::wild_shape),
    (
        "flexible-casting-converting",
        super::feature_sorcerer::slot_to_points,
    ),
    (
        "flexible-casting-creating",
        super::feature_sorcerer::points_to_slot,
    ),
    (
        "pact-of-the-blade",
        super::feature_warlock::pact_of_the_blade,
    ),
    ("channel-divinity-turn-undead", divine::turn),
    ("channel-divinity-turn-the-unholy", divine::turn),
    ("channel-divinity-preserve-life", divine::preserve_life),
    ("channel-divinity-sacred-weapon", divine::sacred_weapon),
    ("divine-smite", paladin::divine_smite),
    ("lay-on-hands", paladin::lay_on_hands),
    ("divine-sense", paladin::divine_sense),
    ("rage", super::feature_barbarian::rage),
    ("reckless-attack", super::feature_barbarian::reckless_attack),
    ("frenzy", super::feature_barbarian::frenzy),
    (
        "primeval-awareness",
        super::feature_ranger::primeval_awareness,
    ),
    (
        "hunters-prey-horde-breaker",
        super::feature_hunter::horde_breaker,
    ),
    ("pact-of-the-chain", super::feature_chain::familiar_attack),
    (
        "eldritch-invocation-one-with-shadows",
        invocations::one_with_shadows,
    ),
    (
        "eldritch-invocation-gaze-of-two-minds",
        invocations::gaze_of_two_minds,
    ),
];

/// What acting with `spend` costs character `id` now, as the first of the changes a feature
/// commits at once: the turn's spend in a fight (`may_act` refuses out of turn or when it is
/// spent), nothing outside one.
pub(super) fn costing(
    ctx: &ToolContext<'_>,
    id: &str,
    spend: Spend,
) -> Result<Vec<Change>, ToolError> {
    let cost = may_act(ctx.state, id, spend).map_err(|e| ToolError::new(e.to_string()))?;
    Ok(cost.into_iter().collect())
}

/// A feature's refusal as a tool error.
pub(super) fn refused(e: FeatureError) -> ToolError {
    ToolError::new(e.to_string())
}

pub(super) fn use_feature(
    args: UseFeatureArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<FeatureReport, ToolError> {
    if let Some(report) = super::feature_races::use_racial(&args, ctx)? {
        return Ok(report); // a racial trait (Breath Weapon)
    }
    let c = super::sheet::named_character(ctx.state, &args.character)?.clone();
    let (class, feature) = uses::feature_of(ctx.srd, &c, &args.feature).map_err(refused)?;
    let Some((_, player)) = PLAYED.iter().find(|(p, _)| feature.slug.starts_with(p)) else {
        let names: Vec<&str> = PLAYED.iter().map(|(p, _)| *p).collect();
        return Err(ToolError::new(format!(
            "{} is not used through use_feature; this tool plays: {}",
            feature.name,
            names.join(", ")
        )));
    };
    let id = c.id.clone();
    let using = FeatureUse {
        c,
        class,
        feature,
        args: &args,
    };
    let played = player(&using, ctx)?;
    let after = ctx
        .state
        .character(&id)
        .ok_or_else(|| ToolError::new("character vanished"))?;
    // A feature drawing from another's uses reports that pool: ki points left, the Channel
    // Divinity of one of its effects.
    let counted = played
        .pool
        .and_then(|p| uses::feature_of(ctx.srd, after, p).ok())
        .map_or_else(
            || crate::character::divine::counted_as(class, feature),
            |(_, f)| f,
        );
    let (of, _) = uses::uses_of(class, counted, after).unwrap_or((0, crate::srd::Rest::LongRest));
    Ok(FeatureReport {
        character: after.name.clone(),
        feature: feature.name.clone(),
        effect: played.effect,
        healed: played.healed,
        rolled: played.rolled,
        hp: after.hp,
        uses_left: uses::uses_left(after, &counted.slug, of),
        uses_of: of,
        strikes: played.strikes,
    })
}

/// Refuses a target, amount or option given to a feature that takes none (a model that
/// thinks Second Wind can heal a friend is told it cannot, rather than ignored).
pub(super) fn takes_nothing(using: &FeatureUse<'_>) -> Result<(), ToolError> {
    takes(using, false, false)
}

/// Refuses what a feature does not take: a target unless `target`, an option unless
/// `option`, and any amount (the features that draw an amount check it themselves).
pub(super) fn takes(using: &FeatureUse<'_>, target: bool, option: bool) -> Result<(), ToolError> {
    let a = using.args;
    let extra = [
        (!target && a.target.is_some()).then_some("target"),
        a.amount.map(|_| "amount"),
        (!option && a.option.is_some()).then_some("option"),
    ];
    match extra.into_iter().flatten().next() {
        Some(what) => Err(ToolError::new(format!(
            "{} takes no {what}: leave it null",
            using.feature.name
        ))),
        None => Ok(()),
    }
}

/// Action Surge (fighter 2): one more action this turn, once the first is taken.
fn action_surge(using: &FeatureUse<'_>, ctx: &mut ToolContext<'_>) -> Result<Played, ToolError> {
    takes_nothing(using)?;
    let c = &using.c;
    let spent = uses::spend(using.class, using.feature, c).map_err(refused)?;
    // Gate on the turn (any spend checks whose turn it is and that it can act), then on the
    // action: Action Surge gives a second one, so the first must be taken.
    let Some(encounter) = ctx.state.encounter.as_ref() else {
        return Err(ToolError::new(
            "Action Surge gives one more action on a turn of a fight; no fight is running",
        ));
    };
    let action_taken = encounter.budget.action_used;
    may_act(ctx.state, &c.id, Spend::Movement(0)).map_err(|e| ToolError::new(e.to_string()))?;
    if !action_taken {
        return Err(ToolError::new(format!(
            "{} still has the action this turn: take it first (roll_attack, take_action, cast_spell); Action Surge then gives one more",
            c.name
        )));
    }
    ctx.commit(vec![
        spent,
        Change::ActionSurged {
            character: c.id.clone(),
        },
    ])?;
    Ok(Played {
        effect: format!("{} pushes on: one more action this turn", c.name),
        ..Played::default()
    })
}

/// Second Wind (fighter 1): a bonus action that heals 1d10 + fighter level.
fn second_wind(using: &FeatureUse<'_>, ctx: &mut ToolContext<'_>) -> Result<Played, ToolError> {
    takes_nothing(using)?;
    let c = &using.c;
    let spent = uses::spend(using.class, using.feature, c).map_err(refused)?;
    let mut changes = costing(ctx, &c.id, Spend::BonusAction)?;
    changes.push(spent);
    let expr =
        DiceExpr::parse(&format!("1d10+{}", c.level)).map_err(|e| ToolError::new(e.to_string()))?;
    let roll = expr
        .roll(ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let amount = u32::try_from(roll.total().max(0)).unwrap_or(0);
    let target = Target::Character(c.id.clone());
    ctx.record_roll(
        format!("{} Second Wind", c.name),
        roll.total(),
        Some(target.clone()),
        RollDetail::Healing(roll.clone()),
    );
    changes.push(Change::Heal { target, amount });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!("{} catches a second wind", c.name),
        healed: Some(amount.min(c.hp.max.saturating_sub(c.hp.current))),
        rolled: Some(roll.to_string()),
        ..Played::default()
    })
}
