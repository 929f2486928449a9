//! Criterion benches of the stores: `SqliteStore` on a file (durable: WAL, `synchronous =
//! FULL`, one `fsync` per commit) and `MemoryStore`, through the async `GameStore` trait on a
//! tokio runtime, as the game calls them.
//!
//! - `store/sqlite_file/commit_turn` and `store/memory/commit_turn`: committing one typical turn
//!   (5 changes: gold, damage, healing, a flag, the clock; 3 rolls with their detail; 4 chat
//!   lines; 1 story event; no LLM transcript) to a party of four in six rooms. The campaign is
//!   replaced (untimed) every 100 turns, so the state stays the size of a session's, not of
//!   the whole run's;
//! - `store/sqlite_file/load_500_turns` and `store/memory/load_500_turns`: loading the state
//!   of a campaign with 500 committed turns (a story log of 500 events).
//!
//! Targets: a commit under 1 ms and a load under 2 ms on SQLite, the memory store 100 times
//! faster on both. The SQLite file is in the system's temporary directory, so the commit's
//! cost is that directory's `fsync`. Run with `cargo bench -p dnd-benches --bench store`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use dnd_engine::dice::{DiceExpr, seeded_rng};
use dnd_engine::rules::{AbilityScores, ConditionSet, DeathSaves, HitDice, HitPoints, SpellSlots};
use dnd_engine::state::{
    Change, Character, Exit, GameState, ItemStack, Location, StoryEvent, StoryKind, Target,
};
use dnd_engine::store::{ChatLine, GameStore, MemoryStore, RollDetail, RollRecord, TurnRecord};
use dnd_store_sqlite::SqliteStore;
use tokio::runtime::Runtime;

/// Turns committed to one campaign before the commit bench starts a new one.
const TURNS_PER_CAMPAIGN: u64 = 100;
/// The history of the campaign the load bench loads.
const LOAD_TURNS: u64 = 500;

fn character(id: &str, class: &str) -> Character {
    Character {
        id: id.into(),
        name: id.to_uppercase(),
        class: class.into(),
        level: 3,
        race: "human".into(),
        abilities: AbilityScores::new(16, 12, 14, 10, 12, 8),
        skills: Default::default(),
        save_proficiencies: vec![],
        hp: HitPoints::full(28),
        armor_class: 16,
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
        inventory: Arc::new(vec![
            ItemStack::new("Rations", 5),
            ItemStack::new("Rope", 1),
        ]),
        gold: 25,
        location: "room0".into(),
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
    }
}

/// A party of four in six rooms in a row.
fn campaign_state() -> GameState {
    let rooms: Vec<Location> = (0..6)
        .map(|i| Location {
            id: format!("room{i}"),
            title: format!("Room {i}"),
            short_description: format!("A dusty room, the {i}th of the crypt."),
            description: format!(
                "Room {i} of the crypt: cracked flagstones, a collapsed shelf, and the smell of \
                 old smoke. Something scratched marks into the north wall."
            ),
            exits: vec![Exit {
                direction: "north".into(),
                to: format!("room{}", (i + 1) % 6),
                locked: false,
                unlock_dc: None,
                key: None,
                hidden: false,
                find_dc: None,
                lock_bonus: 0,
            }],
            features: vec![],
            loot: vec![ItemStack::new("Torch", 2)],
            visited: i == 0,
            areas: Vec::new(),
            light: Default::default(),
        })
        .collect();
    GameState {
        title: "Bench".into(),
        characters: Arc::new(vec![
            character("kraven", "fighter"),
            character("ilse", "rogue"),
            character("moro", "wizard"),
            character("tam", "cleric"),
        ]),
        monsters: Arc::new(vec![]),
        locations: Arc::new(rooms),
        npcs: Arc::new(vec![]),
        encounter: None,
        flags: Default::default(),
        time: Default::default(),
        mode: Default::default(),
        summary: "The party entered the crypt under the chapel.".into(),
        memory: Default::default(),
        turn: 0,
        dice_seed: Default::default(),
        fair: Default::default(),
        levelling: Default::default(),
        story: Default::default(),
        srd: Default::default(),
    }
}

