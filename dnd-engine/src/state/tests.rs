use super::*;
use crate::rules::{
    Ability, AbilityScores, CasterProgression, Condition, ConditionSet, DamageDice, DamageType,
    DeathSaves, HitDice, HitPoints, SpellSlots,
};
use std::sync::Arc;

fn fixture() -> GameState {
    let hero = Character {
        id: "mira".into(),
        name: "Mira".into(),
        class: "wizard".into(),
        level: 3,
        race: "elf".into(),
        abilities: AbilityScores::new(8, 14, 12, 16, 13, 10),
        skills: Default::default(),
        save_proficiencies: vec![Ability::Intelligence, Ability::Wisdom],
        hp: HitPoints::full(17),
        armor_class: 12,
        speed: 30,
        conditions: ConditionSet::NONE,
        death_saves: DeathSaves::default(),
        dead: false,
        died_at_round: None,
        hit_dice: HitDice {
            sides: 6,
            total: 3,
            spent: 0,
        },
        spell_slots: SpellSlots::for_class(CasterProgression::Full, 3),
        spellcasting_ability: Some(Ability::Intelligence),
        spells: Arc::new(vec!["Magic Missile".into()]),
        concentration: None,
        reactions: Vec::new(),
        attacks: Arc::new(vec![CharacterAttack {
            name: "Dagger".into(),
            ability: Ability::Dexterity,
            proficient: true,
            damage: DamageDice::new(1, 4, 0, DamageType::Piercing),
            add_modifier_to_damage: true,
            magic_bonus: 0,
            range_ft: 5,
            magical: false,
        }]),
        inventory: Arc::new(vec![ItemStack::new("Potion of Healing", 2)]),
        gold: 10,
        location: "hall".into(),
        hp_drained: 0,
        last_long_rest: None,
        timed_effects: Vec::new(),
        xp: 0,
        milestone_levels: 0,
        subclass: None,
        feats: Vec::new(),
        feature_uses: Default::default(),
        choices: Default::default(),
        spellbook: Vec::new(),
        prepared_at: None,
    };
    let hall = Location {
        id: "hall".into(),
        title: "Frozen Hall".into(),
        short_description: "A hall of blue ice.".into(),
        description: "A long hall of blue ice.".into(),
        exits: vec![
            Exit {
                direction: "north".into(),
                to: "vault".into(),
                locked: true,
                unlock_dc: Some(15),
                key: None,
                hidden: false,
                find_dc: None,
                lock_bonus: 0,
            },
            Exit {
                direction: "crack".into(),
                to: "vault".into(),
                locked: false,
                unlock_dc: None,
                key: None,
                hidden: true,
                find_dc: Some(14),
                lock_bonus: 0,
            },
        ],
        features: vec![Feature {
            id: "frozen-corpse".into(),
            name: "Frozen corpse".into(),
            description: "A dwarf frozen in the wall, a pouch at its belt.".into(),
            hidden: true,
            find_dc: Some(13),
            found: false,
            trap: None,
            loot: vec![ItemStack::new("Silver Key", 1)],
            object: None,
        }],
        loot: vec![ItemStack::new("Rope", 1)],
        visited: true,
        areas: Vec::new(),
        light: Default::default(),
    };
    let vault = Location {
        id: "vault".into(),
        title: "Vault".into(),
        short_description: "A small vault.".into(),
        description: "A small vault.".into(),
        exits: vec![],
        features: vec![],
        loot: vec![],
        visited: false,
        areas: Vec::new(),
        light: Default::default(),
    };
    GameState {
        title: "Test".into(),
        characters: Arc::new(vec![hero]),
        monsters: Arc::new(vec![MonsterInstance {
            id: "wolf-1".into(),
            name: "Wolf".into(),
            template: "wolf".into(),
            hp: HitPoints::full(11),
            armor_class: 13,
            conditions: ConditionSet::NONE,
            location: "hall".into(),
            hostile: true,
            revealed: false,
            morale: Default::default(),
            spent_actions: Vec::new(),
            uses_spent: Default::default(),
            legendary_resistance: 0,
            concentration: None,
            holds: Vec::new(),
            timed_effects: Vec::new(),
            summoned: None,
            area: None,
            kind: "beast".into(),
        }]),
        locations: Arc::new(vec![hall, vault]),
        npcs: Arc::new(vec![Npc {
            id: "ghost".into(),
            name: "Sigrun".into(),
            description: "A pale shade.".into(),
            disposition: Disposition::Unfriendly,
            location: "hall".into(),
            goal: "Be freed from the ice".into(),
            goal_revealed: false,
            goal_steps: vec![GoalStep {
                description: "Begs for help".into(),
                trigger_flag: None,
                after_minutes: None,
                effects: Vec::new(),
            }],
            current_step: 0,
        }]),
        encounter: None,
        flags: Default::default(),
        time: GameTime {
            day: 1,
            minute: 8 * 60,
        },
        mode: Mode::Exploration,
        summary: "".into(),
        memory: Default::default(),
        turn: 0,
        dice_seed: Default::default(),
        fair: Default::default(),
        levelling: Default::default(),
        story: Default::default(),
        srd: Default::default(),
    }
}

