//! The checks on traps and breakable objects: DCs 1 to 30, a trigger that names an area or an
//! exit of its own room, a fall that deals damage, an object with an Armor Class and hit
//! points, and their story effects naming only what the adventure has.

use super::validate::dc;
use super::{Adventure, Problem, story_checks};
use crate::state::TrapTrigger;

/// Appends the problems of every trap and object in the adventure's rooms.
pub(super) fn check(adventure: &Adventure, problems: &mut Vec<Problem>) {
    for room in &adventure.rooms {
        for feature in &room.features {
            let path = format!("rooms[{}].features[{}]", room.id, feature.id);
            if let Some(trap) = &feature.trap {
                let path = format!("{path}.trap");
                dc(trap.notice_dc, &format!("{path}.notice_dc"), problems);
                if let Some(disarm) = &trap.disarm {
                    dc(Some(disarm.dc), &format!("{path}.disarm.dc"), problems);
                    if disarm.skill.is_some() && disarm.tool.is_some() {
                        problems.push(Problem::new(
                            format!("{path}.disarm"),
                            "a trap is disarmed with a skill or with a tool, not both; keep one",
                        ));
                    }
                }
                match &trap.trigger {
                    TrapTrigger::Area(area) if !room.areas.iter().any(|a| &a.id == area) => {
                        let ids: Vec<&str> = room.areas.iter().map(|a| a.id.as_str()).collect();
                        problems.push(Problem::new(
                            format!("{path}.trigger.area"),
                            format!(
                                "no area {area:?} in this room; its areas are: {}",
                                if ids.is_empty() {
                                    "none (add areas, or trigger on \"enter\")".to_owned()
                                } else {
                                    ids.join(", ")
                                }
                            ),
                        ));
                    }
                    TrapTrigger::Exit(way) if room.exits.iter().all(|e| &e.direction != way) => {
                        let ways: Vec<&str> =
                            room.exits.iter().map(|e| e.direction.as_str()).collect();
                        problems.push(Problem::new(
                            format!("{path}.trigger.exit"),
                            format!(
                                "no exit {way:?} from this room; its exits are: {}",
                                ways.join(", ")
                            ),
                        ));
                    }
                    _ => {}
                }
                if let Some(feet) = trap.fall_ft.filter(|f| *f < 10) {
                    problems.push(Problem::new(
                        format!("{path}.fall_ft"),
                        format!(
                            "a fall of {feet} ft deals no damage (1d6 per full 10 ft); give 10 or more, or leave it out"
                        ),
                    ));
                }
                story_checks::effects(
                    adventure,
                    &trap.effects,
                    &format!("{path}.effects"),
                    problems,
                );
            }
            if let Some(object) = &feature.object {
                let path = format!("{path}.object");
                if !(1..=30).contains(&object.armor_class) {
                    problems.push(Problem::new(
                        format!("{path}.armor_class"),
                        format!("Armor Class {} is outside 1..=30", object.armor_class),
                    ));
                }
                if object.hit_points == 0 {
                    problems.push(Problem::new(
                        format!("{path}.hit_points"),
                        "an object needs at least 1 hit point",
                    ));
                }
                story_checks::effects(
                    adventure,
                    &object.on_broken,
                    &format!("{path}.on_broken"),
                    problems,
                );
            }
        }
    }
}
