//! Skill ratings: one per player and rule set, by the Weng-Lin method (the one OpenSkill uses; the
//! `skillratings` crate computes it). Weng-Lin rates games of any number of sides, each of any size,
//! which Parchís needs: four players each for themselves, pairs, 1 v 1 with two colours, 3 v 3.
//!
//! A game is rated when it has no house rules and people sit on at least two sides: a rating says
//! how someone does against other people, at the rules as they are. Every side of a rated game takes
//! part; a seat a bot held from the start counts as a newcomer's skill that the game does not change.
//! The winning side ranks first and every other side shares second place (the game ends at the first
//! side home, so there is no order among the others). A person who left the game while it ran (a bot
//! played their seat on) ranks last, alone, whatever their seat's side did: leaving is never a way out
//! of a loss.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Rated games below which a rating is provisional (shown with a `?`, left off the rating leaderboard).
pub const PROVISIONAL_GAMES: i64 = 5;
/// Display points per unit of skill: a newcomer's 25 shows as 1500, the figure players know from chess.
const SCALE: f64 = 60.0;

/// A skill estimate and its uncertainty (Weng-Lin's μ and σ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

impl Skill {
    /// Everyone's skill before their first rated game (and a bot's, always).
    pub const NEW: Skill = Skill {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };

    /// The rating shown to players.
    pub fn points(self) -> i64 {
        points(self.mu)
    }
}

/// The rating shown for a skill estimate μ.
pub fn points(mu: f64) -> i64 {
    // Ratings are tens to a few thousand: the cast cannot overflow.
    (mu * SCALE).round() as i64
}

/// One seat of a finished game, as the rating sees it.
#[derive(Clone, Copy, Debug)]
pub struct RatedSeat {
    /// The seat's side (partners share one).
    pub side: u8,
    /// The person's skill before the game; `None` for a seat without a person (a bot's).
    pub skill: Option<Skill>,
    /// The person left the running game (a bot finished it for them): rated as last, on their own.
    pub left: bool,
}

/// Teams from here on are people who left, one each (sides are below 6).
const FIRST_LEAVER_TEAM: u32 = 1000;

impl RatedSeat {
    /// The team this seat is rated in: its side, or a team of its own for a person who left.
    fn team(&self, index: usize) -> u32 {
        if self.left {
            FIRST_LEAVER_TEAM + index as u32
        } else {
            u32::from(self.side)
        }
    }
}

/// A person a finished game counts for: in their record, and in their rating when the game is rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Their seat (turn order, from 0).
    pub seat: i64,
    /// Their player.
    pub player_id: String,
    /// They left the game while it ran (a bot finished their seat): a loss, whatever their side did.
    pub left: bool,
}

impl Counted {
    /// Whether the game is a win for them: their seat's side won, and they stayed to the end.
    pub fn won(&self, sides: &[u8], winner_side: u8) -> bool {
        let side = usize::try_from(self.seat).ok().and_then(|s| sides.get(s));
        !self.left && side == Some(&winner_side)
    }

    /// Their seat's index among the game's `seats` seats, if it is one.
    pub fn seat_index(&self, seats: usize) -> Option<usize> {
        usize::try_from(self.seat).ok().filter(|&s| s < seats)
    }
}

/// The people a finished game counts for: those `seated` at its end and those who left it while it ran
/// (`leavers`: their seats went to bots, so none of them is among the seated). In order of player id:
/// the order their rating rows are locked in, so that two games finishing at once lock their shared
/// players in the same order (no deadlock on PostgreSQL).
pub fn counted(seated: Vec<(i64, String)>, leavers: Vec<(i64, String)>) -> Vec<Counted> {
    let left_seats: Vec<i64> = leavers.iter().map(|(seat, _)| *seat).collect();
    let held: Vec<i64> = seated.iter().map(|(seat, _)| *seat).collect();
    let mut people: Vec<Counted> = seated
        .into_iter()
        .chain(leavers.into_iter().filter(|(seat, _)| !held.contains(seat)))
        .map(|(seat, player_id)| Counted {
            seat,
            player_id,
            left: left_seats.contains(&seat),
        })
        .collect();
    people.sort_by(|a, b| a.player_id.cmp(&b.player_id));
    people
}

/// The seats of a game whose seats are on `sides`, as the rating sees them before the people's stored
/// skills are read: a newcomer's skill where one of `people` sits (replaced by their own), none for a
/// bot's seat.
pub fn rated_seats(sides: &[u8], people: &[Counted]) -> Vec<RatedSeat> {
    let mut seats: Vec<RatedSeat> = sides
        .iter()
        .map(|&side| RatedSeat {
            side,
            skill: None,
            left: false,
        })
        .collect();
    for person in people {
        if let Some(s) = person.seat_index(sides.len()) {
            seats[s].skill = Some(Skill::NEW);
            seats[s].left = person.left;
        }
    }
    seats
}

/// How a rated game moved one person's skill estimate (μ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// Their seat.
    pub seat: i64,
    /// μ before the game.
    pub mu_before: f64,
    /// μ after it.
    pub mu_after: f64,
}

/// A rated game's `result.ratings`: each change in points, in seat order, `left` marking the seat of a
/// person who left (its name is a bot's by then, so the line says whose change it is).
pub fn result_lines(changes: &[RatingChange], people: &[Counted]) -> serde_json::Value {
    let mut changes = changes.to_vec();
    changes.sort_by_key(|c| c.seat);
    changes
        .iter()
        .map(|c| {
            let mut line = serde_json::json!({
                "seat": c.seat,
                "before": points(c.mu_before),
                "after": points(c.mu_after),
            });
            if people.iter().any(|p| p.seat == c.seat && p.left) {
                line["left"] = true.into();
            }
            line
        })
        .collect()
}

