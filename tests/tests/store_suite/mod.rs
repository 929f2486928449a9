//! The behavioural suite every `GameStore` must pass. Each store's test file calls
//! [`run_all`] with a fresh, empty store.

mod stale;

use std::sync::Arc;

use dnd_engine::rules::{AbilityScores, ConditionSet, DeathSaves, HitDice, HitPoints, SpellSlots};
use dnd_engine::state::{
    Change, Character, Exit, GameState, ItemStack, Location, StoryEvent, StoryKind, Target,
};
use dnd_engine::store::{CampaignId, ChatLine, GameStore, Page, StoreError, TurnRecord, replay};

/// A small campaign: one fighter, two rooms joined by an open door.
pub fn sample_state(title: &str) -> GameState {
    let room = |id: &str, to: &str| Location {
        id: id.into(),
        title: id.to_uppercase(),
        short_description: format!("The {id}."),
        description: format!("The whole {id}."),
        exits: vec![Exit {
            direction: "door".into(),
            to: to.into(),
            locked: false,
            unlock_dc: None,
            key: None,
            hidden: false,
            find_dc: None,
            lock_bonus: 0,
        }],
        features: vec![],
        loot: vec![ItemStack::new("Torch", 3)],
        visited: false,
        areas: Vec::new(),
        light: Default::default(),
    };
    GameState {
        title: title.into(),
        characters: Arc::new(vec![Character {
            id: "kraven".into(),
            name: "Kraven".into(),
            class: "fighter".into(),
            level: 3,
            race: "human".into(),
            abilities: AbilityScores::new(16, 12, 14, 10, 12, 8),
            skills: Default::default(),
            save_proficiencies: vec![],
            hp: HitPoints::full(28),
            armor_class: 18,
            speed: 30,
            conditions: ConditionSet::NONE,
            death_saves: DeathSaves::default(),
            dead: false,
            died_at_round: None,
            hit_dice: HitDice {
                sides: 10,
                total: 3,
                spent: 0,
            },
            spell_slots: SpellSlots::default(),
            spellcasting_ability: None,
            spells: Arc::new(vec![]),
            concentration: None,
            reactions: Vec::new(),
            attacks: Arc::new(vec![]),
            inventory: Arc::new(vec![]),
            gold: 5,
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
        }]),
        monsters: Arc::new(vec![]),
        locations: Arc::new(vec![room("hall", "cellar"), room("cellar", "hall")]),
        npcs: Arc::new(vec![]),
        encounter: None,
        flags: Default::default(),
        time: Default::default(),
        mode: Default::default(),
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

/// A typical turn: `n` marks it; 2 gold, a torch taken, some damage, a flag, a story event.
pub fn sample_turn(n: u64) -> TurnRecord {
    TurnRecord {
        input: format!("turn {n}"),
        changes: vec![
            Change::Gold {
                character: "kraven".into(),
                delta: 2,
            },
            Change::Damage {
                target: Target::Character("kraven".into()),
                amount: 1,
                critical: false,
            },
            Change::Heal {
                target: Target::Character("kraven".into()),
                amount: 1,
            },
            Change::FlagSet {
                key: format!("turn_{n}"),
                value: serde_json::json!(n),
            },
            Change::TimeAdvanced { minutes: 10 },
        ],
        rolls: vec![],
        events: vec![StoryEvent {
            turn: n,
            kind: StoryKind::Other,
            text: format!("Event {n}"),
        }],
        player_messages: vec![
            ChatLine {
                speaker: "player".into(),
                text: format!("I act ({n})"),
            },
            ChatLine {
                speaker: "gm".into(),
                text: "It happens.".into(),
            },
        ],
        llm_messages: vec![],
        choices: vec![],
        after_turn: None,
    }
}

pub async fn run_all<S: GameStore + 'static>(store: Arc<S>) {
    create_load_list(&*store).await;
    commits_apply_and_number_turns(&*store).await;
    invalid_turns_write_nothing(&*store).await;
    stale::run_all(&*store).await;
    paging(&*store).await;
    undo_keeps_the_audit_log(&*store).await;
    delete_and_unknown(&*store).await;
    names_are_stored_verbatim(&*store).await;
    concurrent_commits_lose_nothing(store).await;
}

async fn create_load_list(store: &dyn GameStore) {
    let initial = sample_state("Create");
    let id = store.create_campaign("Create", &initial).await.unwrap();
    assert_eq!(store.load(&id).await.unwrap(), initial);
    let list = store.list_campaigns().await.unwrap();
    let info = list.iter().find(|c| c.id == id).expect("listed");
    assert_eq!((info.name.as_str(), info.turns), ("Create", 0));
}

async fn commits_apply_and_number_turns(store: &dyn GameStore) {
    let initial = sample_state("Commits");
    let id = store.create_campaign("Commits", &initial).await.unwrap();
    for n in 1..=3 {
        assert_eq!(store.commit_turn(&id, sample_turn(n)).await.unwrap(), n);
    }
    let state = store.load(&id).await.unwrap();
    assert_eq!(state.characters[0].gold, 11);
    assert_eq!(state.turn, 3);
    assert_eq!(
        store.story_log(&id, Page::first(10)).await.unwrap().len(),
        3
    );
    let records: Vec<TurnRecord> = (1..=3).map(sample_turn).collect();
    assert_eq!(
        replay(&initial, &records).unwrap(),
        state,
        "replay reaches the stored state"
    );
}

async fn invalid_turns_write_nothing(store: &dyn GameStore) {
    let id = store
        .create_campaign("Invalid", &sample_state("Invalid"))
        .await
        .unwrap();
    store.commit_turn(&id, sample_turn(1)).await.unwrap();
    let before = store.load(&id).await.unwrap();
    let mut bad = sample_turn(2);
    bad.changes.push(Change::PartyMoved {
        exit: "chimney".into(),
    });
    let err = store.commit_turn(&id, bad.clone()).await.unwrap_err();
    assert!(
        matches!(err, StoreError::InvalidTurn { index: 5, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("chimney"), "{err}");
    assert_eq!(store.load(&id).await.unwrap(), before);
    assert_eq!(store.history(&id, Page::first(10)).await.unwrap().len(), 1);
    assert_eq!(
        store.commit_turn(&id, sample_turn(2)).await.unwrap(),
        2,
        "the retry commits"
    );
}

async fn paging(store: &dyn GameStore) {
    let id = store
        .create_campaign("Paging", &sample_state("Paging"))
        .await
        .unwrap();
    for n in 1..=7 {
        store.commit_turn(&id, sample_turn(n)).await.unwrap();
    }
    let page = store
        .history(
            &id,
            Page {
                offset: 2,
                limit: 3,
            },
        )
        .await
        .unwrap();
    let turns: Vec<u64> = page.iter().map(|h| h.turn).collect();
    assert_eq!(turns, [3, 4, 5]);
    assert_eq!(*page[0].record, sample_turn(3));
    let log = store
        .story_log(
            &id,
            Page {
                offset: 5,
                limit: 10,
            },
        )
        .await
        .unwrap();
    let texts: Vec<&str> = log.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["Event 6", "Event 7"]);
    assert!(
        store
            .history(
                &id,
                Page {
                    offset: 50,
                    limit: 5
                }
            )
            .await
            .unwrap()
            .is_empty()
    );
}

async fn undo_keeps_the_audit_log(store: &dyn GameStore) {
    let initial = sample_state("Undo");
    let id = store.create_campaign("Undo", &initial).await.unwrap();
    for n in 1..=4 {
        store.commit_turn(&id, sample_turn(n)).await.unwrap();
    }
    let after_two = replay(&initial, &[sample_turn(1), sample_turn(2)]).unwrap();
    assert_eq!(store.undo(&id, 2).await.unwrap(), after_two);
    assert_eq!(store.load(&id).await.unwrap(), after_two);
    let history = store.history(&id, Page::first(10)).await.unwrap();
    let undone: Vec<bool> = history.iter().map(|h| h.undone).collect();
    assert_eq!(undone, [false, false, true, true]);
    let recent: Vec<u64> = store
        .recent_turns(&id, 5)
        .await
        .unwrap()
        .iter()
        .map(|h| h.turn)
        .collect();
    assert_eq!(recent, [1, 2], "recent turns skip the undone ones");
    let err = store.undo(&id, 3).await.unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::NothingToUndo {
                asked: 3,
                available: 2
            }
        ),
        "{err}"
    );
    // Play goes on after an undo; the new turn is numbered after the undone ones.
    assert_eq!(store.commit_turn(&id, sample_turn(9)).await.unwrap(), 5);
    let state = store.load(&id).await.unwrap();
    assert_eq!(state.characters[0].gold, 11);
    assert!(state.flags.contains_key("turn_9") && !state.flags.contains_key("turn_3"));
    let recent: Vec<u64> = store
        .recent_turns(&id, 2)
        .await
        .unwrap()
        .iter()
        .map(|h| h.turn)
        .collect();
    assert_eq!(recent, [2, 5]);
    assert!(store.recent_turns(&id, 0).await.unwrap().is_empty());
    let info = store
        .list_campaigns()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap();
    assert_eq!(info.turns, 3);
}

