//! Times one short game per preset × mode with a small-budget expert in every seat.
use parchis_bots::{Bot, ExpertBot, play_game_with};
use parchis_rules::{Game, Mode, RuleSet};
fn main() {
    for rules in RuleSet::ALL {
        for mode in Mode::ALL {
            for players in mode.players() {
                for rot in 0..3u8 {
                    let t = std::time::Instant::now();
                    let bots: Vec<Box<dyn Bot>> = (0..players)
                        .map(|s| match (s + rot) % 3 {
                            0 => Box::new(parchis_bots::RandomBot::new(s as u64)) as Box<dyn Bot>,
                            1 => Box::new(parchis_bots::GreedyBot::new()),
                            _ => Box::new(ExpertBot::with_budget(s as u64, 300)),
                        })
                        .collect();
                    println!("start {rules} {mode} {players} {rot}");
                    let rec = play_game_with(
                        Game::new(rules, mode, players).unwrap(),
                        bots,
                        u64::from(players) * 31 + u64::from(rot),
                        600,
                    );
                    println!(
                        "{rules} {mode} {players}: {} actions {:?}",
                        rec.actions.len(),
                        t.elapsed()
                    );
                }
            }
        }
    }
}
