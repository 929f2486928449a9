//! The action economy of a turn in combat: one action, one bonus action, movement up to the
//! creature's speed, and one reaction a round; the attacks one Attack action makes (the class
//! data's count, `srd::Class::attacks_per_attack_action`); and the
//! limit on spells cast in a turn when one of them is a bonus action.
//!
//! [`TurnBudget`] is what a creature has spent so far in its turn (all zero when the turn
//! starts), and [`TurnBudget::spend`] refuses to spend what is not left. Whose turn it is, and
//! the reaction kept per creature, belong to the encounter in `state`; the gate every acting
//! tool goes through is `combat::may_act`.

use serde::{Deserialize, Serialize};

/// How long a spell takes to cast, for the economy: the three casting times a turn can hold.
/// Longer ones ("1 minute") cannot be cast within a turn of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CastingTime {
    /// "1 action".
    Action,
    /// "1 bonus action".
    BonusAction,
    /// "1 reaction".
    Reaction,
}

impl CastingTime {
    /// Reads the SRD's casting time ("1 action", "1 bonus action", "1 reaction"); `None` for
    /// anything longer ("1 minute", "10 minutes", "1 hour").
    pub fn parse(text: &str) -> Option<CastingTime> {
        match text.trim().to_ascii_lowercase().as_str() {
            "1 action" => Some(CastingTime::Action),
            "1 bonus action" => Some(CastingTime::BonusAction),
            "1 reaction" => Some(CastingTime::Reaction),
            _ => None,
        }
    }
}

/// One thing an act costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spend {
    /// The action (Use an Object, a monster's attack or Multiattack, ...).
    Action,
    /// The bonus action.
    BonusAction,
    /// The reaction (the only one a creature may spend outside its own turn).
    Reaction,
    /// One attack of the Attack action: the first takes the action and leaves the rest of the
    /// attacks it grants (Extra Attack); later ones spend those.
    Attack,
    /// Feet of movement.
    Movement(u32),
    /// The Dash action: the action, and extra movement equal to the creature's speed now.
    Dash,
    /// The Disengage action: the action, and no opportunity attacks for the rest of the turn.
    Disengage,
    /// A spell: its casting time, and whether it is a cantrip (after a bonus-action spell only
    /// a cantrip with a casting time of 1 action may be cast in the same turn).
    Spell {
        /// The casting time.
        casting: CastingTime,
        /// Whether it is a cantrip.
        cantrip: bool,
    },
    /// Dash with the bonus action (a rogue's Cunning Action): extra movement equal to the
    /// creature's speed now.
    BonusDash,
    /// Disengage with the bonus action (a rogue's Cunning Action): no opportunity attacks for
    /// the rest of the turn.
    BonusDisengage,
}

impl std::fmt::Display for Spend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spend::Action => f.write_str("an action"),
            Spend::BonusAction => f.write_str("a bonus action"),
            Spend::Reaction => f.write_str("a reaction"),
            Spend::Attack => f.write_str("an attack"),
            Spend::Movement(feet) => write!(f, "{feet} ft of movement"),
            Spend::Dash => f.write_str("the action (Dash)"),
            Spend::Disengage => f.write_str("the action (Disengage)"),
            Spend::BonusDash => f.write_str("the bonus action (Dash)"),
            Spend::BonusDisengage => f.write_str("the bonus action (Disengage)"),
            Spend::Spell { casting, .. } => f.write_str(match casting {
                CastingTime::Action => "a spell cast as an action",
                CastingTime::BonusAction => "a spell cast as a bonus action",
                CastingTime::Reaction => "a spell cast as a reaction",
            }),
        }
    }
}

/// What a creature has spent of its turn so far. The default is a fresh turn.
///
/// The reaction is not here: it lasts a round, not a turn, and may be spent on other
/// creatures' turns, so the encounter keeps it per creature.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct TurnBudget {
    /// The action is spent.
    pub action_used: bool,
    /// The bonus action is spent.
    pub bonus_action_used: bool,
    /// Feet moved this turn.
    pub movement_used_ft: u32,
    /// Extra feet this turn (Dash adds the creature's speed).
    pub extra_movement_ft: u32,
    /// Attacks left of the Attack action already taken (0 when none was taken or all are made).
    pub attacks_left: u8,
    /// A spell was cast with the bonus action this turn.
    pub bonus_action_spell: bool,
    /// A spell other than a cantrip of 1 action was cast this turn.
    pub other_spell: bool,
    /// The creature took the Disengage action: its movement provokes no opportunity attacks
    /// for the rest of the turn.
    pub disengaged: bool,
    /// The Attack action was taken this turn (what Flurry of Blows follows).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub attack_action: bool,
    /// A monk's Attack action struck with an unarmed strike or a monk weapon this turn:
    /// Martial Arts' bonus-action strike may follow (`state::MonkStep::MartialArts`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub martial_arts: bool,
    /// A monk readied Stunning Strike: its next melee weapon hit this turn spends 1 ki and
    /// forces the save (`state::MonkStep::StunningStrike`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stunning_strike: bool,
}