fn mira(target: &str) -> Target {
    Target::Character(target.into())
}

#[test]
fn damage_and_healing_keep_hp_in_range() {
    let mut s = fixture();
    s.apply(&Change::TemporaryHp {
        target: mira("mira"),
        amount: 3,
    })
    .unwrap();
    s.apply(&Change::Damage {
        target: mira("mira"),
        amount: 10,
        critical: false,
    })
    .unwrap();
    let c = s.character("mira").unwrap();
    assert_eq!((c.hp.current, c.hp.temporary), (10, 0));
    s.apply(&Change::Heal {
        target: mira("mira"),
        amount: 100,
    })
    .unwrap();
    assert_eq!(s.character("mira").unwrap().hp.current, 17);
    s.apply(&Change::Damage {
        target: mira("mira"),
        amount: 20,
        critical: false,
    })
    .unwrap();
    let c = s.character("mira").unwrap();
    assert_eq!(c.hp.current, 0);
    assert!(c.conditions.has(Condition::Unconscious) && !c.dead);
    s.apply(&Change::Damage {
        target: mira("mira"),
        amount: 2,
        critical: true,
    })
    .unwrap();
    assert_eq!(s.character("mira").unwrap().death_saves.failures, 2);
    s.apply(&Change::Heal {
        target: mira("mira"),
        amount: 4,
    })
    .unwrap();
    let c = s.character("mira").unwrap();
    assert_eq!(c.hp.current, 4);
    assert_eq!(c.death_saves, DeathSaves::default());
    assert!(!c.conditions.has(Condition::Unconscious));
    // Massive damage kills, and the dead are not healed.
    s.apply(&Change::Damage {
        target: mira("mira"),
        amount: 21,
        critical: false,
    })
    .unwrap();
    assert!(s.character("mira").unwrap().dead);
    let err = s
        .apply(&Change::Heal {
            target: mira("mira"),
            amount: 5,
        })
        .unwrap_err();
    assert!(err.to_string().contains("dead"), "{err}");
}

/// The dead stay dead: a monster at 0 HP (monsters die at 0) and a dead character get neither
/// healing nor temporary hit points, whatever tool asks.
#[test]
fn the_dead_are_not_healed() {
    let mut s = fixture();
    let wolf = Target::Monster("wolf-1".into());
    s.apply(&Change::Damage {
        target: wolf.clone(),
        amount: 30,
        critical: false,
    })
    .unwrap();
    let before = s.clone();
    for change in [
        Change::Heal {
            target: wolf.clone(),
            amount: 30,
        },
        Change::TemporaryHp {
            target: wolf.clone(),
            amount: 5,
        },
    ] {
        let err = s.apply(&change).unwrap_err();
        assert!(matches!(err, ChangeError::Dead { .. }), "{err}");
        assert!(err.to_string().contains("heal only the living"), "{err}");
    }
    assert_eq!(s, before);
    let mut c = fixture();
    Arc::make_mut(&mut c.characters)[0].dead = true;
    let err = c
        .apply(&Change::TemporaryHp {
            target: mira("mira"),
            amount: 5,
        })
        .unwrap_err();
    assert!(matches!(err, ChangeError::Dead { .. }), "{err}");
}

