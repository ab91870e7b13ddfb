//! `GET /api/rules`: the rule sets, modes and house rules the server plays, as the referee defines them,
//! so that a client builds its forms from them instead of knowing the rules itself.

use std::collections::BTreeMap;

use axum::Json;
use parchis_rules::board::LANE_LEN;
use parchis_rules::mode::slot_colours;
use parchis_rules::{BoardKind, Colour, Game, Mode, OptionValues, Options, RuleSet};

use crate::model::{
    BoardInfo, HouseRuleInfo, HouseRuleValues, ModeInfo, RuleSetInfo, RulesCatalogue,
};

/// What rooms can be made of: rule sets, their modes and player counts, and the house rules.
#[utoipa::path(get, path = "/api/rules", tag = "rooms",
    responses((status = 200, description = "Rule sets, modes, options and house rules", body = RulesCatalogue)))]
pub async fn rules() -> Json<RulesCatalogue> {
    Json(catalogue())
}

/// The catalogue, read off the rules crate.
pub fn catalogue() -> RulesCatalogue {
    let rule_sets = RuleSet::ALL
        .into_iter()
        .map(|rules| RuleSetInfo {
            name: rules.name(),
            modes: Mode::ALL
                .into_iter()
                .map(|mode| mode_info(rules, mode))
                .filter(|m| !m.players.is_empty())
                .collect(),
        })
        .collect();
    let house_rules = Options::house_rules()
        .filter_map(|name| {
            let values = match Options::values(name)? {
                OptionValues::Flag => HouseRuleValues::Flag,
                OptionValues::OneOf(texts) => HouseRuleValues::OneOf {
                    texts: texts.to_vec(),
                },
                OptionValues::Number { min, max } => HouseRuleValues::Number { min, max },
            };
            Some(HouseRuleInfo { name, values })
        })
        .collect();
    RulesCatalogue {
        rule_sets,
        house_rules,
        boards: [BoardKind::Four, BoardKind::Six].map(board_info).to_vec(),
    }
}

fn board_info(board: BoardKind) -> BoardInfo {
    let squares = board.circuit_len();
    BoardInfo {
        name: board,
        squares,
        lane: LANE_LEN,
        safe_squares: (1..=squares)
            .filter(|&s| BoardKind::is_safe_square(s))
            .collect(),
        exit_squares: (0..board.slots()).map(|k| board.exit_square(k)).collect(),
        colours: Colour::ALL[..usize::from(board.slots())].to_vec(),
    }
}

fn mode_info(rules: RuleSet, mode: Mode) -> ModeInfo {
    let options = rules.options_for(mode);
    ModeInfo {
        name: mode.name(),
        // Only the counts the referee sets up.
        players: mode
            .players()
            .filter(|&p| Game::new(rules, mode, p).is_ok())
            .collect(),
        default_players: mode.default_players(),
        options: Options::NAMES
            .into_iter()
            .filter_map(|name| Some((name, options.get(name)?)))
            .collect::<BTreeMap<_, _>>(),
        draw_seats: crate::settings::draws_seats_by_default(rules, mode),
        board: mode.board(),
        slot_colours: slot_colours(rules, mode.board()).to_vec(),
        house_rules: Options::house_rules_in(mode).collect(),
    }
}
