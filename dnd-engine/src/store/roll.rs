//! [`RollRecord`]: one roll of a turn, kept with the turn for the mechanics panel and the audit
//! log, with who rolled and what kind of roll it was as types.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize};

use crate::dice::Roll;
use crate::dice::fair::FairDraw;
use crate::rules::{
    AttackResult, CheckResult, DamageDealt, DeathSaveRoll, InitiativeRoll, LongRestResult,
    RechargeRoll, ShortRestResult,
};
use crate::state::Target;

/// One roll made during a turn, as shown in the mechanics panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollRecord {
    /// What was rolled for ("Kraven attacks the harpy").
    pub label: String,
    /// The total.
    pub total: i64,
    /// Who rolled: the attacker, the creature saving or checking, the caster or healer; `None`
    /// for a roll no creature makes (a fall's damage, a plain `roll_dice`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roller: Option<Target>,
    /// What kind of roll it was, with its full result; shared, so a turn's rolls go to the
    /// outcome, the record and the history without copies.
    #[serde(deserialize_with = "detail_or_legacy")]
    pub detail: Arc<RollDetail>,
    /// With fair dice: the nonce of the tool call that made this roll and every die the call
    /// drew, in order (shared by the call's records; see `dice::fair`). `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<FairDraw>,
}

/// What a roll was, with the rules' own result for it.
///
/// Serialized as `{"kind": "attack", "result": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "result", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RollDetail {
    /// Dice rolled for something no rule covers (`roll_dice`).
    Dice(Roll),
    /// An ability or skill check, or one side of a contest.
    Check(CheckResult),
    /// A saving throw.
    Save(CheckResult),
    /// An attack roll, with its damage.
    Attack(AttackResult),
    /// An initiative roll.
    Initiative(InitiativeRoll),
    /// A death saving throw.
    DeathSave(DeathSaveRoll),
    /// A monster's recharge d6.
    Recharge(RechargeRoll),
    /// Damage rolled on its own (a spell's, a fall's), with what was taken.
    Damage(DamageDealt),
    /// Hit points restored by a spell or an item.
    Healing(Roll),
    /// A short rest's hit dice.
    ShortRest(ShortRestResult),
    /// A long rest (no dice; what it restored).
    LongRest(LongRestResult),
    /// A record written before rolls were typed: its detail as it was saved, shown by its
    /// label and total.
    Legacy(serde_json::Value),
}

impl RollRecord {
    /// A record of `detail`, rolled by `roller`.
    pub fn new(
        label: impl Into<String>,
        total: i64,
        roller: Option<Target>,
        detail: RollDetail,
    ) -> RollRecord {
        RollRecord {
            label: label.into(),
            total,
            roller,
            detail: Arc::new(detail),
            fair: None,
        }
    }
}

/// Reads a record's detail: the typed form, or (for a save from before rolls were typed) the
/// untyped JSON it held, as [`RollDetail::Legacy`]. No guessing of its kind from its shape.
fn detail_or_legacy<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Arc<RollDetail>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Wire {
        Typed(RollDetail),
        Legacy(serde_json::Value),
    }
    Ok(Arc::new(match Wire::deserialize(deserializer)? {
        Wire::Typed(detail) => detail,
        Wire::Legacy(value) => RollDetail::Legacy(value),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DiceExpr, seeded_rng};

    #[test]
    fn a_typed_record_round_trips_with_its_kind_and_roller() {
        let roll = DiceExpr::parse("2d4+2")
            .unwrap()
            .roll(&mut seeded_rng(1))
            .unwrap();
        let record = RollRecord::new(
            "Potion of Healing heals Kraven",
            roll.total(),
            Some(Target::Character("kraven".into())),
            RollDetail::Healing(roll),
        );
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["detail"]["kind"], "healing");
        assert_eq!(json["roller"]["id"], "kraven");
        let back: RollRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn a_record_saved_before_rolls_were_typed_still_loads_as_legacy() {
        let old = serde_json::json!({
            "label": "Kraven attacks the harpy (Greataxe)",
            "total": 17,
            "detail": {"d20": {"natural": 12}, "attack_bonus": 5, "hit": true}
        });
        let record: RollRecord = serde_json::from_value(old.clone()).unwrap();
        assert_eq!(record.roller, None);
        assert_eq!(*record.detail, RollDetail::Legacy(old["detail"].clone()));
    }
}