/// Whether a game between these seats is rated (house rules aside): people on at least two sides.
pub fn is_rated(seats: &[RatedSeat]) -> bool {
    let mut sides = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.skill.is_some())
        .map(|(i, s)| s.team(i));
    match sides.next() {
        Some(first) => sides.any(|s| s != first),
        None => false,
    }
}

/// The skills after a game won by `winner_side`, one per seat in the order given (`None` where the seat
/// had no person).
pub fn rate(seats: &[RatedSeat], winner_side: u8) -> Vec<Option<Skill>> {
    let mut teams: Vec<u32> = seats.iter().enumerate().map(|(i, s)| s.team(i)).collect();
    teams.sort_unstable();
    teams.dedup();
    let members: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|&team| {
            seats
                .iter()
                .enumerate()
                .filter(|(i, s)| s.team(*i) == team)
                .map(|(_, s)| {
                    let k = s.skill.unwrap_or(Skill::NEW);
                    WengLinRating {
                        rating: k.mu,
                        uncertainty: k.sigma,
                    }
                })
                .collect()
        })
        .collect();
    let outcome: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&members)
        .map(|(&team, members)| {
            let rank = if team >= FIRST_LEAVER_TEAM {
                3
            } else if team == u32::from(winner_side) {
                1
            } else {
                2
            };
            (members.as_slice(), MultiTeamOutcome::new(rank))
        })
        .collect();
    let after = weng_lin_multi_team(&outcome, &WengLinConfig::new());
    // Each seat's new rating sits in its team, at its place among that team's seats.
    let mut taken = vec![0usize; teams.len()];
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let t = teams.binary_search(&s.team(i)).unwrap_or_default();
            let r = after[t][taken[t]];
            taken[t] += 1;
            s.skill.map(|_| Skill {
                mu: r.rating,
                sigma: r.uncertainty,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(side: u8) -> RatedSeat {
        RatedSeat {
            side,
            skill: Some(Skill::NEW),
            left: false,
        }
    }

    fn bot(side: u8) -> RatedSeat {
        RatedSeat {
            side,
            skill: None,
            left: false,
        }
    }

    fn leaver(side: u8) -> RatedSeat {
        RatedSeat {
            left: true,
            ..person(side)
        }
    }

    #[test]
    fn a_newcomer_shows_1500() {
        assert_eq!(Skill::NEW.points(), 1500);
    }

    #[test]
    fn only_games_with_people_on_two_sides_are_rated() {
        assert!(is_rated(&[person(0), person(1)]));
        assert!(is_rated(&[person(0), bot(1), person(2), bot(3)]));
        assert!(!is_rated(&[person(0), bot(1)]), "one person against a bot");
        assert!(
            !is_rated(&[person(0), bot(1), person(0), bot(1)]),
            "partners against bots"
        );
        assert!(!is_rated(&[bot(0), bot(1)]));
    }

    #[test]
    fn the_winner_gains_what_the_losers_lose_and_everyone_grows_surer() {
        let after = rate(&[person(0), person(1), person(2), person(3)], 2);
        let points: Vec<i64> = after.iter().map(|s| s.unwrap().points()).collect();
        assert!(points[2] > 1500, "the winner gains: {points:?}");
        for i in [0, 1, 3] {
            assert!(points[i] < 1500, "a loser loses: {points:?}");
            assert_eq!(points[i], points[0], "the losers share second place");
        }
        assert!(after.iter().all(|s| s.unwrap().sigma < Skill::NEW.sigma));
    }

    #[test]
    fn beating_a_stronger_player_gains_more_than_beating_a_weaker_one() {
        let strong = Skill {
            mu: 30.0,
            sigma: 4.0,
        };
        let weak = Skill {
            mu: 20.0,
            sigma: 4.0,
        };
        let me = Skill {
            mu: 25.0,
            sigma: 4.0,
        };
        let gain = |other: Skill| {
            let seats = [
                RatedSeat {
                    skill: Some(me),
                    ..person(0)
                },
                RatedSeat {
                    skill: Some(other),
                    ..person(1)
                },
            ];
            rate(&seats, 0)[0].unwrap().mu - me.mu
        };
        assert!(gain(strong) > gain(weak));
    }

    #[test]
    fn a_bot_seat_gets_no_rating_and_partners_move_together() {
        let seats = [person(0), person(1), bot(0), person(1)];
        let after = rate(&seats, 1);
        assert!(after[2].is_none(), "the bot has no rating");
        let (a, b, d) = (after[0].unwrap(), after[1].unwrap(), after[3].unwrap());
        assert!(a.mu < 25.0);
        assert!(b.mu > 25.0 && d.mu > 25.0);
        assert_eq!(b, d, "partners of equal skill move alike");
    }

    #[test]
    fn a_person_who_left_the_game_loses_even_when_their_seat_wins_it() {
        // Seat 1's person left; the bot that took the seat over won the game.
        let after = rate(&[person(0), leaver(1)], 1);
        let (stayed, left) = (after[0].unwrap().points(), after[1].unwrap().points());
        assert!(left < 1500, "the leaver loses: {left}");
        assert!(
            stayed > 1500,
            "the one who stayed ranks above them: {stayed}"
        );
        assert!(is_rated(&[person(0), leaver(1)]));
        // A leaver's partner keeps their side's result; the leaver ranks below everyone.
        let after = rate(&[person(0), person(1), leaver(0), person(1)], 0);
        let points: Vec<i64> = after.iter().map(|s| s.unwrap().points()).collect();
        assert!(points[0] > 1500 && points[2] < points[1], "{points:?}");
    }
}
