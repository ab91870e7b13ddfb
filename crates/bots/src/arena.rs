//! Many seeded games between bots, on all cores, with win rates and decision times.

use crate::{Bot, Level, make_bot, mix_seed};
use parchis_rules::{Game, Mode, Move, NoEvents, Phase, RuleSet, SetupError};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Makes the bots of an arena entry that is not a built-in [`Level`]: a fresh bot for each game.
pub trait BotMaker: Send + Sync {
    /// The entry's name in reports.
    fn name(&self) -> &str;
    /// A bot for one game, seeded with `seed`; an error says why it could not be made (an engine that
    /// would not start, say) and stops the arena.
    fn make(&self, seed: u64) -> Result<Box<dyn Bot>, String>;
}

/// Who plays an arena entry.
#[derive(Clone)]
pub enum Entrant {
    /// A bot of this crate.
    Level(Level),
    /// Bots someone else makes.
    Other(Arc<dyn BotMaker>),
}

impl Entrant {
    /// The name in reports: the level's, or the maker's.
    pub fn name(&self) -> &str {
        match self {
            Entrant::Level(l) => l.name(),
            Entrant::Other(m) => m.name(),
        }
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Bot>, String> {
        match self {
            Entrant::Level(l) => Ok(make_bot(*l, seed)),
            Entrant::Other(m) => m.make(seed),
        }
    }

    /// Report order: the levels weakest first, then the others by name.
    fn order(&self) -> (bool, Option<Level>, &str) {
        match self {
            Entrant::Level(l) => (false, Some(*l), ""),
            Entrant::Other(m) => (true, None, m.name()),
        }
    }
}

impl From<Level> for Entrant {
    fn from(level: Level) -> Entrant {
        Entrant::Level(level)
    }
}

impl fmt::Debug for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Two entrants are the same when they are the same level, or the same maker.
impl PartialEq for Entrant {
    fn eq(&self, other: &Entrant) -> bool {
        match (self, other) {
            (Entrant::Level(a), Entrant::Level(b)) => a == b,
            (Entrant::Other(a), Entrant::Other(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Entrant {}

/// What to play: see [`arena`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaConfig {
    /// The rule set.
    pub rules: RuleSet,
    /// The mode.
    pub mode: Mode,
    /// One entrant per seat (*entries*); the player count is their number.
    pub bots: Vec<Entrant>,
    /// Games to play (default 100). Use a multiple of the number of entries for an even seat rotation.
    pub games: u32,
    /// Master seed (default 0): game `i` uses seeds derived from `(seed, i)` only.
    pub seed: u64,
    /// Actions (rolls and moves) after which a game is abandoned as unfinished (default 20 000).
    pub max_actions: u32,
    /// Worker threads; 0 (the default) uses every core.
    pub threads: usize,
}

impl ArenaConfig {
    /// A configuration with the defaults: 100 games, seed 0, all cores.
    pub fn new(
        rules: RuleSet,
        mode: Mode,
        bots: impl IntoIterator<Item = impl Into<Entrant>>,
    ) -> ArenaConfig {
        ArenaConfig {
            rules,
            mode,
            bots: bots.into_iter().map(Into::into).collect(),
            games: 100,
            seed: 0,
            max_actions: 20_000,
            threads: 0,
        }
    }
}

/// Why an arena could not run.
#[derive(Debug)]
pub enum ArenaError {
    /// The number of bots is not a player count of the mode (or the rules refused the setup).
    Setup(SetupError),
    /// The thread pool could not be built.
    Threads(String),
    /// An entry's bot could not be made or failed during a game (see [`Bot::failure`]).
    Bot {
        /// The entry's name.
        entrant: String,
        /// What went wrong.
        message: String,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Setup(e) => write!(f, "{e}"),
            ArenaError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
            ArenaError::Bot { entrant, message } => write!(f, "{entrant}: {message}"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// One entry's results.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryStats {
    /// Position of the entry in [`ArenaConfig::bots`].
    pub entry: usize,
    /// Its name (the level's, or its maker's).
    pub level: String,
    /// Games its side won (partners both win a team game).
    pub wins: u32,
    /// Games played (finished or not).
    pub games: u32,
    /// `wins / games`.
    pub win_rate: f64,
    /// 95 % Wilson score interval of the win rate.
    pub ci95: (f64, f64),
}

/// Decision times of one level (or maker), over the decisions with at least two legal moves.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelTiming {
    /// The level's or maker's name.
    pub level: String,
    /// Decisions measured.
    pub decisions: u64,
    /// Median decision time.
    pub p50: Duration,
    /// 99th percentile decision time.
    pub p99: Duration,
    /// Slowest decision.
    pub max: Duration,
}

/// What [`arena`] found. `Display` prints a small table.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaReport {
    /// The configuration played.
    pub config: ArenaConfig,
    /// One line per entry, in the order of [`ArenaConfig::bots`].
    pub entries: Vec<EntryStats>,
    /// One line per level present, weakest first, then one per maker.
    pub timings: Vec<LevelTiming>,
    /// Games abandoned at `max_actions` (nobody won them).
    pub unfinished: u32,
    /// Mean actions (rolls and moves) per game.
    pub mean_actions: f64,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
}

/// The 95 % Wilson score interval of `wins` successes in `n` trials.
pub fn wilson95(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = wins as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One game's record: see [`play_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The winning side, `None` if abandoned at the action limit.
    pub winner: Option<u8>,
    /// Every action in order: `roll N` or the move text (`y1:5-12`).
    pub actions: Vec<String>,
    /// The final position.
    pub last: Game,
    /// Decision times (nanoseconds) per seat, for decisions with at least two legal moves.
    pub times: Vec<Vec<u64>>,
}

/// Plays one game: `seats[s]` plays seat `s`, the dice come from a `Xoshiro256PlusPlus` seeded with
/// `dice_seed`, bot `s` is seeded with `mix_seed(dice_seed, s)`. At most `max_actions` rolls and moves.
pub fn play_game(
    rules: RuleSet,
    mode: Mode,
    seats: &[Level],
    dice_seed: u64,
    max_actions: u32,
) -> Result<GameRecord, SetupError> {
    let game = Game::new(rules, mode, seats.len() as u8)?;
    let bots: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(s, &l)| make_bot(l, bot_seed(dice_seed, s)))
        .collect();
    Ok(play_game_with(game, bots, dice_seed, max_actions))
}

/// The seed of the bot in seat `seat` of the game whose dice come from `dice_seed`.
pub fn bot_seed(dice_seed: u64, seat: usize) -> u64 {
    mix_seed(dice_seed, seat as u64 + 1000)
}

/// Plays `game` to its end (or `max_actions` rolls and moves) with `bots[s]` playing seat `s` and dice from
/// `Xoshiro256PlusPlus::seed_from_u64(dice_seed)`.
///
/// # Panics
///
/// If a bot returns a move that is not among the legal ones, or `bots` has fewer entries than seats.
pub fn play_game_with(
    game: Game,
    bots: Vec<Box<dyn Bot>>,
    dice_seed: u64,
    max_actions: u32,
) -> GameRecord {
    play_game_keeping(game, bots, dice_seed, max_actions).0
}

/// [`play_game_with`], handing the bots back (the arena asks them whether they failed).
fn play_game_keeping(
    mut game: Game,
    mut bots: Vec<Box<dyn Bot>>,
    dice_seed: u64,
    max_actions: u32,
) -> (GameRecord, Vec<Box<dyn Bot>>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(dice_seed);
    let mut actions = Vec::new();
    let mut times = vec![Vec::new(); bots.len()];
    for _ in 0..max_actions {
        match game.phase() {
            Phase::Over { side } => {
                let record = GameRecord {
                    winner: Some(side),
                    actions,
                    last: game,
                    times,
                };
                return (record, bots);
            }
            Phase::Roll => {
                let die = rng.random_range(1..=6);
                actions.push(format!("roll {die}"));
                game.roll_with(die, &mut NoEvents)
                    .expect("a roll in the roll phase is legal");
            }
            Phase::Move { .. } | Phase::Count { .. } => {
                let seat = game.seat() as usize;
                let legal = game.legal_moves();
                let start = Instant::now();
                let mv: Move = bots[seat].choose(&game, &legal);
                if legal.len() > 1 {
                    times[seat].push(start.elapsed().as_nanos() as u64);
                }
                assert!(
                    legal.iter().any(|m| m.same_as(&mv)),
                    "{} chose the illegal move {} in {}",
                    bots[seat].name(),
                    game.move_text(&mv),
                    game.notation()
                );
                actions.push(game.move_text(&mv));
                game.play_with(mv, &mut NoEvents)
                    .expect("a legal move plays");
            }
        }
    }
    let winner = game.winner();
    let record = GameRecord {
        winner,
        actions,
        last: game,
        times,
    };
    (record, bots)
}

/// One game's outcome in an arena: the winning entries (`None`: unfinished), its actions, and each entry's
/// decision times.
type GameOutcome = (Option<Vec<usize>>, u32, Vec<(usize, Vec<u64>)>);

/// Plays `config.games` games and reports per-entry win rates and per-level decision times.
///
/// Game `i` (0-based) rotates the seats: entry `k` sits in seat `(k + i) % n` with `n` entries, so over any
/// multiple of `n` games each entry plays each seat (and each position in the turn order) equally often.
/// Its dice come from `Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, i))` and its bots are seeded from the same
/// value, so a run is reproducible and independent of the thread count (except for the timings). An entry
/// wins a game when its seat's side wins (both partners win a team game).
pub fn arena(config: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    let n = config.bots.len();
    // Validate the setup once, with a clear error.
    let start = Game::new(config.rules, config.mode, n as u8).map_err(ArenaError::Setup)?;
    let started = Instant::now();
    let run = || -> Result<Vec<GameOutcome>, ArenaError> {
        (0..config.games)
            .into_par_iter()
            .map(|i| {
                let rot = i as usize % n;
                // entry_of_seat[s] = the entry sitting in seat s; entry k sits in seat (k + rot) % n.
                let mut entry_of_seat = vec![0; n];
                for k in 0..n {
                    entry_of_seat[(k + rot) % n] = k;
                }
                let dice_seed = mix_seed(config.seed, i as u64);
                let failed = |k: usize, message: String| ArenaError::Bot {
                    entrant: config.bots[k].name().to_owned(),
                    message,
                };
                let bots = entry_of_seat
                    .iter()
                    .enumerate()
                    .map(|(s, &k)| {
                        config.bots[k]
                            .make(bot_seed(dice_seed, s))
                            .map_err(|m| failed(k, m))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let (rec, bots) = play_game_keeping(start, bots, dice_seed, config.max_actions);
                if let Some((s, message)) = bots
                    .iter()
                    .enumerate()
                    .find_map(|(s, b)| b.failure().map(|m| (s, m)))
                {
                    return Err(failed(entry_of_seat[s], message));
                }
                let layout = *rec.last.layout();
                let winners = rec.winner.map(|side| {
                    (0..n)
                        .filter(|&s| layout.side_of_seat[s] == side)
                        .map(|s| entry_of_seat[s])
                        .collect::<Vec<_>>()
                });
                let times = rec
                    .times
                    .into_iter()
                    .enumerate()
                    .map(|(s, t)| (entry_of_seat[s], t))
                    .collect();
                Ok((winners, rec.actions.len() as u32, times))
            })
            .collect()
    };
    let results = if config.threads == 0 {
        run()
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| ArenaError::Threads(e.to_string()))?
            .install(run)
    }?;

    let mut wins = vec![0u32; n];
    let mut unfinished = 0;
    let mut total_actions = 0u64;
    // Decision times per entrant (entries with the same entrant together).
    let mut times: Vec<(&Entrant, Vec<u64>)> = Vec::new();
    for (winners, actions, t) in results {
        total_actions += actions as u64;
        match winners {
            Some(w) => w.into_iter().for_each(|k| wins[k] += 1),
            None => unfinished += 1,
        }
        for (k, v) in t {
            let entrant = &config.bots[k];
            match times.iter_mut().find(|(e, _)| *e == entrant) {
                Some((_, all)) => all.extend(v),
                None => times.push((entrant, v)),
            }
        }
    }
    let entries = (0..n)
        .map(|k| EntryStats {
            entry: k,
            level: config.bots[k].name().to_owned(),
            wins: wins[k],
            games: config.games,
            win_rate: if config.games == 0 {
                0.0
            } else {
                wins[k] as f64 / config.games as f64
            },
            ci95: wilson95(wins[k], config.games),
        })
        .collect();
    times.sort_by(|(a, _), (b, _)| a.order().cmp(&b.order()));
    let timings = times
        .into_iter()
        .map(|(entrant, mut v)| {
            v.sort_unstable();
            let q = |f: f64| -> Duration {
                if v.is_empty() {
                    return Duration::ZERO;
                }
                let i = ((v.len() as f64 * f).ceil() as usize).clamp(1, v.len()) - 1;
                Duration::from_nanos(v[i])
            };
            LevelTiming {
                level: entrant.name().to_owned(),
                decisions: v.len() as u64,
                p50: q(0.5),
                p99: q(0.99),
                max: Duration::from_nanos(v.last().copied().unwrap_or(0)),
            }
        })
        .collect();
    Ok(ArenaReport {
        config: config.clone(),
        entries,
        timings,
        unfinished,
        mean_actions: if config.games == 0 {
            0.0
        } else {
            total_actions as f64 / config.games as f64
        },
        elapsed: started.elapsed(),
    })
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let bots: Vec<&str> = c.bots.iter().map(Entrant::name).collect();
        writeln!(
            f,
            "arena: rules {} mode {} bots {} games {} seed {} ({:.1} s, {:.0} actions/game, {} unfinished)",
            c.rules,
            c.mode,
            bots.join(","),
            c.games,
            c.seed,
            self.elapsed.as_secs_f64(),
            self.mean_actions,
            self.unfinished
        )?;
        writeln!(
            f,
            "{:>5}  {:<7} {:>6} {:>7}  {:>17}",
            "entry", "level", "wins", "rate", "95% CI (Wilson)"
        )?;
        for e in &self.entries {
            writeln!(
                f,
                "{:>5}  {:<7} {:>6} {:>6.1}%  [{:>5.1}%, {:>5.1}%]",
                e.entry,
                e.level,
                e.wins,
                e.win_rate * 100.0,
                e.ci95.0 * 100.0,
                e.ci95.1 * 100.0
            )?;
        }
        writeln!(f, "decision time (decisions with 2+ legal moves):")?;
        for t in &self.timings {
            writeln!(
                f,
                "  {:<7} n={:<8} p50 {:>9.3} ms  p99 {:>9.3} ms  max {:>9.3} ms",
                t.level,
                t.decisions,
                t.p50.as_secs_f64() * 1e3,
                t.p99.as_secs_f64() * 1e3,
                t.max.as_secs_f64() * 1e3
            )?;
        }
        Ok(())
    }
}