/// A typical turn: 5 changes, 3 rolls, 4 chat lines, 1 story event.
fn typical_turn() -> TurnRecord {
    let kraven = || Target::Character("kraven".into());
    let check = DiceExpr::parse("1d20+5").unwrap();
    let mut rng = seeded_rng(7);
    let mut roll = |label: &str, _total: i64| {
        let rolled = check.roll(&mut rng).unwrap();
        RollRecord::new(
            label,
            rolled.total(),
            Some(kraven()),
            RollDetail::Dice(rolled),
        )
    };
    let line = |speaker: &str, text: &str| ChatLine {
        speaker: speaker.into(),
        text: text.into(),
    };
    TurnRecord {
        input: "I search the collapsed shelf and pocket whatever coins I find.".into(),
        changes: vec![
            Change::Gold {
                character: "kraven".into(),
                delta: 2,
            },
            Change::Damage {
                target: kraven(),
                amount: 3,
                critical: false,
            },
            Change::Heal {
                target: kraven(),
                amount: 3,
            },
            Change::FlagSet {
                key: "shelf_searched".into(),
                value: serde_json::json!(true),
            },
            Change::TimeAdvanced { minutes: 10 },
        ],
        rolls: vec![
            roll("Kraven searches the shelf (Investigation)", 17),
            roll("The shelf's needle trap attacks Kraven", 18),
            roll("Kraven's Constitution save", 19),
        ],
        events: vec![StoryEvent {
            turn: 0,
            kind: StoryKind::Other,
            text: "Kraven found two gold coins in the shelf and a needle in his thumb.".into(),
        }],
        player_messages: vec![
            line("player", "I search the collapsed shelf."),
            line(
                "gm",
                "You dig through splintered planks and rotten scrolls. Among them, two gold \
                 coins glint; as you reach for them, a rusted needle bites into your thumb.",
            ),
            line(
                "gm",
                "Investigation 17. Needle trap: 18 against AC 16, 3 piercing. Constitution 19.",
            ),
            line(
                "gm",
                "You pocket the coins. The scratches on the north wall look fresh.",
            ),
        ],
        llm_messages: vec![],
        choices: Vec::new(),
        after_turn: None,
    }
}

/// Commits `iters` typical turns and returns the time spent in `commit_turn` alone.
fn timed_commits<S: GameStore>(
    rt: &Runtime,
    store: &S,
    record: &TurnRecord,
    iters: u64,
) -> Duration {
    let initial = campaign_state();
    let mut total = Duration::ZERO;
    let mut campaign = None;
    for i in 0..iters {
        if i % TURNS_PER_CAMPAIGN == 0 {
            if let Some(old) = campaign.take() {
                rt.block_on(store.delete(&old)).expect("deleted");
            }
            campaign = Some(
                rt.block_on(store.create_campaign("Bench", &initial))
                    .expect("created"),
            );
        }
        let id = campaign.as_ref().expect("a campaign");
        let record = record.clone();
        let start = Instant::now();
        let turn = rt
            .block_on(store.commit_turn(id, record))
            .expect("committed");
        total += start.elapsed();
        black_box(turn);
    }
    if let Some(old) = campaign {
        rt.block_on(store.delete(&old)).expect("deleted");
    }
    total
}

fn bench_store<S: GameStore>(c: &mut Criterion, rt: &Runtime, name: &str, store: &S) {
    let record = typical_turn();
    let mut group = c.benchmark_group(format!("store/{name}"));
    group.bench_function("commit_turn", |b| {
        b.iter_custom(|iters| timed_commits(rt, store, &record, iters));
    });
    let id = rt
        .block_on(store.create_campaign("Loaded", &campaign_state()))
        .expect("created");
    for _ in 0..LOAD_TURNS {
        rt.block_on(store.commit_turn(&id, record.clone()))
            .expect("committed");
    }
    group.bench_function("load_500_turns", |b| {
        b.iter(|| rt.block_on(store.load(black_box(&id))).expect("loaded"));
    });
    group.finish();
}

fn bench_stores(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sqlite = SqliteStore::open(dir.path().join("bench.db")).expect("a new store");
    bench_store(c, &rt, "sqlite_file", &sqlite);
    bench_store(c, &rt, "memory", &MemoryStore::new());
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_stores
}
criterion_main!(benches);
