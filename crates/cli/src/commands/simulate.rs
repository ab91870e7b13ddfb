//! `parchis simulate`: plays many seeded games of random legal moves, on one thread or several with the
//! same games, and prints the totals (wins per side, moves, games per second), as text or JSON.

use clap::Args as ClapArgs;
use parchis_bots::mix_seed;
use parchis_rules::{Game, NoEvents, Phase};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::time::Instant;

/// Games per block of work. Each block draws from its own generator, seeded with `mix_seed(--seed, block)`
/// (as `arena` seeds its games), so the games played, and every total printed, are the same whatever the
/// number of threads.
const BLOCK: u64 = 1_000;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: super::GameArgs,
    /// Games to play, each with random legal moves.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seeds the dice and the moves: the same seed, the same games and totals.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: every core; at most 1024). The default, 1, measures one core; the games are the
    /// same for any number.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: u16,
    /// Print one JSON object (for scripts) instead of text.
    #[arg(long)]
    json: bool,
}

/// Result of one random game: decisions played and the winning side.
pub struct Outcome {
    pub moves: u64,
    pub rolls: u64,
    pub winner: u8,
}

/// Plays one random game to the end from `start`.
pub fn random_game(start: &Game, rng: &mut Xoshiro256PlusPlus) -> Outcome {
    let mut g = *start;
    let (mut moves, mut rolls) = (0, 0);
    loop {
        match g.phase() {
            Phase::Over { side } => {
                return Outcome {
                    moves,
                    rolls,
                    winner: side,
                };
            }
            Phase::Roll => {
                rolls += 1;
                let _ = g.roll_with(rng.random_range(1..=6), &mut NoEvents);
            }
            _ => {
                let n = g.legal().len();
                moves += 1;
                let _ = g.play_legal_with(rng.random_range(0..n), &mut NoEvents);
            }
        }
    }
}

/// What a block of games adds to the totals.
struct Totals {
    moves: u64,
    rolls: u64,
    /// Games won, by side.
    wins: Vec<u64>,
}

impl Totals {
    fn new(sides: usize) -> Totals {
        Totals {
            moves: 0,
            rolls: 0,
            wins: vec![0; sides],
        }
    }

    fn record(&mut self, o: Outcome) {
        self.moves += o.moves;
        self.rolls += o.rolls;
        self.wins[o.winner as usize] += 1;
    }

    fn sum(mut self, other: Totals) -> Totals {
        self.moves += other.moves;
        self.rolls += other.rolls;
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
        self
    }
}

/// Plays `games` random games from `start` on a pool of `threads` threads (0: every core), block by block;
/// returns the totals and the pool's size.
fn play_all(
    start: &Game,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<(Totals, usize), String> {
    let sides = start.layout().n_sides() as usize;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let totals = pool.install(|| {
        (0..games.div_ceil(BLOCK))
            .into_par_iter()
            .map(|block| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, block));
                let mut totals = Totals::new(sides);
                for _ in block * BLOCK..games.min((block + 1) * BLOCK) {
                    totals.record(random_game(start, &mut rng));
                }
                totals
            })
            .reduce(|| Totals::new(sides), Totals::sum)
    });
    Ok((totals, pool.current_num_threads()))
}

pub fn run(a: Args) -> Result<(), String> {
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let start = a.game.new_game()?;
    let t = Instant::now();
    let (Totals { moves, rolls, wins }, threads) =
        play_all(&start, a.games, a.seed, usize::from(a.threads))?;
    let secs = t.elapsed().as_secs_f64();
    let games = a.games as f64;
    let l = start.layout();
    // Each side: its seats, each with its colours.
    let sides: Vec<Vec<(u8, Vec<&str>)>> = (0..wins.len())
        .map(|side| {
            (0..l.n_seats)
                .filter(|&s| l.side_of_seat[s as usize] == side as u8)
                .map(|s| {
                    let colours = (0..l.n_colours)
                        .filter(|c| l.seat_colours[s as usize] & (1 << c) != 0)
                        .map(|c| l.colours[c as usize].name())
                        .collect();
                    (s, colours)
                })
                .collect()
        })
        .collect();
    if a.json {
        let out = serde_json::json!({
            "rules": start.rules().to_string(),
            "mode": start.mode().to_string(),
            "players": start.players(),
            "games": a.games,
            "seed": a.seed,
            "threads": threads,
            "seconds": secs,
            "games_per_second": games / secs,
            "moves_per_second": moves as f64 / secs,
            "moves_per_game": moves as f64 / games,
            "rolls_per_game": rolls as f64 / games,
            "wins": sides.iter().zip(&wins).enumerate().map(|(side, (seats, w))| serde_json::json!({
                "side": side,
                "seats": seats.iter().map(|(s, colours)| serde_json::json!({ "seat": s, "colours": colours })).collect::<Vec<_>>(),
                "games": w,
            })).collect::<Vec<_>>(),
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{} {}/{} games={} seed={} threads={}",
        start.rules(),
        start.mode(),
        start.players(),
        a.games,
        a.seed,
        threads
    );
    println!("games/s: {:.0}", games / secs);
    println!("moves/s: {:.0}", moves as f64 / secs);
    println!(
        "moves per game: {:.1} (rolls per game: {:.1})",
        moves as f64 / games,
        rolls as f64 / games
    );
    for (seats, w) in sides.iter().zip(&wins) {
        let seats: Vec<String> = seats
            .iter()
            .map(|(s, colours)| format!("seat {s} ({})", colours.join("+")))
            .collect();
        println!(
            "wins {}: {} ({:.1}%)",
            seats.join(", "),
            w,
            100.0 * *w as f64 / games
        );
    }
    Ok(())
}
