//! The morale rule is one rule for the game and the encounter simulator
//! (`combat::monster_plan::breaks`): a lone Frost Harpy below a quarter of its hit points flees
//! at the table and in the simulator alike.

use std::sync::Arc;

use serde_json::json;

use dnd_engine::combat::geometry::fighting_speed;
use dnd_engine::combat::monster_plan::{self, Nerve, breaks};
use dnd_engine::rules::{DamageDice, DamageType, HitPoints};
use dnd_engine::simulator::{Combatant, Side, simulate};
use dnd_engine::srd::Srd;
use dnd_engine::state::Morale;

#[path = "support/table.rs"]
mod table;
use table::Table;

#[test]
fn a_lone_harpy_below_a_quarter_flees_at_the_table_and_in_the_simulator() {
    let srd = Srd::bundled();
    // The table: Kraven and the Frost Harpy (30 HP) in a fight, the harpy down to 7.
    let mut t = Table::fight(&["kraven"], &["kraven", "frost-harpy"], 7);
    Arc::make_mut(&mut t.state.monsters)[0].hp = HitPoints {
        current: 7,
        max: 30,
        temporary: 0,
    };
    let template = srd
        .monster(&t.state.monster("frost-harpy").unwrap().template)
        .unwrap();
    let nerve = Nerve::of(template);
    assert!(
        !nerve.fearless,
        "a harpy is a monstrosity: it can be afraid"
    );

    // The rule itself: 7 of 30 is below a quarter, 8 is not; an ally standing holds it.
    let speed = 30;
    assert_eq!(breaks(7, 30, nerve, false, true, speed), Some(Morale::Fled));
    assert_eq!(breaks(8, 30, nerve, false, true, speed), None);
    assert_eq!(breaks(7, 30, nerve, true, true, speed), None);
    assert_eq!(
        breaks(7, 30, nerve, false, true, 0),
        Some(Morale::Surrendered),
        "it cannot move, and it has the wits (Intelligence 7) to give up"
    );

    // The game asks the same rule, and the harpy flees on its turn.
    assert_eq!(
        monster_plan::morale(&t.state, srd, "frost-harpy"),
        breaks(7, 30, nerve, false, true, speed)
    );
    let r = t.call("next_turn", json!({}));
    assert!(r.ok, "{}", r.content);
    assert_eq!(t.state.monster("frost-harpy").unwrap().morale, Morale::Fled);

    // The simulator: a hero whose every hit takes exactly 23 of the harpy's 30 (7 left, as at
    // the table). On the harpy's next turn it flees: every fight is won by its flight, never
    // by a second blow.
    let mut harpy = Combatant::from_monster(template).unwrap();
    harpy.hit_points = 30;
    assert_eq!(harpy.nerve, nerve);
    assert_eq!(harpy.speed, fighting_speed(&template.speed));
    let hero = Combatant::new("Kraven", Side::Party, 500, 16).with_attack(
        "Greatsword",
        100,
        &[DamageDice::new(0, 0, 23, DamageType::Slashing)],
    );
    let report = simulate(&[hero], &[harpy], 200, 7).unwrap();
    assert_eq!(report.party_win_probability, 1.0, "{report:?}");
    assert_eq!(report.mean_monsters_broken, 1.0, "{report:?}");
}
