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
        d.shown.contains("9 costs 1 point(s); 0 left"),
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

/// Takes the first option of every question; gives up after 300 questions (a loop).
struct FirstOption {
    /// Answers to the questions whose heading is the key ("Race:").
    opening: Vec<(&'static str, String)>,
    heading: String,
    asked: usize,
    shown: String,
}

impl Dialogue for FirstOption {
    fn ask(&mut self, question: &str) -> Option<String> {
        self.asked += 1;
        if self.asked > 300 {
            return None;
        }
        let at = self.opening.iter().position(|(h, _)| *h == self.heading);
        let answer = if let Some(at) = at {
            self.opening.remove(at).1
        } else if let Some((_, rest)) = question.split_once("one of ") {
            rest.split([',', ')'])
                .next()
                .unwrap_or("")
                .trim()
                .to_owned()
        } else if question.contains("8-15") {
            "10".to_owned()
        } else if question.starts_with("Name") {
            "Bot".to_owned()
        } else {
            "1".to_owned()
        };
        self.shown.push_str(&format!("{question}{answer}\n"));
        Some(answer)
    }

    fn tell(&mut self, text: &str) {
        if !text.starts_with(' ') {
            self.heading = text.to_owned();
        }
        self.shown.push_str(text);
        self.shown.push('\n');
    }
}

#[test]
fn every_race_and_class_can_be_made_by_taking_the_first_options() {
    let srd = Srd::bundled();
    let races: Vec<String> = srd
        .races
        .races
        .iter()
        .flat_map(|r| {
            if r.subraces.is_empty() {
                vec![r.name.clone()]
            } else {
                r.subraces.iter().map(|s| s.name.clone()).collect()
            }
        })
        .collect();
    for race in &races {
        for class in &srd.classes {
            for method in ["1", "2", "3"] {
                let mut d = FirstOption {
                    opening: vec![
                        ("Race:", race.clone()),
                        ("Class:", class.name.clone()),
                        ("Ability scores:", method.to_owned()),
                    ],
                    heading: String::new(),
                    asked: 0,
                    shown: String::new(),
                };
                let sheet = create(&mut d, srd, &mut seeded_rng(9))
                    .unwrap_or_else(|e| panic!("{race} {}: {e}\n{}", class.name, d.shown));
                assert_eq!(sheet.level, 1);
                assert_eq!(sheet.class, class.slug);
            }
        }
    }
}