async fn delete_and_unknown(store: &dyn GameStore) {
    let id = store
        .create_campaign("Delete", &sample_state("Delete"))
        .await
        .unwrap();
    store.commit_turn(&id, sample_turn(1)).await.unwrap();
    store.delete(&id).await.unwrap();
    assert!(matches!(
        store.load(&id).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.delete(&id).await,
        Err(StoreError::NotFound(_))
    ));
    let ghost = CampaignId("no-such-campaign".into());
    assert!(matches!(
        store.commit_turn(&ghost, sample_turn(1)).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.history(&ghost, Page::first(1)).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.undo(&ghost, 1).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.load_with_head(&ghost).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(
        !store
            .list_campaigns()
            .await
            .unwrap()
            .iter()
            .any(|c| c.id == id)
    );
}

async fn names_are_stored_verbatim(store: &dyn GameStore) {
    let name = "Robert'); DROP TABLE campaigns;-- \"quoted\" ünïcode 🐉";
    let mut initial = sample_state(name);
    Arc::make_mut(&mut initial.characters)[0].name = name.into();
    let id = store.create_campaign(name, &initial).await.unwrap();
    let mut turn = sample_turn(1);
    turn.input = name.into();
    store.commit_turn(&id, turn.clone()).await.unwrap();
    assert_eq!(store.load(&id).await.unwrap().characters[0].name, name);
    assert_eq!(
        store.history(&id, Page::first(1)).await.unwrap()[0]
            .record
            .input,
        name
    );
    let listed = store.list_campaigns().await.unwrap();
    assert!(listed.iter().any(|c| c.id == id && c.name == name));
}

async fn concurrent_commits_lose_nothing<S: GameStore + 'static>(store: Arc<S>) {
    let mut tasks = Vec::new();
    for c in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let title = format!("Concurrent {c}");
            let id = store
                .create_campaign(&title, &sample_state(&title))
                .await
                .unwrap();
            for n in 1..=20 {
                store.commit_turn(&id, sample_turn(n)).await.unwrap();
            }
            id
        }));
    }
    for task in tasks {
        let id = task.await.unwrap();
        let state = store.load(&id).await.unwrap();
        assert_eq!(state.turn, 20);
        assert_eq!(state.characters[0].gold, 45);
        assert_eq!(
            store.history(&id, Page::first(100)).await.unwrap().len(),
            20
        );
    }
}
