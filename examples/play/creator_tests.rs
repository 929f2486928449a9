//! The character wizard driven by a script, bad answers included.

use std::collections::VecDeque;

use dnd_engine::character::{read_character_file, write_sheet};
use dnd_engine::dice::seeded_rng;
use dnd_engine::rules::{Proficiency, Skill};
use dnd_engine::srd::Srd;

use crate::creator::{Dialogue, create};

/// Answers from a list; everything shown is kept.
struct Script {
    answers: VecDeque<&'static str>,
    shown: String,
}

impl Dialogue for Script {
    fn ask(&mut self, question: &str) -> Option<String> {
        let answer = self.answers.pop_front()?;
        self.shown.push_str(&format!("{question}{answer}\n"));
        Some(answer.to_owned())
    }

    fn tell(&mut self, text: &str) {
        self.shown.push_str(text);
        self.shown.push('\n');
    }
}

fn script(answers: &[&'static str]) -> Script {
    Script {
        answers: answers.iter().copied().collect(),
        shown: String::new(),
    }
}

#[test]
fn the_wizard_makes_a_dwarf_cleric_and_re_asks_bad_answers() {
    let mut d = script(&[
        "orc",
        "hill dwarf", // race
        "Cleric",     // class
        "1",
        "16",
        "14",
        "10",
        "13",
        "8",
        "15",
        "12", // standard array, 16 refused
        "insight",
        "medicine",
        "persuasion", // Insight is the Acolyte's: not offered
        "1",          // a dwarf's tool
        "1",
        "2",
        "3",
        "1",
        "1",
        "Amulet",
        "Emblem",
        "1", // the kit
        "Guidance",
        "Sacred Flame",
        "Spare the Dying",
        "Bless",
        "Healing Word",
        "Guiding Bolt",
        "Shield of Faith",
        "Sanctuary",
        "",
        "Hedda Stonebrow",
    ]);
    let sheet = create(&mut d, Srd::bundled(), &mut seeded_rng(1))
        .unwrap_or_else(|e| panic!("{e}\n{}", d.shown));
    let shown = &d.shown;
    assert!(shown.contains("\"orc\" is not on the list"), "{shown}");
    assert!(
        shown.contains("16 is not left: type one of 15, 14, 13, 12, 10, 8"),
        "{shown}"
    );
    assert!(shown.contains("\"insight\" is not on the list"), "{shown}");
    assert!(
        shown.contains("\"Bless\" is not on the list"),
        "Bless is a Life domain spell: {shown}"
    );
    assert!(shown.contains("a name is 1 to 40 characters"), "{shown}");
    assert!(d.answers.is_empty(), "every answer used");
    assert_eq!(sheet.name, "Hedda Stonebrow");
    assert_eq!(sheet.race, "hill dwarf");
    assert_eq!(sheet.hp.max, 8 + 2 + 1);
    assert_eq!(sheet.armor_class, 18, "chain mail and a shield");
    assert_eq!(
        sheet.skills.get(&Skill::Medicine),
        Some(&Proficiency::Proficient)
    );
    assert_eq!(sheet.spells.len(), 3 + 2 + 4);
    // The saved sheet loads back the same.
    let loaded = read_character_file(&write_sheet(&sheet), Srd::bundled()).unwrap();
    assert_eq!(loaded, sheet);
}

#[test]
fn point_buy_over_budget_is_re_asked_and_stopping_saves_nothing() {
    let mut d = script(&["human", "fighter", "2", "15", "15", "15", "9"]);
    let stopped = create(&mut d, Srd::bundled(), &mut seeded_rng(1));
    assert!(stopped.unwrap_err().contains("stopped"));
    assert!(
        d.shown.contains("9 costs 1 points; 0 are left"),
        "{}",
        d.shown
    );
}

#[test]
fn rolled_scores_come_from_the_seeded_dice() {
    let mut d = script(&["human", "wizard", "3"]);
    let _ = create(&mut d, Srd::bundled(), &mut seeded_rng(5));
    let rolled = dnd_engine::character::roll_ability_scores(&mut seeded_rng(5));
    assert!(
        d.shown.contains(&format!("You rolled {rolled:?}.")),
        "{}",
        d.shown
    );
}
