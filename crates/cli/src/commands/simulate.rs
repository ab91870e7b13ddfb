use clap::Args as ClapArgs;
use parchis_rules::{Game, NoEvents, Phase};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Games per block of work. Each block draws from its own generator, seeded from `--seed` and the block's
/// number (block 0 from `--seed` itself), so the games played, and every total printed, are the same
/// whatever the number of threads.
const BLOCK: u64 = 1_000;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: super::GameArgs,
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: every core). The default, 1, measures one core; the games are the same for any
    /// number.
    #[arg(long, default_value_t = 1)]
    threads: usize,
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
pub fn random_game(start: &Game, rng: &mut SmallRng) -> Outcome {
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
                let legal = g.legal();
                let m = legal[rng.random_range(0..legal.len())];
                moves += 1;
                g.play_unchecked_with(m, &mut NoEvents);
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
    fn add(&mut self, other: &Totals) {
        self.moves += other.moves;
        self.rolls += other.rolls;
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
    }
}

/// The generator of block `block` (see [`BLOCK`]).
fn block_rng(seed: u64, block: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ block.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays `games` random games from `start` on `threads` threads, block by block.
fn play_all(start: &Game, games: u64, seed: u64, threads: usize) -> Totals {
    let sides = start.layout().n_sides() as usize;
    let empty = || Totals {
        moves: 0,
        rolls: 0,
        wins: vec![0; sides],
    };
    let next_block = AtomicU64::new(0);
    let blocks = games.div_ceil(BLOCK);
    let worker = || {
        let mut totals = empty();
        loop {
            let block = next_block.fetch_add(1, Ordering::Relaxed);
            if block >= blocks {
                return totals;
            }
            let mut rng = block_rng(seed, block);
            for _ in block * BLOCK..games.min((block + 1) * BLOCK) {
                let o = random_game(start, &mut rng);
                totals.moves += o.moves;
                totals.rolls += o.rolls;
                totals.wins[o.winner as usize] += 1;
            }
        }
    };
    let mut all = empty();
    std::thread::scope(|scope| {
        // A thread the system refuses is simply not there: the others take its blocks (and with none, this
        // thread plays them all), so the games are the same.
        let handles: Vec<_> = (0..threads.min(blocks as usize))
            .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, worker).ok())
            .collect();
        if handles.is_empty() {
            all.add(&worker());
        }
        for h in handles {
            all.add(&h.join().expect("a simulation thread panicked"));
        }
    });
    all
}

pub fn run(a: Args) -> Result<(), String> {
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let threads = match a.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let start = a.game.new_game()?;
    let t = Instant::now();
    let Totals { moves, rolls, wins } = play_all(&start, a.games, a.seed, threads);
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