/// Why a spend was refused: what was asked for, with the budget as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{asked} is not left this turn")]
pub struct Overspent {
    /// What was asked for.
    pub asked: Spend,
}

impl TurnBudget {
    /// Feet of movement left at this speed (after conditions).
    pub fn movement_left(&self, speed_ft: u32) -> u32 {
        (speed_ft + self.extra_movement_ft).saturating_sub(self.movement_used_ft)
    }

    /// Spends `what`, or refuses and changes nothing. `speed_ft` is the creature's speed now;
    /// `attacks_per_action` how many attacks its Attack action makes (see
    /// `srd::Class::attacks_per_attack_action`). A reaction is not a turn's: the encounter spends it.
    pub fn spend(
        &mut self,
        what: Spend,
        speed_ft: u32,
        attacks_per_action: u8,
    ) -> Result<(), Overspent> {
        let refused = Err(Overspent { asked: what });
        match what {
            Spend::Action => {
                if self.action_used {
                    return refused;
                }
                self.action_used = true;
                self.attacks_left = 0;
            }
            Spend::BonusAction => {
                if self.bonus_action_used {
                    return refused;
                }
                self.bonus_action_used = true;
            }
            Spend::Reaction => return refused,
            Spend::Dash | Spend::Disengage => {
                if self.action_used {
                    return refused;
                }
                self.action_used = true;
                self.attacks_left = 0;
                if what == Spend::Dash {
                    self.extra_movement_ft += speed_ft;
                } else {
                    self.disengaged = true;
                }
            }
            Spend::BonusDash | Spend::BonusDisengage => {
                if self.bonus_action_used {
                    return refused;
                }
                self.bonus_action_used = true;
                if what == Spend::BonusDash {
                    self.extra_movement_ft += speed_ft;
                } else {
                    self.disengaged = true;
                }
            }
            Spend::Attack => {
                if self.attacks_left > 0 {
                    self.attacks_left -= 1;
                } else if self.action_used {
                    return refused;
                } else {
                    self.action_used = true;
                    self.attack_action = true;
                    self.attacks_left = attacks_per_action.max(1) - 1;
                }
            }
            Spend::Movement(feet) => {
                if feet > self.movement_left(speed_ft) {
                    return refused;
                }
                self.movement_used_ft += feet;
            }
            Spend::Spell { casting, cantrip } => {
                // The SRD: after a bonus-action spell, no other spell this turn but a cantrip
                // with a casting time of 1 action (whichever was cast first).
                let action_cantrip = cantrip && casting == CastingTime::Action;
                let allowed = match casting {
                    CastingTime::BonusAction => !self.other_spell && !self.bonus_action_used,
                    CastingTime::Action => {
                        (action_cantrip || !self.bonus_action_spell) && !self.action_used
                    }
                    CastingTime::Reaction => false,
                };
                if !allowed {
                    return refused;
                }
                match casting {
                    CastingTime::BonusAction => {
                        self.bonus_action_used = true;
                        self.bonus_action_spell = true;
                    }
                    _ => {
                        self.action_used = true;
                        self.attacks_left = 0;
                        self.other_spell |= !action_cantrip;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether a spell of this kind could be cast now (the bonus-action spell rule), for
    /// saying why one was refused.
    pub fn spell_rule_forbids(&self, casting: CastingTime, cantrip: bool) -> bool {
        match casting {
            CastingTime::BonusAction => self.other_spell,
            CastingTime::Action => self.bonus_action_spell && !cantrip,
            CastingTime::Reaction => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_5_fighter_attacks_twice_with_one_action_then_stops() {
        let mut b = TurnBudget::default();
        b.spend(Spend::Attack, 30, 2).unwrap();
        assert!(b.action_used);
        assert_eq!(b.attacks_left, 1);
        b.spend(Spend::Attack, 30, 2).unwrap();
        assert_eq!(
            b.spend(Spend::Attack, 30, 2),
            Err(Overspent {
                asked: Spend::Attack
            })
        );
        assert!(b.spend(Spend::Action, 30, 2).is_err());
        // The bonus action is still there.
        b.spend(Spend::BonusAction, 30, 2).unwrap();
    }

    #[test]
    fn a_level_3_fighter_attacks_once() {
        let mut b = TurnBudget::default();
        b.spend(Spend::Attack, 30, 1).unwrap();
        assert!(b.spend(Spend::Attack, 30, 1).is_err());
    }

    #[test]
    fn movement_up_to_speed_and_dash() {
        let mut b = TurnBudget::default();
        b.spend(Spend::Movement(20), 30, 1).unwrap();
        assert_eq!(b.movement_left(30), 10);
        assert!(b.spend(Spend::Movement(15), 30, 1).is_err());
        assert_eq!(b.movement_used_ft, 20, "a refused spend changes nothing");
        b.extra_movement_ft = 30;
        b.spend(Spend::Movement(40), 30, 1).unwrap();
        assert_eq!(b.movement_left(30), 0);
    }

    #[test]
    fn dash_doubles_the_movement_and_disengage_marks_the_turn() {
        // The SRD: Dash gains extra movement equal to your speed, after modifiers; 30 ft
        // walked and Dash taken leaves 30 more.
        let mut b = TurnBudget::default();
        b.spend(Spend::Movement(30), 30, 1).unwrap();
        b.spend(Spend::Dash, 30, 1).unwrap();
        assert_eq!(b.movement_left(30), 30);
        // One action a turn: no Disengage (or second Dash) after it.
        assert!(b.spend(Spend::Disengage, 30, 1).is_err());
        assert!(b.spend(Spend::Dash, 30, 1).is_err());
        assert!(!b.disengaged);
        let mut b = TurnBudget::default();
        b.spend(Spend::Disengage, 25, 1).unwrap();
        assert!(b.disengaged && b.action_used);
        assert_eq!(b.movement_left(25), 25);
    }

    #[test]
    fn cunning_action_dashes_or_disengages_with_the_bonus_action() {
        // A rogue Dashes with its action and again with its bonus action: 3 x speed in all.
        let mut b = TurnBudget::default();
        b.spend(Spend::Dash, 25, 1).unwrap();
        b.spend(Spend::BonusDash, 25, 1).unwrap();
        assert_eq!(b.movement_left(25), 75);
        assert!(b.spend(Spend::BonusDisengage, 25, 1).is_err());
        // Attack with the action, Disengage with the bonus action.
        let mut b = TurnBudget::default();
        b.spend(Spend::Attack, 30, 1).unwrap();
        b.spend(Spend::BonusDisengage, 30, 1).unwrap();
        assert!(b.disengaged && b.bonus_action_used);
    }

    #[test]
    fn bonus_action_spell_then_only_an_action_cantrip() {
        let healing_word = Spend::Spell {
            casting: CastingTime::BonusAction,
            cantrip: false,
        };
        let fire_bolt = Spend::Spell {
            casting: CastingTime::Action,
            cantrip: true,
        };
        let magic_missile = Spend::Spell {
            casting: CastingTime::Action,
            cantrip: false,
        };
        let mut b = TurnBudget::default();
        b.spend(healing_word, 30, 1).unwrap();
        let mut leveled = b;
        assert!(leveled.spend(magic_missile, 30, 1).is_err());
        assert!(b.spell_rule_forbids(CastingTime::Action, false));
        b.spend(fire_bolt, 30, 1).unwrap();
        // Two action spells: the action is gone.
        let mut b = TurnBudget::default();
        b.spend(magic_missile, 30, 1).unwrap();
        assert!(b.spend(fire_bolt, 30, 1).is_err());
        // A leveled spell first forbids a bonus-action spell after it.
        assert!(b.spend(healing_word, 30, 1).is_err());
        assert!(b.spell_rule_forbids(CastingTime::BonusAction, false));
    }

    #[test]
    fn casting_times_from_the_srd() {
        assert_eq!(CastingTime::parse("1 action"), Some(CastingTime::Action));
        assert_eq!(
            CastingTime::parse("1 bonus action"),
            Some(CastingTime::BonusAction)
        );
        assert_eq!(
            CastingTime::parse("1 reaction"),
            Some(CastingTime::Reaction)
        );
        assert_eq!(CastingTime::parse("1 minute"), None);
    }
}
