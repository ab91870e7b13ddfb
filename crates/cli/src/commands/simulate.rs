use clap::Args as ClapArgs;
use parchis_rules::{Game, NoEvents, Phase};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: super::GameArgs,
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    #[arg(long, default_value_t = 0)]
    seed: u64,
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

pub fn run(a: Args) -> Result<(), String> {
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let start = a.game.new_game()?;
    let sides = start.layout().n_sides() as usize;
    let mut wins = vec![0u64; sides];
    let (mut moves, mut rolls) = (0u64, 0u64);
    let mut rng = SmallRng::seed_from_u64(a.seed);
    let t = Instant::now();
    for _ in 0..a.games {
        let o = random_game(&start, &mut rng);
        moves += o.moves;
        rolls += o.rolls;
        wins[o.winner as usize] += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} {}/{} games={} seed={}",
        start.rules(),
        start.mode(),
        start.players(),
        a.games,
        a.seed
    );
    println!("games/s: {:.0}", a.games as f64 / secs);
    println!("moves/s: {:.0}", moves as f64 / secs);
    println!(
        "moves per game: {:.1} (rolls per game: {:.1})",
        moves as f64 / a.games as f64,
        rolls as f64 / a.games as f64
    );
    let l = start.layout();
    for (side, w) in wins.iter().enumerate() {
        let seats: Vec<String> = (0..l.n_seats)
            .filter(|&s| l.side_of_seat[s as usize] == side as u8)
            .map(|s| {
                let colours: Vec<&str> = (0..l.n_colours)
                    .filter(|c| l.seat_colours[s as usize] & (1 << c) != 0)
                    .map(|c| l.colours[c as usize].name())
                    .collect();
                format!("seat {s} ({})", colours.join("+"))
            })
            .collect();
        println!(
            "wins {}: {} ({:.1}%)",
            seats.join(", "),
            w,
            100.0 * *w as f64 / a.games as f64
        );
    }
    Ok(())
}