#[test]
fn unknown_ids_name_what_exists() {
    let mut s = fixture();
    let before = s.clone();
    let err = s
        .apply(&Change::Damage {
            target: mira("bob"),
            amount: 1,
            critical: false,
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no character \"bob\"; the characters are: mira"
    );
    let err = s
        .apply(&Change::Damage {
            target: Target::Monster("orc".into()),
            amount: 1,
            critical: false,
        })
        .unwrap_err();
    assert!(err.to_string().contains("wolf-1"), "{err}");
    assert_eq!(s, before);
}

#[test]
fn items_never_go_below_zero_and_loot_must_exist() {
    let mut s = fixture();
    let err = s
        .apply(&Change::ItemRemoved {
            character: "mira".into(),
            item: "potion of healing".into(),
            quantity: 3,
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "mira has 2 \"potion of healing\", not the 3 asked for"
    );
    s.apply(&Change::ItemRemoved {
        character: "mira".into(),
        item: "Potion of Healing".into(),
        quantity: 2,
    })
    .unwrap();
    assert!(
        s.character("mira").unwrap().inventory.is_empty(),
        "empty stacks are removed"
    );
    s.apply(&Change::LootTaken {
        character: "mira".into(),
        feature: None,
        item: "rope".into(),
        quantity: 1,
    })
    .unwrap();
    assert_eq!(s.character("mira").unwrap().item_quantity("Rope"), 1);
    assert!(s.location("hall").unwrap().loot.is_empty());
    // Loot in a feature not yet found cannot be taken.
    let take_key = Change::LootTaken {
        character: "mira".into(),
        feature: Some("frozen-corpse".into()),
        item: "Silver Key".into(),
        quantity: 1,
    };
    assert!(s.apply(&take_key).is_err());
    s.apply(&Change::FeatureFound {
        location: "hall".into(),
        feature: "frozen-corpse".into(),
    })
    .unwrap();
    s.apply(&take_key).unwrap();
    assert_eq!(s.character("mira").unwrap().item_quantity("silver key"), 1);
    let err = s
        .apply(&Change::Gold {
            character: "mira".into(),
            delta: -11,
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "mira has 10 gp and cannot spend 11");
    let err = s
        .apply(&Change::ItemAdded {
            character: "mira".into(),
            item: ItemStack::new("Air", 0),
        })
        .unwrap_err();
    assert!(err.to_string().contains("at least 1"));
}

#[test]
fn moves_only_through_open_known_exits() {
    let mut s = fixture();
    let err = s
        .apply(&Change::PartyMoved {
            exit: "north".into(),
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "the exit \"north\" is locked");
    let err = s
        .apply(&Change::PartyMoved {
            exit: "crack".into(),
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no exit \"crack\"; valid: north (to vault)"
    );
    let err = s
        .apply(&Change::PartyMoved { exit: "up".into() })
        .unwrap_err();
    assert!(err.to_string().contains("valid: north"), "{err}");
    s.apply(&Change::ExitFound {
        location: "hall".into(),
        direction: "crack".into(),
    })
    .unwrap();
    s.apply(&Change::PartyMoved {
        exit: "crack".into(),
    })
    .unwrap();
    assert_eq!(s.character("mira").unwrap().location, "vault");
    assert!(s.location("vault").unwrap().visited);
}

#[test]
fn slots_encounters_and_npcs() {
    let mut s = fixture();
    for _ in 0..2 {
        s.apply(&Change::SlotSpent {
            character: "mira".into(),
            level: 2,
        })
        .unwrap();
    }
    let err = s
        .apply(&Change::SlotSpent {
            character: "mira".into(),
            level: 2,
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "mira: no level-2 slot left (available: 1st: 4)"
    );
    let order = vec![
        InitiativeSlot {
            id: "wolf-1".into(),
            initiative: 15,
            speed: 30,
        },
        InitiativeSlot {
            id: "mira".into(),
            initiative: 12,
            speed: 30,
        },
    ];
    s.apply(&Change::EncounterStarted {
        order: order.clone(),
    })
    .unwrap();
    assert_eq!(s.mode, Mode::Combat);
    assert!(s.apply(&Change::EncounterStarted { order }).is_err());
    s.apply(&Change::TurnAdvanced).unwrap();
    s.apply(&Change::TurnAdvanced).unwrap();
    let e = s.encounter.as_ref().unwrap();
    assert_eq!((e.round, e.current()), (2, Some("wolf-1")));
    s.apply(&Change::EncounterEnded).unwrap();
    assert!(s.apply(&Change::EncounterEnded).is_err());
    s.apply(&Change::NpcGoalAdvanced {
        npc: "ghost".into(),
    })
    .unwrap();
    assert!(
        s.apply(&Change::NpcGoalAdvanced {
            npc: "ghost".into()
        })
        .is_err()
    );
}

#[test]
fn apply_all_is_all_or_nothing() {
    let mut s = fixture();
    let before = s.clone();
    let changes = [
        Change::Gold {
            character: "mira".into(),
            delta: 5,
        },
        Change::Damage {
            target: mira("mira"),
            amount: 3,
            critical: false,
        },
        Change::ItemRemoved {
            character: "mira".into(),
            item: "Wand".into(),
            quantity: 1,
        },
    ];
    let (index, _) = s.apply_all(&changes).unwrap_err();
    assert_eq!(index, 2);
    assert_eq!(s, before);
    s.apply_all(&changes[..2]).unwrap();
    assert_eq!(s.character("mira").unwrap().gold, 15);
}

#[test]
fn changes_serialize_and_replay_to_the_same_state() {
    let changes = vec![
        Change::Damage {
            target: mira("mira"),
            amount: 5,
            critical: false,
        },
        Change::FlagSet {
            key: "met_ghost".into(),
            value: serde_json::json!(true),
        },
        Change::TimeAdvanced { minutes: 90 },
        Change::ConditionAdded {
            target: Target::Monster("wolf-1".into()),
            condition: Condition::Prone,
        },
    ];
    let json = serde_json::to_string(&changes).unwrap();
    assert!(json.contains(r#"{"change":"damage","target":{"kind":"character","id":"mira"},"amount":5,"critical":false}"#), "{json}");
    let back: Vec<Change> = serde_json::from_str(&json).unwrap();
    let mut a = fixture();
    let mut b = fixture();
    a.apply_all(&changes).unwrap();
    b.apply_all(&back).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.time.describe(), "day 1, 09:30");
    let state_json = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<GameState>(&state_json).unwrap(), a);
}

#[test]
fn snapshot_leaves_out_what_is_not_found() {
    let mut s = fixture();
    let json = s.snapshot().to_json();
    for secret in [
        "crack",
        "Frozen corpse",
        "Silver Key",
        "Be freed",
        "Wolf",
        "14",
        "13",
    ] {
        assert!(!json.contains(secret), "{secret:?} leaked: {json}");
    }
    assert!(json.contains("north → vault (locked)"), "{json}");
    s.apply(&Change::FeatureFound {
        location: "hall".into(),
        feature: "frozen-corpse".into(),
    })
    .unwrap();
    s.apply(&Change::MonsterRevealed {
        monster: "wolf-1".into(),
    })
    .unwrap();
    s.apply(&Change::NpcGoalRevealed {
        npc: "ghost".into(),
    })
    .unwrap();
    let json = s.snapshot().to_json();
    for now_known in [
        "Frozen corpse",
        "Wolf",
        "11/11",
        "Be freed from the ice",
        "Begs for help",
    ] {
        assert!(json.contains(now_known), "{now_known:?} missing: {json}");
    }
    assert!(
        estimate_tokens(&json) < 200,
        "{} tokens: {json}",
        estimate_tokens(&json)
    );
}
