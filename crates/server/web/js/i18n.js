// Spanish, French, English and Arabic texts. The language comes from localStorage, else navigator.language.
// Arabic is written right to left: the page gets dir="rtl", and what is put into its texts (names, moves,
// codes) is isolated so that it keeps its own direction.

const S = {
  en: {
    quick_match: 'Quick match', quick_match_hint: 'Play online with other people, with these rules, mode and players.',
    looking_for_players: 'Looking for players… {n}/{total}', qm_seat_open: 'waiting for a player',
    qm_auto_start: 'The game starts by itself when every seat is taken.', qm_start_early: 'You can also start now: bots take the empty seats.',
    title: 'Parchís', tagline: 'Online Parchís — Playgridia, Ludoteka and Morocco rules',
    language: 'Language', your_name: 'Your name', save_name: 'Save', change_name: 'Change name',
    username: 'Username', password: 'Password', account_make: 'Play on your other devices too', account_hint: 'Choose a username and a password: signing in with them on a phone or another computer brings your name and your games there.', account_create: 'Create account', sign_in_have: 'Already have an account? Sign in', sign_in_replaces: 'Signing in here replaces this guest player on this device.', sign_in: 'Sign in', signed_in_as: 'Signed in as {name}', sign_out: 'Sign out', change_password: 'Change password', current_password: 'Current password', new_password: 'New password', password_changed: 'Password changed. Your other devices are signed out.', sign_out_others: 'Sign out of other devices', sign_out_others_hint: 'Lost a phone, or signed in on a shared computer? Every other device signed in to this account stops playing at once and needs your password to come back. This device stays signed in, and your password does not change.', sign_out_others_confirm: 'Sign the other devices out', others_signed_out_none: 'No other device was signed in.', others_signed_out_one: '1 other device was signed out.', others_signed_out: '{n} other devices were signed out.', devices: 'Your devices', devices_hint: 'Where this account is signed in, most recently used first. Sign out a device you lost or no longer use: it stops playing at once and needs your password to come back.', devices_idle: 'A device nobody uses for {n} days is signed out by itself.', device_this: 'this device', device_times: 'Signed in {signed_in} · last used {last_used}', device_sign_out: 'Sign out', device_sign_out_named: 'Sign out {device}', device_signed_out: '{device} was signed out.', device_unknown: 'Unknown device', device_on: '{browser} on {system}', erase_me: 'Delete my data', erase_me_hint: 'Erases your name, your account and what you wrote in chats, on every device and for good. Your games stay, played by “Deleted player”.', erase_me_confirm: 'Delete for good', erase_me_password: 'Your password, to confirm', export_me: 'Download my data', export_me_hint: 'Everything this server keeps about you (your name, account, rooms, games, ratings, chat messages and reports) as one JSON file.', leaderboard: 'Leaderboard', leaders_period: 'Most wins in the last 30 days, in games with at least two people and no house rules (players with an account).', leaders_none: 'No games counted yet: make an account and play people to appear here.', wins_games: '{wins} of {games} won',
    hello: 'Hello, {name}', create_room: 'Create a room', rules: 'Rules', mode: 'Mode', players: 'Players',
    bots: 'Other seats', seat_n: 'Seat {n}', human: 'Human', human_or_bot: 'Human (a bot if still empty)', bot_random: 'Bot (easy)', bot_greedy: 'Bot (medium)', bot_expert: 'Bot (hard)', seat_local: 'Someone here (on this device)', local_name_of: 'Name of the person at this device in seat {n}', local_name_required: 'Give a name to the person at this device in seat {n}.',
    bots_fast: 'fast bots', bot_pace: 'Bots play', bot_pace_normal: 'At a pace you can follow', bot_pace_fast: 'Fast', turn_timer: 'Turn timer', no_limit: 'No limit', seconds: '{n} s', preview: 'Show my next roll in advance',
    public_room: 'Public room (listed on the home page)', draw_seats: 'Draw the seats at random when the game starts (who starts, colours, partners)', seats_drawn: 'seats drawn at random at the start', create: 'Create', public_rooms: 'Public rooms waiting', no_rooms: 'No public room is waiting. Create one!',
    live_games: 'Games being played', no_live_games: 'No public game is being played right now.',
    refresh: 'Refresh', join: 'Join', watch: 'Watch', join_by_code: 'Join with a code or link', code: 'Code', go: 'Go',
    waiting_room: 'Waiting room', share_link: 'Share this link', copy: 'Copy', copied: 'Copied!', copy_by_hand: 'Selected: copy it by hand', room_code: 'Room code',
    seat: 'Seat', empty_seat: 'empty', bot_fills: 'a bot will play ({level})', owner: 'owner', you: 'you',
    preferred_colour: 'Preferred colour', any_colour: 'Any', take_seat: 'Take a seat', leave_seat: 'Leave seat', leave_game: 'Leave the game', leave_game_hint: 'A bot plays your seat to the end (and the seats played at your device), and the game counts as a loss for you.', leave_game_confirm: 'Leave now', left_player: 'Player who left',
    add_local: 'Someone here plays too:', their_name: 'Their name', add: 'Add', remove: 'Remove', remove_local: 'Remove {name} from the table', on_this_device: 'on this device', at_device_of: 'at {name}’s device', local_turn: '{name}’s turn, on this device', local_hint: 'They play their turns on this screen; such games are not rated.',
    add_bot: 'Add a bot', bot_level_of: 'Bot level for seat {n}', remove_bot: 'Remove bot', remove_bot_of: 'Remove bot, seat {n}', add_bot_of: 'Add a bot, seat {n}', remove_player: 'Remove player', remove_player_of: 'Remove player {name}', remove_player_confirm: 'Remove {name} from this room? They cannot join it again.', removed_by_owner: 'The owner removed you from this room. You can still watch, but not take a seat here again.',
    start_game: 'Start the game', start_hint: 'Empty seats are filled by bots.', wait_owner: 'Waiting for the owner to start…',
    connected: 'connected', away: 'away', bot: 'bot', spectators: '{n} watching', spectator_mode: 'You are watching',
    roll: 'Roll the die', auto_roll: 'Auto-roll', your_turn: 'Your turn', turn_of: "{name}'s turn", moves_to_play: 'Moves',
    count_to_play: 'Count {n}: move a piece {n} squares', count_of: '{name} counts {n}', pick_move: 'Choose a move', no_moves: 'No move to play',
    next_roll: 'Your next roll: {n}', sixes_in_a_row: 'Sixes in a row: {n}', log: 'Game log', timer: 'Time left',
    reconnecting: 'Connection lost — reconnecting…', reconnected: 'Reconnected', offline_protocol: 'Live play is not available on this server yet.',
    expert_view: 'Expert’s view', ask_expert: 'What would the expert play here?', expert_thinking: 'The expert is thinking…', expert_played: 'Played: {move}', expert_would: 'The expert would play: {move}', expert_agrees: 'The expert plays the same move.', expert_only_move: 'It was the only legal move.', expert_choices: '{n} legal moves', expert_pick_move: 'Go to a move (not a roll) to compare it with the expert’s.',
    report_message: 'Report this message to the host', report_message_by: 'Report {name}’s message to the host', report_confirm: 'Report this message by {name} to the host as offensive?\n\n“{text}”', reported: 'Reported', reported_thanks: 'Reported to the host. Thank you.',
    admin_title: 'Moderation', admin_hint: 'The chat messages players reported to the host of this server.', admin_token: 'Admin token', admin_token_hint: 'The server’s ADMIN_TOKEN. It is kept in this tab only, until you close it.', admin_open: 'Open', admin_forget: 'Forget the token', admin_reports: 'Reported messages', admin_none: 'No reported messages.', admin_wrong_token: 'That is not this server’s admin token.', admin_off: 'This server has no admin token: moderation is off (see ADMIN_TOKEN in the README).', admin_dismiss: 'Dismiss', admin_dismiss_by: 'Dismiss the reports of {name}’s message', admin_erase: 'Erase the writer', admin_erase_by: 'Erase the writer: {name}', admin_erase_confirm: 'Erase {name} for good? Their name becomes “Deleted player”, everything they wrote in chats is emptied and they are signed out on every device.', admin_report_count: 'Reports: {n}', admin_reasons: 'Reasons:', admin_no_reason: 'No reason given.', admin_last_reported: 'Last report: {when}', admin_room: 'Room {id}',
    game_over: 'Game over', winner: 'Winner: {names}', winners: 'Winners: {names}', you_won: 'You won!', you_lost: 'You lost.', local_won: '{names} won, on this device!', local_won_one: '{names} won, on this device!', replay: 'Replay', rematch: 'Rematch', back_home: 'Home', figures_h: 'How each player did', col_player: 'Player', col_home: 'At the goal', col_captures: 'Captures', col_captured: 'Lost', col_sixes: 'Sixes',
    sound: 'Sound', how_to_play: 'How to play', howto_of: 'How to play: {name}', signed_out_idle: 'You were signed out on this device because it was not used for a long time: sign in again with your username and password.', signed_out_here: 'You were signed out on this device (signed out here or from another of your devices, a new password, or your data deleted).', signed_out: 'This server no longer knows you (its data was reset): choose a name again.', play_now: 'Play now against bots', mute_name: 'Mute {name}', muted: 'Muted', unmute: 'Unmute', my_games: 'Your games', my_stats: 'Your record', recent_games: 'Latest games', vs_bots: 'against bots', with_people: '{n} people', stats_none: 'No finished game yet.', player_unknown: 'No player has that username.', stats_line: 'games: {games} · won: {wins} ({pct} %)', stats_people: 'against people: {wins} of {games} won', record_figures: 'captures: {captures} · pieces lost: {captured} · sixes: {sixes} · at the goal: {home} (games counted: {games})', record_figures_hint: 'Added up over the finished games that kept their figures (games finished before the server counted them, and games left while they ran, have none).', resume: 'Resume', open: 'Open', won: 'won', lost: 'lost', chat: 'Chat', chat_placeholder: 'Write to the table…', send: 'Send', reaction: { thumbs_up: 'Thumbs up', applause: 'Applause', laughing: 'Laughing', surprised: 'Surprised', angry: 'Angry', good_luck: 'Good luck' }, chat_none: 'No messages yet.', chat_spectator: 'Only the players write here; you can read.', chat_too_fast: 'Slow down: at most 5 messages every 10 seconds.', chat_too_long: 'At most 200 characters.',
    dice_proof: 'Dice fairness', seed_hash: 'Seed hash (published at start)', seed: 'Seed (revealed at the end)', verified: 'verified: SHA-256(seed) = hash',
    not_verified: 'NOT verified: hash mismatch', seed_hidden: 'hidden until the game ends', first: 'First', prev: 'Previous', next: 'Next', last: 'Last', play: 'Play', pause: 'Pause',
    step: 'Step {i} / {n}', replay_seek: 'Go to a step of the game', replay_line_hint: 'Tap a line to see the board at that step.', preselect: 'pre-select for your next move', preselected: 'Pre-selected: {piece}',
    board_four: 'Four-colour Parchís board', board_six: 'Six-colour Parchís board',
    home: 'home', square: 'square {n}', lane: 'lane {n}', goal: 'goal', blockade: 'blockade', captures: 'captures',
    ev_rolled: '{who} rolled {die}', ev_no_move: '{who} rolled {die}: no legal move', ev_moved: '{who}: {piece} {from} → {to}',
    ev_count: '{who} counts {n}: {piece} {from} → {to}', ev_captured: '{by} captures {piece} on {at}! It goes home',
    ev_goal: '{piece} reaches the goal', ev_blockade: 'Blockade on {at}', ev_blockade_open: 'Blockade opened on {at}',
    ev_bonus: '{who} earns a count of {n}', ev_bonus_lost: '{who} loses the count of {n}', ev_reroll_lost: '{who} loses the extra roll',
    ev_three_sixes: 'Three sixes for {who}!', ev_three_sixes_home: 'Three sixes for {who}: {piece} goes home from {at}',
    ev_extra: '{who} rolls again', ev_turn: "{who}'s turn", ev_won: '{names} win the game!', ev_won_one: '{names} wins the game!', and: 'and',
    list_sep: ', ', path: '{from} → {to}', bot_n: 'Bot {n}', skip_to_content: 'Skip to content', n_players: '{n} players', log_entry: 'log {n}',
    leaders_by: 'Rank by', leaders_by_wins: 'Most wins', leaders_by_rating: 'Rating', leaders_period_rating: 'Best rating in these rules in the last 30 days, among players with an account, at least 5 rated games and a rated game in the period.', leaders_none_rating: 'Nobody has 5 rated games and a rated game in this period yet.',
    rating_value: 'rating {value}', rating_provisional: 'provisional: fewer than 5 rated games', rating_games: '{n} rated games', rating_change: 'rating {change}', ratings_after_game: 'Ratings', game_result: 'Result',
    rating_history: 'Rating history', rating_history_rules: 'Rules', rating_history_none: 'No rated games of these rules yet.', rating_history_summary: '{rules}: from {first} to {last} over {n} rated games', rating_history_point: '{date}: {before} → {after} ({change})', rating_history_points: 'Rated games, oldest first', rating_history_loading: 'Loading the rating history…',
    modes: { individual: 'Individual', quick: 'Quick', pairs: 'Pairs (2 v 2)', '1v1': '1 v 1 (two colours each)', '6-piece': '6 pieces', '3v3': '3 v 3 (six colours)' },
    rulesets: { playgridia: 'Playgridia', ludoteka: 'Ludoteka', morocco: 'Morocco' },
    colours: { yellow: 'Yellow', blue: 'Blue', red: 'Red', green: 'Green', orange: 'Orange', turquoise: 'Turquoise' },
    status: { waiting: 'waiting', playing: 'playing', finished: 'finished' },
    error: 'Error: {msg}', private_room_closed: 'This room is private: open it with the link or the code its players share.', room_not_found: 'Room not found.', name_required: 'Choose a name first.', loading: 'Loading…',
    side: 'Team {n}', seats_free: '{n} free', game: 'Game', close: 'Close', move_log: 'Moves', rolls_checked: '{n} rolls match the seed',
    house_rules: 'House rules', house_hint: 'Change the rules of play for this room. Games with house rules do not count on the leaderboard.',
    house_changed: '{n} changed', house_team_only: 'Only with partners or two colours each (pairs, 1 v 1, 6 pieces, 3 v 3), so not in this mode: {names}.', house_reset: 'Back to the rule set’s rules', house_yes: 'yes', house_no: 'no', label_value: '{label}: {value}',
    house_bad_number: '{name}: choose a whole number from {min} to {max}.', house_not_ranked: 'Played with house rules: not counted on the leaderboard',
    house_qm: 'Quick matches play the standard rules: your house rules are for a room you create.',
    house: {
      exit_mandatory: 'A 5 must bring a piece out', six: 'A 6 moves', three_sixes: 'Three sixes', penalty_spares_safe_and_blockade: 'Three sixes spare safe squares and blockades',
      capture_bonus: 'Count for a capture', goal_bonus: 'Count for reaching the goal', exit_capture: 'Coming out onto your exit', must_open_blockade_on_six: 'A 6 must open a blockade',
      morocco_priorities: 'Mandatory captures (Morocco priorities)', allied_blockade_on_safe: 'Allies block on safe squares', mixed_pairs_only_on_safe: 'Two colours share only safe squares',
      lane_blockades: 'Blockades in the home lanes', capture_allies: 'Allies can capture each other', partner_moves: 'Moving a partner’s pieces', first_roll: 'Morocco’s first roll',
    },
    errors: {
      network: 'The server cannot be reached: check your connection.', internal_error: 'Something went wrong on the server; nothing was changed.', internal: 'Something went wrong on the server; nothing was changed.',
      service_unavailable: 'The server is not answering right now; try again shortly.', storage_unavailable: 'The server cannot reach its database just now; nothing was changed. Try again in a moment.', storage: { maybe_stored: 'The server lost its database while saving that, so it may or may not have been saved. Try again in a moment.' }, room_busy: 'The room is busy; try again shortly.', analysis_busy: 'The server is busy analysing other games; try again shortly.',
      rate_limited: 'Too many requests from here; try again in a little while.', too_many_attempts: 'Too many wrong passwords for this username; try again later.',
      username_taken: 'That username is taken; choose another.', account_exists: 'You already have an account: sign in with it on your other devices.', wrong_credentials: 'Unknown username or wrong password.', password_required: 'Type your password to delete this account.', wrong_password: 'That is not your password.', no_account: 'Create an account before signing out, or this player could never be used again.', device_not_found: 'That device is not signed in any more.',
      room_not_found: 'No room has that link or code.', game_not_found: 'No game has that link.', account_not_found: 'No player has that username.', game_not_finished: 'The game is still being played: its replay opens once it is over.',
      not_room_owner: 'Only the room owner can do that.', wrong_join_code: 'This room is private: its code is needed to join.', room_full: 'Every seat in this room is taken.', seat_taken: 'That seat is taken.', room_not_waiting: 'The room is no longer waiting for players.', colour_taken: 'Another player here already asked for that colour.',
      seat_not_found: 'This room has no such seat.', seat_has_person: 'A person sits in that seat.', no_person_at_seat: 'Nobody sits in that seat.', cannot_remove_self: 'You cannot remove yourself: leave your seat instead.', removed_from_room: 'The owner removed you from this room: you cannot take a seat in it again.',
      not_seated: 'You are not seated in this room.', not_started: 'The game has not started yet.', game_over: 'The game is over.', not_your_turn: 'It is not your turn.', must_roll: 'Roll the die first.', must_move: 'Move first: the die is rolled.', illegal_move: 'That move is not allowed.', stale_version: 'The game moved on meanwhile: look at the board again.',
      chat_empty: 'The message is empty.', chat_too_long: 'The message is too long (200 characters at most).', chat_too_fast: 'Too many messages at once: wait a few seconds.', message_not_found: 'That message is no longer there.', own_message: 'You cannot report your own message.',
      invalid_display_name: 'A display name has 1 to 32 characters, with no control characters.', invalid_username: 'A username has 3 to 24 characters: Latin letters, digits, _, - or . (no spaces).', weak_password: 'A password has 8 to 128 characters.',
      settings: { players: 'A room needs 2 to 6 players.', too_many_bots: 'There are more bots than seats.', no_human_seat: 'Leave at least one seat for a person.', turn_time: 'The turn timer must be between 5 seconds and an hour, or off.', bad_player_count: 'This mode is not played by that many players.', too_many_pieces: 'There are too many pieces for this board.', bad_pieces_to_win: 'The pieces needed to win must be between 1 and the pieces of a colour.', bad_option: 'These rules cannot be played together.' },
      illegal: { no_such_piece: 'There is no such piece in this game.', not_your_piece: 'That piece is not yours to move.', wrong_destination: 'That piece cannot reach that square with this roll.', piece_finished: 'That piece has already arrived.', piece_in_base: 'A piece at home needs a 5 to come out.', must_bring_piece_out: 'With a 5 and a piece at home, bringing it out is the only legal move.', must_open_blockade: 'With a six, a piece of your blockade must move.', must_capture: 'A capture is possible, and capturing is mandatory.', blocked: 'A blockade is in the way, the square is full, or the piece would go past the goal.' },
    },
    house_values: {
      six: { 6: '6', '7player': '7 when your home is empty', '7colour': '7 when its home is empty', 12: '12 with all four in play' },
      three_sixes: { off: 'no penalty', last: 'last piece moved goes home', second: 'second six’s piece goes home' },
      exit_capture: { never: 'never captures', full: 'captures when the exit is full', all: 'captures every opponent there' },
      partner_moves: { never: 'never', finished: 'once yours are all home', stuck: 'when you cannot move' },
    },
  },
  es: {
    quick_match: 'Buscar partida', quick_match_hint: 'Juega en línea con otras personas, con estas reglas, modalidad y jugadores.',
    looking_for_players: 'Buscando jugadores… {n}/{total}', qm_seat_open: 'esperando a un jugador',
    qm_auto_start: 'La partida empieza sola cuando todos los asientos están ocupados.', qm_start_early: 'También puedes empezar ya: los bots ocupan los asientos libres.',
    title: 'Parchís', tagline: 'Parchís en línea — reglas Playgridia, Ludoteka y Marruecos',
    language: 'Idioma', your_name: 'Tu nombre', save_name: 'Guardar', change_name: 'Cambiar nombre',
    username: 'Usuario', password: 'Contraseña', account_make: 'Juega también en tus otros dispositivos', account_hint: 'Elige un usuario y una contraseña: al entrar con ellos en un móvil u otro ordenador tendrás allí tu nombre y tus partidas.', account_create: 'Crear cuenta', sign_in_have: '¿Ya tienes cuenta? Entra', sign_in_replaces: 'Entrar aquí sustituye a este jugador invitado en este dispositivo.', sign_in: 'Entrar', signed_in_as: 'Has entrado como {name}', sign_out: 'Salir', change_password: 'Cambiar contraseña', current_password: 'Contraseña actual', new_password: 'Contraseña nueva', password_changed: 'Contraseña cambiada. Tus otros dispositivos han salido de la cuenta.', sign_out_others: 'Salir en los otros dispositivos', sign_out_others_hint: '¿Perdiste el móvil o entraste en un ordenador compartido? Todos los demás dispositivos con esta cuenta dejan de jugar al momento y necesitarán tu contraseña para volver. Este dispositivo sigue dentro y tu contraseña no cambia.', sign_out_others_confirm: 'Sacar a los otros dispositivos', others_signed_out_none: 'Ningún otro dispositivo estaba dentro de la cuenta.', others_signed_out_one: '1 dispositivo más ha salido de la cuenta.', others_signed_out: '{n} dispositivos más han salido de la cuenta.', devices: 'Tus dispositivos', devices_hint: 'Dónde está abierta esta cuenta, del uso más reciente al más antiguo. Saca un dispositivo que perdiste o que ya no usas: deja de jugar al momento y necesitará tu contraseña para volver.', devices_idle: 'Un dispositivo que nadie usa durante {n} días sale de la cuenta solo.', device_this: 'este dispositivo', device_times: 'Entró el {signed_in} · último uso el {last_used}', device_sign_out: 'Sacar', device_sign_out_named: 'Sacar de la cuenta {device}', device_signed_out: '{device} ha salido de la cuenta.', device_unknown: 'Dispositivo desconocido', device_on: '{browser} en {system}', erase_me: 'Borrar mis datos', erase_me_hint: 'Borra tu nombre, tu cuenta y lo que escribiste en los chats, en todos tus dispositivos y para siempre. Tus partidas quedan, jugadas por «Deleted player».', erase_me_confirm: 'Borrar para siempre', erase_me_password: 'Tu contraseña, para confirmar', export_me: 'Descargar mis datos', export_me_hint: 'Todo lo que este servidor guarda sobre ti (tu nombre, cuenta, salas, partidas, puntuaciones, mensajes de chat y denuncias) en un archivo JSON.', leaderboard: 'Clasificación', leaders_period: 'Más victorias de los últimos 30 días, en partidas con al menos dos personas y sin normas de la casa (jugadores con cuenta).', leaders_none: 'Aún no hay partidas: crea una cuenta y juega contra personas para aparecer aquí.', wins_games: '{wins} de {games} ganadas',
    hello: 'Hola, {name}', create_room: 'Crear una sala', rules: 'Reglas', mode: 'Modalidad', players: 'Jugadores',
    bots: 'Otros asientos', seat_n: 'Asiento {n}', human: 'Humano', human_or_bot: 'Humano (bot si queda libre)', bot_random: 'Bot (fácil)', bot_greedy: 'Bot (medio)', bot_expert: 'Bot (difícil)', seat_local: 'Alguien aquí (en este dispositivo)', local_name_of: 'Nombre de quien juega en este dispositivo en el asiento {n}', local_name_required: 'Escribe el nombre de quien juega en este dispositivo en el asiento {n}.',
    bots_fast: 'bots rápidos', bot_pace: 'Los bots juegan', bot_pace_normal: 'A un ritmo que se sigue', bot_pace_fast: 'Rápido', turn_timer: 'Tiempo por turno', no_limit: 'Sin límite', seconds: '{n} s', preview: 'Ver mi próxima tirada por adelantado',
    public_room: 'Sala pública (aparece en la lista)', draw_seats: 'Sortear los asientos al empezar la partida (quién empieza, colores, parejas)', seats_drawn: 'asientos sorteados al empezar', create: 'Crear', public_rooms: 'Salas públicas en espera', no_rooms: 'No hay salas públicas en espera. ¡Crea una!',
    live_games: 'Partidas en juego', no_live_games: 'Ahora no se juega ninguna partida pública.',
    refresh: 'Actualizar', join: 'Unirse', watch: 'Mirar', join_by_code: 'Unirse con un código o enlace', code: 'Código', go: 'Ir',
    waiting_room: 'Sala de espera', share_link: 'Comparte este enlace', copy: 'Copiar', copied: '¡Copiado!', copy_by_hand: 'Seleccionado: cópialo a mano', room_code: 'Código de sala',
    seat: 'Asiento', empty_seat: 'libre', bot_fills: 'jugará un bot ({level})', owner: 'anfitrión', you: 'tú',
    preferred_colour: 'Color preferido', any_colour: 'Cualquiera', take_seat: 'Sentarse', leave_seat: 'Dejar el asiento', leave_game: 'Abandonar la partida', leave_game_hint: 'Un bot juega tu asiento hasta el final (y los que se juegan en tu dispositivo), y la partida cuenta como derrota para ti.', leave_game_confirm: 'Abandonar ya', left_player: 'Jugador que abandonó',
    add_local: 'Alguien más juega aquí:', their_name: 'Su nombre', add: 'Añadir', remove: 'Quitar', remove_local: 'Quitar a {name} de la mesa', on_this_device: 'en este dispositivo', at_device_of: 'en el dispositivo de {name}', local_turn: 'Turno de {name}, en este dispositivo', local_hint: 'Juega sus turnos en esta pantalla; estas partidas no puntúan.',
    add_bot: 'Añadir un bot', bot_level_of: 'Nivel del bot del asiento {n}', remove_bot: 'Quitar el bot', remove_bot_of: 'Quitar el bot, asiento {n}', add_bot_of: 'Añadir un bot, asiento {n}', remove_player: 'Quitar jugador', remove_player_of: 'Quitar jugador {name}', remove_player_confirm: '¿Quitar a {name} de esta sala? No podrá volver a entrar.', removed_by_owner: 'Quien creó la sala te ha quitado de ella. Puedes seguir mirando, pero no volver a sentarte aquí.',
    start_game: 'Empezar la partida', start_hint: 'Los asientos libres los ocupan bots.', wait_owner: 'Esperando a que el anfitrión empiece…',
    connected: 'conectado', away: 'ausente', bot: 'bot', spectators: '{n} mirando', spectator_mode: 'Estás mirando',
    roll: 'Tirar el dado', auto_roll: 'Tirada automática', your_turn: 'Tu turno', turn_of: 'Turno de {name}', moves_to_play: 'Jugadas',
    count_to_play: 'Cuenta {n}: mueve una ficha {n} casillas', count_of: '{name} cuenta {n}', pick_move: 'Elige una jugada', no_moves: 'Ninguna jugada posible',
    next_roll: 'Tu próxima tirada: {n}', sixes_in_a_row: 'Seises seguidos: {n}', log: 'Historial', timer: 'Tiempo restante',
    reconnecting: 'Conexión perdida — reconectando…', reconnected: 'Reconectado', offline_protocol: 'El juego en directo aún no está disponible en este servidor.',
    expert_view: 'La opinión del experto', ask_expert: '¿Qué jugaría aquí el experto?', expert_thinking: 'El experto está pensando…', expert_played: 'Jugada: {move}', expert_would: 'El experto jugaría: {move}', expert_agrees: 'El experto hace la misma jugada.', expert_only_move: 'Era la única jugada legal.', expert_choices: '{n} jugadas legales', expert_pick_move: 'Ve a una jugada (no a una tirada) para compararla con la del experto.',
    report_message: 'Denunciar este mensaje al administrador', report_message_by: 'Denunciar el mensaje de {name} al administrador', report_confirm: '¿Denunciar este mensaje de {name} al administrador por ofensivo?\n\n«{text}»', reported: 'Denunciado', reported_thanks: 'Denunciado al administrador. Gracias.',
    admin_title: 'Moderación', admin_hint: 'Los mensajes del chat que los jugadores denunciaron al administrador de este servidor.', admin_token: 'Token de administrador', admin_token_hint: 'El ADMIN_TOKEN del servidor. Se guarda solo en esta pestaña, hasta que la cierres.', admin_open: 'Abrir', admin_forget: 'Olvidar el token', admin_reports: 'Mensajes denunciados', admin_none: 'No hay mensajes denunciados.', admin_wrong_token: 'Ese no es el token de administrador de este servidor.', admin_off: 'Este servidor no tiene token de administrador: la moderación está desactivada (ver ADMIN_TOKEN en el README).', admin_dismiss: 'Descartar', admin_dismiss_by: 'Descartar las denuncias del mensaje de {name}', admin_erase: 'Borrar al autor', admin_erase_by: 'Borrar al autor: {name}', admin_erase_confirm: '¿Borrar a {name} para siempre? Su nombre pasa a ser «Deleted player», todo lo que escribió en los chats se vacía y se cierra su sesión en todos sus dispositivos.', admin_report_count: 'Denuncias: {n}', admin_reasons: 'Motivos:', admin_no_reason: 'Sin motivo.', admin_last_reported: 'Última denuncia: {when}', admin_room: 'Sala {id}',
    game_over: 'Fin de la partida', winner: 'Gana: {names}', winners: 'Ganan: {names}', you_won: '¡Has ganado!', you_lost: 'Has perdido.', local_won: '¡{names} han ganado, en este dispositivo!', local_won_one: '¡{names} ha ganado, en este dispositivo!', replay: 'Repetición', rematch: 'Revancha', back_home: 'Inicio', figures_h: 'Cómo le fue a cada uno', col_player: 'Jugador', col_home: 'En la meta', col_captures: 'Se comió', col_captured: 'Le comieron', col_sixes: 'Seises',
    sound: 'Sonido', how_to_play: 'Cómo se juega', howto_of: 'Cómo se juega: {name}', signed_out_idle: 'Se cerró tu sesión en este dispositivo porque llevaba mucho tiempo sin usarse: entra otra vez con tu usuario y tu contraseña.', signed_out_here: 'Se cerró tu sesión en este dispositivo (salida aquí o desde otro de tus dispositivos, contraseña nueva o datos borrados).', signed_out: 'Este servidor ya no te conoce (sus datos se borraron): elige otra vez un nombre.', play_now: 'Jugar ya contra bots', mute_name: 'Silenciar a {name}', muted: 'Silenciados', unmute: 'Quitar silencio', my_games: 'Tus partidas', my_stats: 'Tu historial', recent_games: 'Últimas partidas', vs_bots: 'contra bots', with_people: '{n} personas', stats_none: 'Aún no ha terminado ninguna partida.', player_unknown: 'Ningún jugador tiene ese nombre de usuario.', stats_line: 'partidas: {games} · ganadas: {wins} ({pct} %)', stats_people: 'contra personas: {wins} de {games} ganadas', record_figures: 'fichas comidas: {captures} · fichas perdidas: {captured} · seises: {sixes} · en la meta: {home} (partidas contadas: {games})', record_figures_hint: 'Sumado sobre las partidas terminadas que guardaron sus cifras (las terminadas antes de que el servidor las contara, y las abandonadas en juego, no tienen).', resume: 'Volver', open: 'Abrir', won: 'ganada', lost: 'perdida', chat: 'Chat', chat_placeholder: 'Escribe a la mesa…', send: 'Enviar', reaction: { thumbs_up: 'Pulgar arriba', applause: 'Aplausos', laughing: 'Risa', surprised: 'Sorpresa', angry: 'Enfado', good_luck: 'Buena suerte' }, chat_none: 'Todavía no hay mensajes.', chat_spectator: 'Aquí solo escriben los jugadores; tú puedes leer.', chat_too_fast: 'Más despacio: como mucho 5 mensajes cada 10 segundos.', chat_too_long: 'Como mucho 200 caracteres.',
    dice_proof: 'Dado justo', seed_hash: 'Hash de la semilla (publicado al empezar)', seed: 'Semilla (revelada al final)', verified: 'verificado: SHA-256(semilla) = hash',
    not_verified: 'NO verificado: el hash no coincide', seed_hidden: 'oculta hasta el final', first: 'Inicio', prev: 'Anterior', next: 'Siguiente', last: 'Final', play: 'Reproducir', pause: 'Pausa',
    step: 'Paso {i} / {n}', replay_seek: 'Ir a un paso de la partida', replay_line_hint: 'Toca una línea para ver el tablero en ese paso.', preselect: 'preseleccionar para tu próxima jugada', preselected: 'Preseleccionada: {piece}',
    board_four: 'Tablero de parchís de cuatro colores', board_six: 'Tablero de parchís de seis colores',
    home: 'casa', square: 'casilla {n}', lane: 'pasillo {n}', goal: 'meta', blockade: 'barrera', captures: 'come',
    ev_rolled: '{who} saca un {die}', ev_no_move: '{who} saca un {die}: no puede mover', ev_moved: '{who}: {piece} {from} → {to}',
    ev_count: '{who} cuenta {n}: {piece} {from} → {to}', ev_captured: '¡{by} se come a {piece} en {at}! Vuelve a casa',
    ev_goal: '{piece} llega a la meta', ev_blockade: 'Barrera en {at}', ev_blockade_open: 'Se abre la barrera en {at}',
    ev_bonus: '{who} se cuenta {n}', ev_bonus_lost: '{who} pierde la cuenta de {n}', ev_reroll_lost: '{who} pierde la tirada extra',
    ev_three_sixes: '¡Tres seises para {who}!', ev_three_sixes_home: 'Tres seises para {who}: {piece} vuelve a casa desde {at}',
    ev_extra: '{who} vuelve a tirar', ev_turn: 'Turno de {who}', ev_won: '¡{names} ganan la partida!', ev_won_one: '¡{names} gana la partida!', and: 'y',
    list_sep: ', ', path: '{from} → {to}', bot_n: 'Bot {n}', skip_to_content: 'Saltar al contenido', n_players: '{n} jugadores', log_entry: 'registro {n}',
    leaders_by: 'Ordenar por', leaders_by_wins: 'Más victorias', leaders_by_rating: 'Puntuación', leaders_period_rating: 'Mejor puntuación en estas reglas en los últimos 30 días, entre jugadores con cuenta, al menos 5 partidas puntuables y una partida puntuable en el periodo.', leaders_none_rating: 'Aún nadie tiene 5 partidas puntuables y una partida puntuable en este periodo.',
    rating_value: 'puntuación {value}', rating_provisional: 'provisional: menos de 5 partidas puntuables', rating_games: '{n} partidas puntuables', rating_change: 'puntuación {change}', ratings_after_game: 'Puntuaciones', game_result: 'Resultado',
    rating_history: 'Evolución de la puntuación', rating_history_rules: 'Reglas', rating_history_none: 'Aún no hay partidas puntuables con estas reglas.', rating_history_summary: '{rules}: de {first} a {last} en {n} partidas puntuables', rating_history_point: '{date}: {before} → {after} ({change})', rating_history_points: 'Partidas puntuables, de la más antigua a la más reciente', rating_history_loading: 'Cargando la evolución de la puntuación…',
    modes: { individual: 'Individual', quick: 'Rápida', pairs: 'Parejas (2 c 2)', '1v1': '1 c 1 (dos colores cada uno)', '6-piece': '6 fichas', '3v3': '3 c 3 (seis colores)' },
    rulesets: { playgridia: 'Playgridia', ludoteka: 'Ludoteka', morocco: 'Marruecos' },
    colours: { yellow: 'Amarillo', blue: 'Azul', red: 'Rojo', green: 'Verde', orange: 'Naranja', turquoise: 'Turquesa' },
    status: { waiting: 'en espera', playing: 'en juego', finished: 'terminada' },
    error: 'Error: {msg}', private_room_closed: 'Esta sala es privada: ábrela con el enlace o el código que comparten sus jugadores.', room_not_found: 'Sala no encontrada.', name_required: 'Elige primero un nombre.', loading: 'Cargando…',
    side: 'Equipo {n}', seats_free: '{n} libres', game: 'Partida', close: 'Cerrar', move_log: 'Jugadas', rolls_checked: '{n} tiradas coinciden con la semilla',
    house_rules: 'Normas de la casa', house_hint: 'Cambia las reglas de juego de esta sala. Las partidas con normas de la casa no cuentan en la clasificación.',
    house_changed: '{n} cambiadas', house_team_only: 'Solo con pareja o dos colores cada uno (parejas, 1 c 1, 6 fichas, 3 c 3), así que no en esta modalidad: {names}.', house_reset: 'Volver a las reglas originales', house_yes: 'sí', house_no: 'no', label_value: '{label}: {value}',
    house_bad_number: '{name}: elige un número entero de {min} a {max}.', house_not_ranked: 'Jugada con normas de la casa: no cuenta en la clasificación',
    house_qm: 'Buscar partida juega con las reglas normales: tus normas de la casa son para una sala que crees.',
    house: {
      exit_mandatory: 'Con un 5 hay que sacar ficha', six: 'Un 6 mueve', three_sixes: 'Tres seises', penalty_spares_safe_and_blockade: 'Los tres seises respetan seguros y barreras',
      capture_bonus: 'Cuenta por comer', goal_bonus: 'Cuenta por llegar a la meta', exit_capture: 'Al salir a tu casilla de salida', must_open_blockade_on_six: 'Con un 6 hay que abrir barrera',
      morocco_priorities: 'Comer obligatorio (prioridades de Marruecos)', allied_blockade_on_safe: 'Barrera de aliados en un seguro', mixed_pairs_only_on_safe: 'Dos colores comparten solo los seguros',
      lane_blockades: 'Barreras en los pasillos de meta', capture_allies: 'Los aliados pueden comerse', partner_moves: 'Mover fichas del compañero', first_roll: 'Primera tirada de Marruecos',
    },
    errors: {
      network: 'No se puede llegar al servidor: revisa tu conexión.', internal_error: 'Algo falló en el servidor; no se ha cambiado nada.', internal: 'Algo falló en el servidor; no se ha cambiado nada.',
      service_unavailable: 'El servidor no responde ahora; inténtalo en un momento.', storage_unavailable: 'El servidor no puede llegar a su base de datos ahora mismo; no se ha cambiado nada. Inténtalo en un momento.', storage: { maybe_stored: 'El servidor perdió su base de datos mientras lo guardaba: puede que se haya guardado o no. Inténtalo en un momento.' }, room_busy: 'La sala está ocupada; inténtalo en un momento.', analysis_busy: 'El servidor está analizando otras partidas; inténtalo en un momento.',
      rate_limited: 'Demasiadas peticiones desde aquí; inténtalo dentro de un rato.', too_many_attempts: 'Demasiadas contraseñas erróneas para este usuario; inténtalo más tarde.',
      username_taken: 'Ese usuario ya existe; elige otro.', account_exists: 'Ya tienes una cuenta: entra con ella en tus otros dispositivos.', wrong_credentials: 'Usuario desconocido o contraseña incorrecta.', password_required: 'Escribe tu contraseña para borrar esta cuenta.', wrong_password: 'Esa no es tu contraseña.', no_account: 'Crea una cuenta antes de salir, o este jugador no se podría volver a usar.', device_not_found: 'Ese dispositivo ya no está dentro de la cuenta.',
      room_not_found: 'Ninguna sala tiene ese enlace o código.', game_not_found: 'Ninguna partida tiene ese enlace.', account_not_found: 'Ningún jugador tiene ese usuario.', game_not_finished: 'La partida aún se está jugando: su repetición se abre cuando termine.',
      not_room_owner: 'Solo quien creó la sala puede hacer eso.', wrong_join_code: 'Esta sala es privada: hace falta su código para entrar.', room_full: 'Todos los asientos de esta sala están ocupados.', seat_taken: 'Ese asiento está ocupado.', room_not_waiting: 'La sala ya no espera jugadores.', colour_taken: 'Otro jugador de esta sala ya pidió ese color.',
      seat_not_found: 'Esta sala no tiene ese asiento.', seat_has_person: 'En ese asiento hay una persona.', no_person_at_seat: 'Nadie ocupa ese asiento.', cannot_remove_self: 'No puedes quitarte a ti mismo: deja tu asiento.', removed_from_room: 'Quien creó la sala te ha quitado de ella: no puedes volver a sentarte.',
      not_seated: 'No estás sentado en esta sala.', not_started: 'La partida aún no ha empezado.', game_over: 'La partida ha terminado.', not_your_turn: 'No es tu turno.', must_roll: 'Tira primero el dado.', must_move: 'Mueve primero: el dado ya está tirado.', illegal_move: 'Ese movimiento no está permitido.', stale_version: 'La partida avanzó mientras tanto: mira otra vez el tablero.',
      chat_empty: 'El mensaje está vacío.', chat_too_long: 'El mensaje es demasiado largo (200 caracteres como mucho).', chat_too_fast: 'Demasiados mensajes seguidos: espera unos segundos.', message_not_found: 'Ese mensaje ya no está.', own_message: 'No puedes denunciar tu propio mensaje.',
      invalid_display_name: 'Un nombre visible tiene de 1 a 32 caracteres, sin caracteres de control.', invalid_username: 'Un nombre de usuario tiene de 3 a 24 caracteres: letras latinas, cifras, _, - o . (sin espacios).', weak_password: 'Una contraseña tiene de 8 a 128 caracteres.',
      settings: { players: 'Una sala necesita de 2 a 6 jugadores.', too_many_bots: 'Hay más bots que puestos.', no_human_seat: 'Deja al menos un puesto para una persona.', turn_time: 'El tiempo por turno debe ir de 5 segundos a una hora, o no tener límite.', bad_player_count: 'Esta modalidad no se juega con ese número de jugadores.', too_many_pieces: 'Hay demasiadas fichas para este tablero.', bad_pieces_to_win: 'Las fichas necesarias para ganar deben ir de 1 a las fichas de un color.', bad_option: 'Estas reglas no se pueden jugar juntas.' },
      illegal: { no_such_piece: 'Esa ficha no existe en esta partida.', not_your_piece: 'Esa ficha no es tuya.', wrong_destination: 'Esa ficha no puede llegar a esa casilla con esta tirada.', piece_finished: 'Esa ficha ya ha llegado.', piece_in_base: 'Una ficha en casa necesita un 5 para salir.', must_bring_piece_out: 'Con un 5 y una ficha en casa, sacarla es la única jugada permitida.', must_open_blockade: 'Con un seis hay que mover una ficha de tu barrera.', must_capture: 'Se puede comer, y comer es obligatorio.', blocked: 'Hay una barrera en el camino, la casilla está llena o la ficha se pasaría de la meta.' },
    },
    house_values: {
      six: { 6: '6', '7player': '7 con tu casa vacía', '7colour': '7 con su casa vacía', 12: '12 con las cuatro en juego' },
      three_sixes: { off: 'sin castigo', last: 'la última movida, a casa', second: 'la del segundo seis, a casa' },
      exit_capture: { never: 'nunca come', full: 'come si la salida está llena', all: 'come a todos los rivales' },
      partner_moves: { never: 'nunca', finished: 'con todas las tuyas en la meta', stuck: 'cuando no puedes mover' },
    },
  },
  fr: {
    quick_match: 'Trouver une partie', quick_match_hint: 'Jouez en ligne avec d’autres personnes, avec ces règles, ce mode et ce nombre de joueurs.',
    looking_for_players: 'Recherche de joueurs… {n}/{total}', qm_seat_open: 'en attente d’un joueur',
    qm_auto_start: 'La partie commence d’elle-même quand toutes les places sont prises.', qm_start_early: 'Vous pouvez aussi lancer maintenant : des bots prennent les places vides.',
    title: 'Parchís', tagline: 'Parchís en ligne — règles Playgridia, Ludoteka et Maroc',
    language: 'Langue', your_name: 'Votre nom', save_name: 'Enregistrer', change_name: 'Changer de nom',
    username: 'Identifiant', password: 'Mot de passe', account_make: 'Jouez aussi sur vos autres appareils', account_hint: 'Choisissez un identifiant et un mot de passe : en vous connectant avec eux sur un téléphone ou un autre ordinateur, vous y retrouvez votre nom et vos parties.', account_create: 'Créer le compte', sign_in_have: 'Déjà un compte ? Connectez-vous', sign_in_replaces: 'Se connecter ici remplace ce joueur invité sur cet appareil.', sign_in: 'Se connecter', signed_in_as: 'Connecté en tant que {name}', sign_out: 'Se déconnecter', change_password: 'Changer de mot de passe', current_password: 'Mot de passe actuel', new_password: 'Nouveau mot de passe', password_changed: 'Mot de passe changé. Vos autres appareils sont déconnectés.', sign_out_others: 'Déconnecter les autres appareils', sign_out_others_hint: 'Téléphone perdu, ou connexion sur un ordinateur partagé ? Tous les autres appareils connectés à ce compte cessent aussitôt de jouer et devront saisir votre mot de passe pour revenir. Cet appareil reste connecté et votre mot de passe ne change pas.', sign_out_others_confirm: 'Déconnecter les autres appareils', others_signed_out_none: 'Aucun autre appareil n’était connecté.', others_signed_out_one: '1 autre appareil a été déconnecté.', others_signed_out: '{n} autres appareils ont été déconnectés.', devices: 'Vos appareils', devices_hint: 'Là où ce compte est connecté, du plus récemment utilisé au plus ancien. Déconnectez un appareil perdu ou que vous n’utilisez plus : il cesse aussitôt de jouer et devra saisir votre mot de passe pour revenir.', devices_idle: 'Un appareil que personne n’utilise pendant {n} jours est déconnecté de lui-même.', device_this: 'cet appareil', device_times: 'Connecté le {signed_in} · dernière utilisation le {last_used}', device_sign_out: 'Déconnecter', device_sign_out_named: 'Déconnecter {device}', device_signed_out: '{device} a été déconnecté.', device_unknown: 'Appareil inconnu', device_on: '{browser} sur {system}', erase_me: 'Effacer mes données', erase_me_hint: 'Efface votre nom, votre compte et ce que vous avez écrit dans les discussions, sur tous vos appareils et pour toujours. Vos parties restent, jouées par « Deleted player ».', erase_me_confirm: 'Effacer pour toujours', erase_me_password: 'Votre mot de passe, pour confirmer', export_me: 'Télécharger mes données', export_me_hint: 'Tout ce que ce serveur garde sur vous (votre nom, compte, salons, parties, cotes, messages de discussion et signalements) dans un fichier JSON.', leaderboard: 'Classement', leaders_period: 'Le plus de victoires sur les 30 derniers jours, dans les parties avec au moins deux personnes et sans règles maison (joueurs avec un compte).', leaders_none: 'Aucune partie comptée pour l’instant : créez un compte et jouez contre des personnes pour apparaître ici.', wins_games: '{wins} sur {games} gagnées',
    hello: 'Bonjour, {name}', create_room: 'Créer une salle', rules: 'Règles', mode: 'Mode', players: 'Joueurs',
    bots: 'Autres places', seat_n: 'Place {n}', human: 'Humain', human_or_bot: 'Humain (bot si la place reste libre)', bot_random: 'Bot (facile)', bot_greedy: 'Bot (moyen)', bot_expert: 'Bot (difficile)', seat_local: 'Quelqu’un ici (sur cet appareil)', local_name_of: 'Nom de la personne qui joue sur cet appareil à la place {n}', local_name_required: 'Donnez un nom à la personne qui joue sur cet appareil à la place {n}.',
    bots_fast: 'bots rapides', bot_pace: 'Les bots jouent', bot_pace_normal: 'À un rythme qu’on suit', bot_pace_fast: 'Vite', turn_timer: 'Temps par tour', no_limit: 'Sans limite', seconds: '{n} s', preview: 'Voir mon prochain lancer à l’avance',
    public_room: 'Salle publique (listée sur la page d’accueil)', draw_seats: 'Tirer les places au sort au début de la partie (qui commence, couleurs, partenaires)', seats_drawn: 'places tirées au sort au début', create: 'Créer', public_rooms: 'Salles publiques en attente', no_rooms: 'Aucune salle publique en attente. Créez-en une !',
    live_games: 'Parties en cours', no_live_games: 'Aucune partie publique en cours pour le moment.',
    refresh: 'Actualiser', join: 'Rejoindre', watch: 'Regarder', join_by_code: 'Rejoindre avec un code ou un lien', code: 'Code', go: 'Aller',
    waiting_room: 'Salle d’attente', share_link: 'Partagez ce lien', copy: 'Copier', copied: 'Copié !', copy_by_hand: 'Sélectionné : copiez-le à la main', room_code: 'Code de la salle',
    seat: 'Place', empty_seat: 'libre', bot_fills: 'un bot jouera ({level})', owner: 'hôte', you: 'vous',
    preferred_colour: 'Couleur préférée', any_colour: 'Peu importe', take_seat: 'S’asseoir', leave_seat: 'Quitter la place', leave_game: 'Quitter la partie', leave_game_hint: 'Un bot joue votre place jusqu’à la fin (et celles jouées sur votre appareil), et la partie compte comme une défaite pour vous.', leave_game_confirm: 'Quitter maintenant', left_player: 'Joueur parti',
    add_local: 'Quelqu’un d’autre joue ici :', their_name: 'Son nom', add: 'Ajouter', remove: 'Retirer', remove_local: 'Retirer {name} de la table', on_this_device: 'sur cet appareil', at_device_of: 'sur l’appareil de {name}', local_turn: 'Au tour de {name}, sur cet appareil', local_hint: 'Il joue ses tours sur cet écran ; ces parties ne sont pas classées.',
    add_bot: 'Ajouter un bot', bot_level_of: 'Niveau du bot à la place {n}', remove_bot: 'Retirer le bot', remove_bot_of: 'Retirer le bot, place {n}', add_bot_of: 'Ajouter un bot, place {n}', remove_player: 'Retirer le joueur', remove_player_of: 'Retirer le joueur {name}', remove_player_confirm: 'Retirer {name} de ce salon ? Il ne pourra plus le rejoindre.', removed_by_owner: 'Le créateur du salon vous en a retiré. Vous pouvez regarder, mais plus y prendre place.',
    start_game: 'Lancer la partie', start_hint: 'Les places vides sont prises par des bots.', wait_owner: 'En attente du lancement par l’hôte…',
    connected: 'connecté', away: 'absent', bot: 'bot', spectators: '{n} spectateurs', spectator_mode: 'Vous regardez',
    roll: 'Lancer le dé', auto_roll: 'Lancer automatique', your_turn: 'À vous', turn_of: 'Au tour de {name}', moves_to_play: 'Coups',
    count_to_play: 'Compter {n} : avancez un pion de {n} cases', count_of: '{name} compte {n}', pick_move: 'Choisissez un coup', no_moves: 'Aucun coup possible',
    next_roll: 'Votre prochain lancer : {n}', sixes_in_a_row: 'Six d’affilée : {n}', log: 'Journal', timer: 'Temps restant',
    reconnecting: 'Connexion perdue — reconnexion…', reconnected: 'Reconnecté', offline_protocol: 'Le jeu en direct n’est pas encore disponible sur ce serveur.',
    expert_view: 'L’avis de l’expert', ask_expert: 'Que jouerait l’expert ici ?', expert_thinking: 'L’expert réfléchit…', expert_played: 'Coup joué : {move}', expert_would: 'L’expert jouerait : {move}', expert_agrees: 'L’expert joue le même coup.', expert_only_move: 'C’était le seul coup légal.', expert_choices: '{n} coups légaux', expert_pick_move: 'Allez à un coup (pas à un lancer) pour le comparer à celui de l’expert.',
    report_message: 'Signaler ce message à l’hôte', report_message_by: 'Signaler le message de {name} à l’hôte', report_confirm: 'Signaler ce message de {name} à l’hôte comme offensant ?\n\n« {text} »', reported: 'Signalé', reported_thanks: 'Signalé à l’hôte. Merci.',
    admin_title: 'Modération', admin_hint: 'Les messages du chat que des joueurs ont signalés à l’hôte de ce serveur.', admin_token: 'Jeton d’administration', admin_token_hint: 'L’ADMIN_TOKEN du serveur. Il n’est gardé que dans cet onglet, jusqu’à sa fermeture.', admin_open: 'Ouvrir', admin_forget: 'Oublier le jeton', admin_reports: 'Messages signalés', admin_none: 'Aucun message signalé.', admin_wrong_token: 'Ce n’est pas le jeton d’administration de ce serveur.', admin_off: 'Ce serveur n’a pas de jeton d’administration : la modération est désactivée (voir ADMIN_TOKEN dans le README).', admin_dismiss: 'Classer', admin_dismiss_by: 'Classer les signalements du message de {name}', admin_erase: 'Effacer l’auteur', admin_erase_by: 'Effacer l’auteur : {name}', admin_erase_confirm: 'Effacer {name} définitivement ? Son nom devient « Deleted player », tout ce qu’il a écrit dans les chats est vidé et il est déconnecté sur tous ses appareils.', admin_report_count: 'Signalements : {n}', admin_reasons: 'Motifs :', admin_no_reason: 'Aucun motif donné.', admin_last_reported: 'Dernier signalement : {when}', admin_room: 'Salle {id}',
    game_over: 'Partie terminée', winner: 'Vainqueur : {names}', winners: 'Vainqueurs : {names}', you_won: 'Vous avez gagné !', you_lost: 'Vous avez perdu.', local_won: '{names} ont gagné, sur cet appareil !', local_won_one: '{names} a gagné, sur cet appareil !', replay: 'Revoir', rematch: 'Revanche', back_home: 'Accueil', figures_h: 'Le bilan de chacun', col_player: 'Joueur', col_home: 'Arrivés', col_captures: 'Captures', col_captured: 'Pions perdus', col_sixes: 'Six',
    sound: 'Son', how_to_play: 'Comment jouer', howto_of: 'Comment jouer : {name}', signed_out_idle: 'Vous avez été déconnecté sur cet appareil car il n’avait pas servi depuis longtemps : reconnectez-vous avec votre identifiant et votre mot de passe.', signed_out_here: 'Vous avez été déconnecté sur cet appareil (déconnexion ici ou depuis un autre de vos appareils, nouveau mot de passe ou données effacées).', signed_out: 'Ce serveur ne vous connaît plus (ses données ont été effacées) : choisissez à nouveau un nom.', play_now: 'Jouer tout de suite contre des bots', mute_name: 'Masquer {name}', muted: 'Masqués', unmute: 'Réafficher', my_games: 'Vos parties', my_stats: 'Votre bilan', recent_games: 'Dernières parties', vs_bots: 'contre des bots', with_people: '{n} personnes', stats_none: 'Aucune partie terminée pour l’instant.', player_unknown: 'Aucun joueur n’a ce nom d’utilisateur.', stats_line: 'parties : {games} · gagnées : {wins} ({pct} %)', stats_people: 'contre des personnes : {wins} sur {games} gagnées', record_figures: 'captures : {captures} · pions perdus : {captured} · six : {sixes} · arrivés : {home} (parties comptées : {games})', record_figures_hint: 'Additionné sur les parties terminées qui ont gardé leur bilan (celles terminées avant que le serveur le compte, et celles quittées en cours, n’en ont pas).', resume: 'Reprendre', open: 'Ouvrir', won: 'gagnée', lost: 'perdue', chat: 'Discussion', chat_placeholder: 'Écrire à la table…', send: 'Envoyer', reaction: { thumbs_up: 'Pouce levé', applause: 'Applaudissements', laughing: 'Rire', surprised: 'Surprise', angry: 'Colère', good_luck: 'Bonne chance' }, chat_none: 'Pas encore de message.', chat_spectator: 'Seuls les joueurs écrivent ici ; vous pouvez lire.', chat_too_fast: 'Doucement : 5 messages au plus toutes les 10 secondes.', chat_too_long: '200 caractères au plus.',
    dice_proof: 'Équité du dé', seed_hash: 'Empreinte de la graine (publiée au début)', seed: 'Graine (révélée à la fin)', verified: 'vérifié : SHA-256(graine) = empreinte',
    not_verified: 'NON vérifié : empreinte différente', seed_hidden: 'cachée jusqu’à la fin', first: 'Début', prev: 'Précédent', next: 'Suivant', last: 'Fin', play: 'Lecture', pause: 'Pause',
    step: 'Étape {i} / {n}', replay_seek: 'Aller à une étape de la partie', replay_line_hint: 'Touchez une ligne pour voir le plateau à cette étape.', preselect: 'présélectionner pour votre prochain coup', preselected: 'Présélectionné : {piece}',
    board_four: 'Plateau de parchís à quatre couleurs', board_six: 'Plateau de parchís à six couleurs',
    home: 'maison', square: 'case {n}', lane: 'couloir {n}', goal: 'arrivée', blockade: 'barrage', captures: 'capture',
    ev_rolled: '{who} fait {die}', ev_no_move: '{who} fait {die} : aucun coup possible', ev_moved: '{who} : {piece} {from} → {to}',
    ev_count: '{who} compte {n} : {piece} {from} → {to}', ev_captured: '{by} capture {piece} sur {at} ! Retour à la maison',
    ev_goal: '{piece} arrive', ev_blockade: 'Barrage sur {at}', ev_blockade_open: 'Barrage ouvert sur {at}',
    ev_bonus: '{who} gagne {n} cases', ev_bonus_lost: '{who} perd les {n} cases', ev_reroll_lost: '{who} perd le lancer supplémentaire',
    ev_three_sixes: 'Trois six pour {who} !', ev_three_sixes_home: 'Trois six pour {who} : {piece} retourne à la maison depuis {at}',
    ev_extra: '{who} rejoue', ev_turn: 'Au tour de {who}', ev_won: '{names} gagnent la partie !', ev_won_one: '{names} gagne la partie !', and: 'et',
    list_sep: ', ', path: '{from} → {to}', bot_n: 'Bot {n}', skip_to_content: 'Aller au contenu', n_players: '{n} joueurs', log_entry: 'journal {n}',
    leaders_by: 'Classer par', leaders_by_wins: 'Le plus de victoires', leaders_by_rating: 'Cote', leaders_period_rating: 'Meilleure cote dans ces règles sur les 30 derniers jours, parmi les joueurs avec un compte, au moins 5 parties classées et une partie classée dans la période.', leaders_none_rating: 'Personne n’a encore 5 parties classées et une partie classée dans cette période.',
    rating_value: 'cote {value}', rating_provisional: 'provisoire : moins de 5 parties classées', rating_games: '{n} parties classées', rating_change: 'cote {change}', ratings_after_game: 'Cotes', game_result: 'Résultat',
    rating_history: 'Évolution de la cote', rating_history_rules: 'Règles', rating_history_none: 'Aucune partie classée dans ces règles pour l’instant.', rating_history_summary: '{rules} : de {first} à {last} en {n} parties classées', rating_history_point: '{date} : {before} → {after} ({change})', rating_history_points: 'Parties classées, de la plus ancienne à la plus récente', rating_history_loading: 'Chargement de l’évolution de la cote…',
    modes: { individual: 'Individuel', quick: 'Rapide', pairs: 'Équipes (2 c. 2)', '1v1': '1 c. 1 (deux couleurs chacun)', '6-piece': '6 pions', '3v3': '3 c. 3 (six couleurs)' },
    rulesets: { playgridia: 'Playgridia', ludoteka: 'Ludoteka', morocco: 'Maroc' },
    colours: { yellow: 'Jaune', blue: 'Bleu', red: 'Rouge', green: 'Vert', orange: 'Orange', turquoise: 'Turquoise' },
    status: { waiting: 'en attente', playing: 'en cours', finished: 'terminée' },
    error: 'Erreur : {msg}', private_room_closed: 'Cette salle est privée : ouvrez-la avec le lien ou le code que partagent ses joueurs.', room_not_found: 'Salle introuvable.', name_required: 'Choisissez d’abord un nom.', loading: 'Chargement…',
    side: 'Équipe {n}', seats_free: '{n} libres', game: 'Partie', close: 'Fermer', move_log: 'Coups', rolls_checked: '{n} lancers conformes à la graine',
    house_rules: 'Règles maison', house_hint: 'Modifiez les règles de jeu de cette salle. Les parties aux règles maison ne comptent pas au classement.',
    house_changed: '{n} modifiées', house_team_only: 'Seulement avec un partenaire ou deux couleurs chacun (équipes, 1 c. 1, 6 pions, 3 c. 3), donc pas dans ce mode : {names}.', house_reset: 'Revenir aux règles d’origine', house_yes: 'oui', house_no: 'non', label_value: '{label} : {value}',
    house_bad_number: '{name} : choisissez un nombre entier de {min} à {max}.', house_not_ranked: 'Jouée aux règles maison : non comptée au classement',
    house_qm: 'Les parties trouvées suivent les règles standard : vos règles maison valent pour une salle que vous créez.',
    house: {
      exit_mandatory: 'Un 5 oblige à sortir un pion', six: 'Un 6 avance de', three_sixes: 'Trois 6', penalty_spares_safe_and_blockade: 'Les trois 6 épargnent cases sûres et barrages',
      capture_bonus: 'Cases pour une capture', goal_bonus: 'Cases pour une arrivée', exit_capture: 'Sortir sur votre case de sortie', must_open_blockade_on_six: 'Un 6 oblige à ouvrir un barrage',
      morocco_priorities: 'Capture obligatoire (priorités du Maroc)', allied_blockade_on_safe: 'Barrage d’alliés sur case sûre', mixed_pairs_only_on_safe: 'Deux couleurs ne partagent que les cases sûres',
      lane_blockades: 'Barrages dans les couloirs', capture_allies: 'Les alliés peuvent se capturer', partner_moves: 'Jouer les pions du partenaire', first_roll: 'Premier lancer du Maroc',
    },
    errors: {
      network: 'Le serveur est injoignable : vérifiez votre connexion.', internal_error: 'Une erreur est survenue sur le serveur ; rien n’a été changé.', internal: 'Une erreur est survenue sur le serveur ; rien n’a été changé.',
      service_unavailable: 'Le serveur ne répond pas pour l’instant ; réessayez dans un moment.', storage_unavailable: 'Le serveur ne peut pas joindre sa base de données pour l’instant ; rien n’a été changé. Réessayez dans un moment.', storage: { maybe_stored: 'Le serveur a perdu sa base de données pendant l’enregistrement : cela a peut-être été enregistré, peut-être pas. Réessayez dans un moment.' }, room_busy: 'Le salon est occupé ; réessayez dans un moment.', analysis_busy: 'Le serveur analyse d’autres parties ; réessayez dans un moment.',
      rate_limited: 'Trop de requêtes depuis ici ; réessayez d’ici peu.', too_many_attempts: 'Trop de mots de passe erronés pour cet identifiant ; réessayez plus tard.',
      username_taken: 'Cet identifiant est pris ; choisissez-en un autre.', account_exists: 'Vous avez déjà un compte : connectez-vous avec lui sur vos autres appareils.', wrong_credentials: 'Identifiant inconnu ou mot de passe erroné.', password_required: 'Saisissez votre mot de passe pour effacer ce compte.', wrong_password: 'Ce n’est pas votre mot de passe.', no_account: 'Créez un compte avant de vous déconnecter, sinon ce joueur ne pourrait plus jamais servir.', device_not_found: 'Cet appareil n’est plus connecté.',
      room_not_found: 'Aucun salon n’a ce lien ou ce code.', game_not_found: 'Aucune partie n’a ce lien.', account_not_found: 'Aucun joueur n’a cet identifiant.', game_not_finished: 'La partie est encore en cours : son rejeu s’ouvre quand elle est finie.',
      not_room_owner: 'Seul le créateur du salon peut faire cela.', wrong_join_code: 'Ce salon est privé : son code est nécessaire pour le rejoindre.', room_full: 'Toutes les places de ce salon sont prises.', seat_taken: 'Cette place est prise.', room_not_waiting: 'Le salon n’attend plus de joueurs.', colour_taken: 'Un autre joueur de ce salon a déjà demandé cette couleur.',
      seat_not_found: 'Ce salon n’a pas cette place.', seat_has_person: 'Une personne occupe cette place.', no_person_at_seat: 'Personne n’occupe cette place.', cannot_remove_self: 'Vous ne pouvez pas vous retirer vous-même : quittez votre place.', removed_from_room: 'Le créateur du salon vous en a retiré : vous ne pouvez plus y prendre place.',
      not_seated: 'Vous n’êtes pas assis dans ce salon.', not_started: 'La partie n’a pas encore commencé.', game_over: 'La partie est finie.', not_your_turn: 'Ce n’est pas votre tour.', must_roll: 'Lancez d’abord le dé.', must_move: 'Jouez d’abord : le dé est lancé.', illegal_move: 'Ce coup n’est pas permis.', stale_version: 'La partie a avancé entre-temps : regardez de nouveau le plateau.',
      chat_empty: 'Le message est vide.', chat_too_long: 'Le message est trop long (200 caractères au plus).', chat_too_fast: 'Trop de messages d’affilée : attendez quelques secondes.', message_not_found: 'Ce message n’est plus là.', own_message: 'Vous ne pouvez pas signaler votre propre message.',
      invalid_display_name: 'Un nom affiché a de 1 à 32 caractères, sans caractère de contrôle.', invalid_username: 'Un nom d’utilisateur a de 3 à 24 caractères : lettres latines, chiffres, _, - ou . (sans espace).', weak_password: 'Un mot de passe a de 8 à 128 caractères.',
      settings: { players: 'Un salon se joue à 2 à 6 joueurs.', too_many_bots: 'Il y a plus de bots que de places.', no_human_seat: 'Laissez au moins une place à une personne.', turn_time: 'Le temps par tour doit aller de 5 secondes à une heure, ou être illimité.', bad_player_count: 'Ce mode ne se joue pas à ce nombre de joueurs.', too_many_pieces: 'Il y a trop de pions pour ce plateau.', bad_pieces_to_win: 'Les pions nécessaires pour gagner doivent aller de 1 au nombre de pions d’une couleur.', bad_option: 'Ces règles ne peuvent pas se jouer ensemble.' },
      illegal: { no_such_piece: 'Ce pion n’existe pas dans cette partie.', not_your_piece: 'Ce pion n’est pas à vous.', wrong_destination: 'Ce pion ne peut pas atteindre cette case avec ce dé.', piece_finished: 'Ce pion est déjà arrivé.', piece_in_base: 'Un pion à la maison a besoin d’un 5 pour sortir.', must_bring_piece_out: 'Avec un 5 et un pion à la maison, le sortir est le seul coup permis.', must_open_blockade: 'Avec un six, un pion de votre barrage doit bouger.', must_capture: 'Une prise est possible, et prendre est obligatoire.', blocked: 'Un barrage est sur le chemin, la case est pleine ou le pion dépasserait l’arrivée.' },
    },
    house_values: {
      six: { 6: '6', '7player': '7 si votre maison est vide', '7colour': '7 si sa maison est vide', 12: '12 avec les quatre en jeu' },
      three_sixes: { off: 'sans pénalité', last: 'le dernier pion joué rentre', second: 'le pion du deuxième 6 rentre' },
      exit_capture: { never: 'ne capture jamais', full: 'capture si la sortie est pleine', all: 'capture tous les adversaires' },
      partner_moves: { never: 'jamais', finished: 'une fois tous vos pions arrivés', stuck: 'si vous ne pouvez pas jouer' },
    },
  },
  ar: {
    rating_history: 'تطوّر التصنيف', rating_history_rules: 'القواعد', rating_history_none: 'لا توجد بعد مباريات مصنّفة بهذه القواعد.', rating_history_summary: '{rules}: من {first} إلى {last}، عدد المباريات المصنّفة: {n}', rating_history_point: '{date}: {before} ← {after} ({change})', rating_history_points: 'المباريات المصنّفة، من الأقدم إلى الأحدث', rating_history_loading: 'جارٍ تحميل تاريخ التصنيف…',
    quick_match: 'البحث عن مباراة', quick_match_hint: 'العب عبر الإنترنت مع أشخاص آخرين، بهذه القواعد والنمط وعدد اللاعبين.',
    looking_for_players: 'جارٍ البحث عن لاعبين… {n}/{total}', qm_seat_open: 'في انتظار لاعب',
    qm_auto_start: 'تبدأ المباراة وحدها عندما تُشغَل كل المقاعد.', qm_start_early: 'يمكنك أيضًا البدء الآن: تجلس الروبوتات في المقاعد الفارغة.',
    title: 'Parchís', tagline: 'بارتشيس على الإنترنت — قواعد Playgridia وLudoteka والمغرب (الشمال)',
    language: 'اللغة', your_name: 'اسمك', save_name: 'حفظ', change_name: 'تغيير الاسم',
    username: 'اسم المستخدم', password: 'كلمة المرور', account_make: 'العب على أجهزتك الأخرى أيضًا', account_hint: 'اختر اسم مستخدم وكلمة مرور: عند تسجيل الدخول بهما على هاتف أو حاسوب آخر تجد هناك اسمك ومبارياتك.', account_create: 'إنشاء حساب', sign_in_have: 'لديك حساب؟ سجّل الدخول', sign_in_replaces: 'تسجيل الدخول هنا يحلّ محلّ هذا اللاعب الضيف على هذا الجهاز.', sign_in: 'تسجيل الدخول', signed_in_as: 'مسجَّل الدخول باسم {name}', sign_out: 'تسجيل الخروج', change_password: 'تغيير كلمة المرور', current_password: 'كلمة المرور الحالية', new_password: 'كلمة المرور الجديدة', password_changed: 'تم تغيير كلمة المرور. سُجِّل خروج أجهزتك الأخرى.', sign_out_others: 'تسجيل الخروج من الأجهزة الأخرى', sign_out_others_hint: 'أضعت هاتفك، أو سجّلت الدخول على حاسوب مشترك؟ كل جهاز آخر مسجَّل الدخول إلى هذا الحساب يتوقف عن اللعب فورًا ويحتاج إلى كلمة المرور للعودة. يبقى هذا الجهاز مسجَّل الدخول ولا تتغير كلمة المرور.', sign_out_others_confirm: 'تسجيل خروج الأجهزة الأخرى', others_signed_out_none: 'لم يكن أي جهاز آخر مسجَّل الدخول.', others_signed_out_one: 'سُجِّل خروج جهاز آخر واحد.', others_signed_out: 'عدد الأجهزة الأخرى التي سُجِّل خروجها: {n}.', devices: 'أجهزتك', devices_hint: 'الأجهزة المسجَّل فيها الدخول إلى هذا الحساب، من الأحدث استعمالًا إلى الأقدم. سجّل خروج جهاز أضعته أو لم تعد تستعمله: يتوقف عن اللعب فورًا ويحتاج إلى كلمة المرور للعودة.', devices_idle: 'الجهاز الذي لا يستعمله أحد مدة {n} يومًا يُسجَّل خروجه تلقائيًا.', device_this: 'هذا الجهاز', device_times: 'سجّل الدخول في {signed_in} · آخر استعمال في {last_used}', device_sign_out: 'تسجيل الخروج', device_sign_out_named: 'تسجيل خروج {device}', device_signed_out: 'سُجِّل خروج {device}.', device_unknown: 'جهاز غير معروف', device_on: '{browser} على {system}', erase_me: 'حذف بياناتي', erase_me_hint: 'يمحو اسمك وحسابك وما كتبته في الدردشات، على كل أجهزتك وبشكل نهائي. تبقى مبارياتك، ويظهر فيها اسم «Deleted player» (لاعب محذوف).', erase_me_confirm: 'حذف نهائي', erase_me_password: 'كلمة المرور، للتأكيد', export_me: 'تنزيل بياناتي', export_me_hint: 'كل ما يحتفظ به هذا الخادم عنك (اسمك وحسابك وغرفك ومبارياتك وتصنيفاتك ورسائلك في الدردشة وبلاغاتك) في ملف JSON واحد.', leaderboard: 'الترتيب', leaders_period: 'أكثر الانتصارات في آخر 30 يومًا، في مباريات فيها شخصان على الأقل وبلا قواعد خاصة (لاعبون لديهم حساب).', leaders_none: 'لا توجد مباريات محسوبة بعد: أنشئ حسابًا والعب ضد أشخاص لتظهر هنا.', wins_games: 'فاز في {wins} من {games}',
    hello: 'مرحبًا، {name}', create_room: 'إنشاء غرفة', rules: 'القواعد', mode: 'النمط', players: 'اللاعبون',
    bots: 'المقاعد الأخرى', seat_n: 'المقعد {n}', human: 'إنسان', human_or_bot: 'إنسان (روبوت إن بقي فارغًا)', bot_random: 'روبوت (سهل)', bot_greedy: 'روبوت (متوسط)', bot_expert: 'روبوت (صعب)', seat_local: 'شخص هنا (على هذا الجهاز)', local_name_of: 'اسم من يلعب على هذا الجهاز في المقعد {n}', local_name_required: 'اكتب اسم من يلعب على هذا الجهاز في المقعد {n}.',
    bots_fast: 'روبوتات سريعة', bot_pace: 'تلعب الروبوتات', bot_pace_normal: 'بسرعة يمكن متابعتها', bot_pace_fast: 'بسرعة', turn_timer: 'مؤقّت الدور', no_limit: 'بلا حدّ', seconds: '{n} ث', preview: 'أظهر رميتي التالية مسبقًا',
    public_room: 'غرفة عامة (تظهر في قائمة الصفحة الرئيسية)', draw_seats: 'قرعة المقاعد عند بدء المباراة (من يبدأ، الألوان، الشركاء)', seats_drawn: 'المقاعد بالقرعة عند البدء', create: 'إنشاء', public_rooms: 'غرف عامة في الانتظار', no_rooms: 'لا توجد غرفة عامة في الانتظار. أنشئ واحدة!',
    live_games: 'مباريات جارية', no_live_games: 'لا توجد الآن أي مباراة عامة جارية.',
    refresh: 'تحديث', join: 'انضمام', watch: 'مشاهدة', join_by_code: 'الانضمام برمز أو رابط', code: 'الرمز', go: 'اذهب',
    waiting_room: 'غرفة الانتظار', share_link: 'شارك هذا الرابط', copy: 'نسخ', copied: 'تم النسخ!', copy_by_hand: 'تم تحديده: انسخه يدويًا', room_code: 'رمز الغرفة',
    seat: 'المقعد', empty_seat: 'فارغ', bot_fills: 'سيلعب روبوت ({level})', owner: 'صاحب الغرفة', you: 'أنت',
    preferred_colour: 'اللون المفضّل', any_colour: 'أيّ لون', take_seat: 'خذ مقعدًا', leave_seat: 'غادر المقعد', leave_game: 'غادر المباراة', leave_game_hint: 'يلعب روبوت مقعدك حتى النهاية (ومقاعد من يلعبون على جهازك)، وتُحتسب المباراة خسارة لك.', leave_game_confirm: 'غادر الآن', left_player: 'لاعب غادر',
    add_local: 'شخص آخر يلعب هنا:', their_name: 'اسمه', add: 'أضف', remove: 'أزل', remove_local: 'أزل {name} من الطاولة', on_this_device: 'على هذا الجهاز', at_device_of: 'على جهاز {name}', local_turn: 'دور {name}، على هذا الجهاز', local_hint: 'يلعب أدواره على هذه الشاشة؛ لا تُحتسب هذه المباريات في التصنيف.',
    add_bot: 'أضف روبوتًا', bot_level_of: 'مستوى الروبوت في المقعد {n}', remove_bot: 'أزل الروبوت', remove_bot_of: 'أزل الروبوت، المقعد {n}', add_bot_of: 'أضف روبوتًا، المقعد {n}', remove_player: 'أزل اللاعب', remove_player_of: 'أزل اللاعب {name}', remove_player_confirm: 'إزالة {name} من هذه الغرفة؟ لن يستطيع الانضمام إليها مجددًا.', removed_by_owner: 'أزالك صاحب الغرفة منها. يمكنك المشاهدة، لكن لا يمكنك الجلوس هنا مجددًا.',
    start_game: 'ابدأ المباراة', start_hint: 'تجلس الروبوتات في المقاعد الفارغة.', wait_owner: 'في انتظار أن يبدأ صاحب الغرفة…',
    connected: 'متصل', away: 'غائب', bot: 'روبوت', spectators: 'المشاهدون: {n}', spectator_mode: 'أنت تشاهد',
    roll: 'ارمِ النرد', auto_roll: 'رمي تلقائي', your_turn: 'دورك', turn_of: 'دور {name}', moves_to_play: 'الحركات',
    count_to_play: 'مكافأة {n}: حرّك بيدقًا {n} خانة', count_of: '{name} يأخذ مكافأة {n}', pick_move: 'اختر حركة', no_moves: 'لا توجد حركة ممكنة',
    next_roll: 'رميتك التالية: {n}', sixes_in_a_row: 'ستّات متتالية: {n}', log: 'سجلّ المباراة', timer: 'الوقت المتبقي',
    reconnecting: 'انقطع الاتصال — جارٍ إعادة الاتصال…', reconnected: 'عاد الاتصال', offline_protocol: 'اللعب المباشر غير متاح على هذا الخادم بعد.',
    expert_view: 'رأي الخبير', ask_expert: 'ماذا كان الخبير سيلعب هنا؟', expert_thinking: 'الخبير يفكّر…', expert_played: 'الحركة الملعوبة: {move}', expert_would: 'كان الخبير سيلعب: {move}', expert_agrees: 'الخبير يلعب الحركة نفسها.', expert_only_move: 'كانت الحركة الممكنة الوحيدة.', expert_choices: 'الحركات الممكنة: {n}', expert_pick_move: 'انتقل إلى حركة (لا إلى رمية) لمقارنتها بحركة الخبير.',
    report_message: 'أبلغ مضيف الخادم عن هذه الرسالة', report_message_by: 'أبلغ المضيف عن رسالة {name}', report_confirm: 'هل تبلغ المضيف عن رسالة {name} هذه بأنها مسيئة؟\n\n«{text}»', reported: 'تم الإبلاغ', reported_thanks: 'تم الإبلاغ للمضيف. شكرًا لك.',
    admin_title: 'الإشراف', admin_hint: 'رسائل الدردشة التي أبلغ عنها اللاعبون مضيفَ هذا الخادم.', admin_token: 'مفتاح المشرف', admin_token_hint: 'قيمة ADMIN_TOKEN الخاصة بالخادم. يُحفظ في هذا التبويب فقط، إلى أن تغلقه.', admin_open: 'فتح', admin_forget: 'انسَ المفتاح', admin_reports: 'الرسائل المُبلَّغ عنها', admin_none: 'لا توجد رسائل مُبلَّغ عنها.', admin_wrong_token: 'هذا ليس مفتاح المشرف لهذا الخادم.', admin_off: 'لا يملك هذا الخادم مفتاح مشرف: الإشراف معطَّل (انظر ADMIN_TOKEN في ملف README).', admin_dismiss: 'تجاهل', admin_dismiss_by: 'تجاهل البلاغات عن رسالة {name}', admin_erase: 'امحُ الكاتب', admin_erase_by: 'امحُ الكاتب: {name}', admin_erase_confirm: 'هل تمحو {name} نهائيًا؟ يصبح اسمه «Deleted player»، ويُفرَّغ كل ما كتبه في الدردشات، ويُسجَّل خروجه من كل الأجهزة.', admin_report_count: 'البلاغات: {n}', admin_reasons: 'الأسباب:', admin_no_reason: 'لم يُذكر أي سبب.', admin_last_reported: 'آخر بلاغ: {when}', admin_room: 'الغرفة {id}',
    game_over: 'انتهت المباراة', winner: 'الفائز: {names}', winners: 'الفائزون: {names}', you_won: 'فزت!', you_lost: 'خسرت.', local_won: 'فاز {names}، على هذا الجهاز!', local_won_one: 'فاز {names}، على هذا الجهاز!', replay: 'إعادة العرض', rematch: 'مباراة أخرى', back_home: 'الصفحة الرئيسية', figures_h: 'حصيلة كل لاعب', col_player: 'اللاعب', col_home: 'في الهدف', col_captures: 'أكل', col_captured: 'أُكل له', col_sixes: 'ستّات',
    sound: 'الصوت', how_to_play: 'طريقة اللعب', howto_of: 'طريقة اللعب: {name}', signed_out_idle: 'سُجِّل خروجك على هذا الجهاز لأنه لم يُستعمل منذ مدة طويلة: سجّل الدخول من جديد باسم المستخدم وكلمة المرور.', signed_out_here: 'سُجِّل خروجك على هذا الجهاز (خروج من جهاز آخر، أو كلمة مرور جديدة، أو حذف بياناتك).', signed_out: 'لم يعد هذا الخادم يعرفك (أُعيد ضبط بياناته): اختر اسمًا من جديد.', play_now: 'العب الآن ضد الروبوتات', mute_name: 'كتم {name}', muted: 'مكتومون', unmute: 'إلغاء الكتم', my_games: 'مبارياتك', my_stats: 'سجلّك', recent_games: 'آخر المباريات', vs_bots: 'ضد الروبوتات', with_people: 'أشخاص: {n}', stats_none: 'لا توجد مباراة منتهية بعد.', player_unknown: 'لا يوجد لاعب باسم المستخدم هذا.', stats_line: 'المباريات: {games} · الانتصارات: {wins} ({pct}%)', stats_people: 'ضد أشخاص: فاز في {wins} من {games}', record_figures: 'أكل: {captures} · أُكل له: {captured} · ستّات: {sixes} · في الهدف: {home} (المباريات المحسوبة: {games})', record_figures_hint: 'مجموع المباريات المنتهية التي حُفظت حصيلتها (المباريات التي انتهت قبل أن يحسبها الخادم، والتي غادرها اللاعب أثناء اللعب، لا حصيلة لها).', resume: 'استئناف', open: 'فتح', won: 'فوز', lost: 'خسارة', chat: 'الدردشة', chat_placeholder: 'اكتب إلى الطاولة…', send: 'إرسال', reaction: { thumbs_up: 'إعجاب', applause: 'تصفيق', laughing: 'ضحك', surprised: 'دهشة', angry: 'غضب', good_luck: 'حظًا سعيدًا' }, chat_none: 'لا توجد رسائل بعد.', chat_spectator: 'اللاعبون وحدهم يكتبون هنا؛ يمكنك القراءة.', chat_too_fast: 'تمهّل: 5 رسائل على الأكثر كل 10 ثوانٍ.', chat_too_long: '200 حرف على الأكثر.',
    dice_proof: 'نزاهة النرد', seed_hash: 'بصمة البذرة (تُنشر عند البداية)', seed: 'البذرة (تُكشف في النهاية)', verified: 'تم التحقق: SHA-256(البذرة) = البصمة',
    not_verified: 'لم يتم التحقق: البصمة غير مطابقة', seed_hidden: 'مخفية حتى نهاية المباراة', first: 'الأولى', prev: 'السابقة', next: 'التالية', last: 'الأخيرة', play: 'تشغيل', pause: 'إيقاف مؤقت',
    step: 'الخطوة {i} من {n}', replay_seek: 'الانتقال إلى خطوة من المباراة', replay_line_hint: 'المس سطرًا لترى اللوحة في تلك الخطوة.', preselect: 'اختره مسبقًا لحركتك التالية', preselected: 'مختار مسبقًا: {piece}',
    board_four: 'لوحة بارتشيس بأربعة ألوان', board_six: 'لوحة بارتشيس بستة ألوان',
    home: 'البيت', square: 'الخانة {n}', lane: 'الممرّ {n}', goal: 'الهدف', blockade: 'حاجز', captures: 'يأكل',
    ev_rolled: '{who} رمى {die}', ev_no_move: '{who} رمى {die}: لا حركة ممكنة', ev_moved: '{who}: {piece} {from} ← {to}',
    ev_count: '{who} يأخذ مكافأة {n}: {piece} {from} ← {to}', ev_captured: '{by} يأكل {piece} في {at}! يعود إلى البيت',
    ev_goal: '{piece} يصل إلى الهدف', ev_blockade: 'حاجز في {at}', ev_blockade_open: 'فُتح الحاجز في {at}',
    ev_bonus: '{who} يحصل على مكافأة {n}', ev_bonus_lost: '{who} يخسر مكافأة {n}', ev_reroll_lost: '{who} يخسر الرمية الإضافية',
    ev_three_sixes: 'ثلاث ستّات لـ{who}!', ev_three_sixes_home: 'ثلاث ستّات لـ{who}: {piece} يعود إلى البيت من {at}',
    ev_extra: '{who} يرمي مرة أخرى', ev_turn: 'دور {who}', ev_won: 'فاز {names} بالمباراة!', ev_won_one: 'فاز {names} بالمباراة!', and: 'و',
    list_sep: '، ', path: '{from} ← {to}', bot_n: 'روبوت {n}', skip_to_content: 'انتقل إلى المحتوى', n_players: 'اللاعبون: {n}', log_entry: 'السجل {n}',
    leaders_by: 'الترتيب حسب', leaders_by_wins: 'أكثر الانتصارات', leaders_by_rating: 'التصنيف', leaders_period_rating: 'أفضل تصنيف في هذه القواعد خلال آخر 30 يومًا، بين اللاعبين الذين لديهم حساب و5 مباريات مصنَّفة على الأقل ومباراة مصنَّفة في هذه الفترة.', leaders_none_rating: 'لا أحد لديه بعدُ 5 مباريات مصنَّفة ومباراة مصنَّفة في هذه الفترة.',
    rating_value: 'التصنيف {value}', rating_provisional: 'مؤقت: أقل من 5 مباريات مصنَّفة', rating_games: 'مباريات مصنَّفة: {n}', rating_change: 'التصنيف {change}', ratings_after_game: 'التصنيفات', game_result: 'النتيجة',
    modes: { individual: 'فردي', quick: 'سريع', pairs: 'ثنائيات (2 ضد 2)', '1v1': '1 ضد 1 (لونان لكل لاعب)', '6-piece': '6 بيادق', '3v3': '3 ضد 3 (ستة ألوان)' },
    rulesets: { playgridia: 'Playgridia', ludoteka: 'Ludoteka', morocco: 'المغرب (الشمال)' },
    colours: { yellow: 'أصفر', blue: 'أزرق', red: 'أحمر', green: 'أخضر', orange: 'برتقالي', turquoise: 'فيروزي' },
    status: { waiting: 'في الانتظار', playing: 'جارية', finished: 'منتهية' },
    error: 'خطأ: {msg}', private_room_closed: 'هذه الغرفة خاصة: افتحها بالرابط أو بالرمز الذي يشاركه لاعبوها.', room_not_found: 'الغرفة غير موجودة.', name_required: 'اختر اسمًا أولًا.', loading: 'جارٍ التحميل…',
    side: 'الفريق {n}', seats_free: 'شاغرة: {n}', game: 'المباراة', close: 'إغلاق', move_log: 'الحركات', rolls_checked: 'رميات مطابقة للبذرة: {n}',
    house_rules: 'قواعد خاصة', house_hint: 'غيّر قواعد اللعب في هذه الغرفة. المباريات بقواعد خاصة لا تُحسب في الترتيب.',
    house_changed: 'مُغيَّرة: {n}', house_team_only: 'فقط مع شريك أو لونين لكل لاعب (ثنائيات، 1 ضد 1، 6 بيادق، 3 ضد 3)، فلا تنطبق في هذا النمط: {names}.', house_reset: 'العودة إلى القواعد الأصلية', house_yes: 'نعم', house_no: 'لا', label_value: '{label}: {value}',
    house_bad_number: '{name}: اختر عددًا صحيحًا من {min} إلى {max}.', house_not_ranked: 'لُعبت بقواعد خاصة: لا تُحسب في الترتيب',
    house_qm: 'البحث عن مباراة يكون بالقواعد العادية: قواعدك الخاصة للغرفة التي تنشئها أنت.',
    house: {
      exit_mandatory: 'الـ5 يُلزم بإخراج بيدق', six: 'الـ6 يحرّك', three_sixes: 'ثلاث ستّات', penalty_spares_safe_and_blockade: 'عقوبة الستّات الثلاث تستثني الخانات الآمنة والحواجز',
      capture_bonus: 'مكافأة الأكل', goal_bonus: 'مكافأة الوصول إلى الهدف', exit_capture: 'الخروج إلى خانة خروجك', must_open_blockade_on_six: 'الـ6 يُلزم بفتح حاجز',
      morocco_priorities: 'الأكل إجباري (أولويات المغرب)', allied_blockade_on_safe: 'حاجز الحلفاء على خانة آمنة', mixed_pairs_only_on_safe: 'لونان لا يتشاركان إلا الخانات الآمنة',
      lane_blockades: 'حواجز في ممرّات الهدف', capture_allies: 'يمكن للحلفاء أن يأكل بعضهم بعضًا', partner_moves: 'تحريك بيادق الشريك', first_roll: 'الرمية الأولى (المغرب)',
    },
    errors: {
      network: 'تعذّر الوصول إلى الخادم: تحقّق من اتصالك.', internal_error: 'حدث خطأ في الخادم؛ لم يتغيّر شيء.', internal: 'حدث خطأ في الخادم؛ لم يتغيّر شيء.',
      service_unavailable: 'الخادم لا يجيب الآن؛ أعد المحاولة بعد قليل.', storage_unavailable: 'لا يستطيع الخادم الوصول إلى قاعدة بياناته الآن؛ لم يتغيّر شيء. أعد المحاولة بعد قليل.', storage: { maybe_stored: 'انقطع اتصال الخادم بقاعدة بياناته أثناء الحفظ، فربما حُفظ ذلك وربما لا. أعد المحاولة بعد قليل.' }, room_busy: 'الغرفة مشغولة؛ أعد المحاولة بعد قليل.', analysis_busy: 'الخادم مشغول بتحليل مباريات أخرى؛ أعد المحاولة بعد قليل.',
      rate_limited: 'طلبات كثيرة جدًا من هنا؛ أعد المحاولة بعد قليل.', too_many_attempts: 'كلمات مرور خاطئة كثيرة لاسم المستخدم هذا؛ أعد المحاولة لاحقًا.',
      username_taken: 'اسم المستخدم هذا مأخوذ؛ اختر اسمًا آخر.', account_exists: 'لديك حساب من قبل: سجّل الدخول به على أجهزتك الأخرى.', wrong_credentials: 'اسم مستخدم غير معروف أو كلمة مرور خاطئة.', password_required: 'اكتب كلمة المرور لحذف هذا الحساب.', wrong_password: 'هذه ليست كلمة مرورك.', no_account: 'أنشئ حسابًا قبل تسجيل الخروج، وإلا فلن يمكن استعمال هذا اللاعب مرة أخرى.', device_not_found: 'هذا الجهاز لم يعد مسجَّل الدخول.',
      room_not_found: 'لا توجد غرفة بهذا الرابط أو الرمز.', game_not_found: 'لا توجد مباراة بهذا الرابط.', account_not_found: 'لا يوجد لاعب باسم المستخدم هذا.', game_not_finished: 'المباراة ما زالت جارية: تُفتح إعادة عرضها عندما تنتهي.',
      not_room_owner: 'وحده صاحب الغرفة يستطيع ذلك.', wrong_join_code: 'هذه الغرفة خاصة: يلزم رمزها للانضمام.', room_full: 'كل مقاعد هذه الغرفة مشغولة.', seat_taken: 'هذا المقعد مشغول.', room_not_waiting: 'الغرفة لم تعد تنتظر لاعبين.', colour_taken: 'لاعب آخر في هذه الغرفة طلب هذا اللون من قبل.',
      seat_not_found: 'لا يوجد في هذه الغرفة مقعد كهذا.', seat_has_person: 'يجلس شخص في هذا المقعد.', no_person_at_seat: 'لا أحد يجلس في هذا المقعد.', cannot_remove_self: 'لا يمكنك إزالة نفسك: غادر مقعدك بدلًا من ذلك.', removed_from_room: 'أزالك صاحب الغرفة منها: لا يمكنك الجلوس فيها مجددًا.',
      not_seated: 'لست جالسًا في هذه الغرفة.', not_started: 'المباراة لم تبدأ بعد.', game_over: 'انتهت المباراة.', not_your_turn: 'ليس دورك.', must_roll: 'ارمِ النرد أولًا.', must_move: 'حرّك أولًا: النرد مرميّ.', illegal_move: 'هذه الحركة غير مسموح بها.', stale_version: 'تقدّمت المباراة في الأثناء: انظر إلى اللوحة من جديد.',
      chat_empty: 'الرسالة فارغة.', chat_too_long: 'الرسالة طويلة جدًا (200 حرف على الأكثر).', chat_too_fast: 'رسائل كثيرة متتالية: انتظر بضع ثوانٍ.', message_not_found: 'هذه الرسالة لم تعد موجودة.', own_message: 'لا يمكنك الإبلاغ عن رسالتك.',
      invalid_display_name: 'الاسم المعروض من 1 إلى 32 محرفًا، بلا محارف تحكّم.', invalid_username: 'اسم المستخدم من 3 إلى 24 محرفًا: حروف لاتينية أو أرقام أو _ أو - أو . (بلا مسافات).', weak_password: 'كلمة المرور من 8 إلى 128 محرفًا.',
      settings: { players: 'تحتاج الغرفة إلى ما بين 2 و6 لاعبين.', too_many_bots: 'عدد الروبوتات أكبر من عدد المقاعد.', no_human_seat: 'اترك مقعدًا واحدًا على الأقل لشخص.', turn_time: 'يجب أن يكون وقت الدور بين 5 ثوانٍ وساعة، أو بلا حدّ.', bad_player_count: 'هذا النمط لا يُلعب بهذا العدد من اللاعبين.', too_many_pieces: 'عدد القطع كبير جدًا على هذه اللوحة.', bad_pieces_to_win: 'يجب أن يكون عدد القطع اللازمة للفوز بين 1 وعدد قطع اللون الواحد.', bad_option: 'لا يمكن لعب هذه القواعد معًا.' },
      illegal: { no_such_piece: 'لا يوجد هذا البيدق في هذه المباراة.', not_your_piece: 'هذا البيدق ليس لك.', wrong_destination: 'لا يستطيع هذا البيدق بلوغ هذه الخانة بهذه الرمية.', piece_finished: 'وصل هذا البيدق إلى الهدف بالفعل.', piece_in_base: 'البيدق في البيت يحتاج إلى 5 ليخرج.', must_bring_piece_out: 'مع 5 وبيدق في البيت، إخراجه هو الحركة الوحيدة المسموح بها.', must_open_blockade: 'مع الستّة يجب أن يتحرّك بيدق من حاجزك.', must_capture: 'الأكل ممكن، والأكل إلزامي.', blocked: 'يوجد حاجز في الطريق، أو الخانة ممتلئة، أو سيتجاوز البيدق الهدف.' },
    },
    house_values: {
      six: { 6: '6', '7player': '7 عندما يكون بيتك فارغًا', '7colour': '7 عندما يكون بيت اللون فارغًا', 12: '12 والبيادق الأربعة في اللعب' },
      three_sixes: { off: 'بلا عقوبة', last: 'آخر بيدق تحرّك يعود إلى البيت', second: 'بيدق الستّة الثانية يعود إلى البيت' },
      exit_capture: { never: 'لا يأكل أبدًا', full: 'يأكل إذا امتلأت خانة الخروج', all: 'يأكل كل الخصوم هناك' },
      partner_moves: { never: 'أبدًا', finished: 'بعد وصول كل بيادقك', stuck: 'عندما لا تستطيع الحركة' },
    },
  },
};

export const LANGS = { es: 'Español', fr: 'Français', en: 'English', ar: 'العربية' };
/** The languages written right to left. */
const RTL = new Set(['ar']);
/** Every text, per language (read by the translation tests). */
export const STRINGS = S;

function detect() {
  try {
    const saved = localStorage.getItem('parchis.lang');
    if (saved && S[saved]) return saved;
  } catch { /* storage unavailable */ }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (S[code]) return code;
  }
  return 'en';
}

let lang = detect();
const listeners = new Set();

export function getLang() { return lang; }
/** Whether the language (the page's by default) is written right to left. */
export function isRtl(l = lang) { return RTL.has(l); }
/** The page's `lang` and `dir` follow the language. */
function applyToDocument() {
  document.documentElement.lang = lang;
  document.documentElement.dir = isRtl() ? 'rtl' : 'ltr';
}
/**
 * The locale for dates: the browser's own, except in Arabic, written with Western digits (0–9) as in
 * Morocco whatever the browser's region.
 */
export function dateLocale() { return lang === 'ar' ? 'ar-MA-u-nu-latn' : undefined; }
export function setLang(l) {
  if (!S[l]) return;
  lang = l;
  try { localStorage.setItem('parchis.lang', l); } catch { /* ignore */ }
  applyToDocument();
  listeners.forEach((f) => f(l));
}
export function onLangChange(f) { listeners.add(f); return () => listeners.delete(f); }

/** ["Ana"] → "Ana"; ["Ana", "Bot 2"] → "Ana and Bot 2"; three or more → "A, B and C". */
export function listNames(names) {
  const list = [...names];
  if (list.length < 2) return list.join('');
  return `${list.slice(0, -1).join(t('list_sep'))} ${t('and')} ${list[list.length - 1]}`;
}

/**
 * What to show for an error the server (or the network) answered with `code`: the page's own words when it
 * has them, else the server's `message` (errors whose message names a detail: a rule, a limit, a field).
 */
export function errorText(code, message, reason) {
  const errors = S[lang].errors || {};
  // An illegal move names the rule it breaks, refused room settings the check, and a storage outage whether
  // the change may have been saved all the same (`reason`): said in the page's language too.
  const table = { illegal_move: errors.illegal, invalid_settings: errors.settings, storage_unavailable: errors.storage }[code];
  const why = reason && table && typeof table[reason] === 'string' && table[reason];
  if (why) return why;
  const own = code && typeof errors[code] === 'string' && errors[code];
  return own || message || code || '';
}

/** Translates a key; `vars` fill `{name}` holes. Dotted keys reach nested tables (modes.pairs). */
export function t(key, vars = {}) {
  const get = (table) => key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), table);
  let s = get(S[lang]);
  if (s === undefined) s = get(S.en);
  if (s === undefined) return key;
  return String(s).replace(/\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? isolate(vars[k]) : `{${k}}`));
}

/**
 * In a right-to-left text, what fills a hole (a name, a move, a place, a signed number) is put between
 * Unicode isolates (FSI … PDI, as `<bdi>` does): "Ana B." stays left to right and does not pull the
 * words around it out of order. A plain number needs none (digits keep their order anyway).
 */
function isolate(v) {
  const text = String(v);
  if (!isRtl() || text === '' || /^\d+$/.test(text)) return text;
  return `\u2068${text}\u2069`;
}

/**
 * "Playgridia · 3 v 3 (six colours)": a room's rule set and mode, each isolated in a right-to-left text (a
 * Latin rule set name followed by a mode starting with a digit would otherwise be drawn "Playgridia · 3" … "ضد 3").
 */
export function rulesAndMode(rules, mode) {
  return `${isolate(t('rulesets.' + rules))} · ${isolate(t('modes.' + mode))}`;
}

/** "Winner: Ana" or, for a team, "Winners: Ana, Bea". */
export function winnersText(names) {
  return t(names.length > 1 ? 'winners' : 'winner', { names: names.join(t('list_sep')) });
}

const LETTER = { y: 'yellow', b: 'blue', r: 'red', g: 'green', o: 'orange', t: 'turquoise' };
export function colourOfPiece(id) { return LETTER[id[0]] || 'yellow'; }
export function pieceName(id) {
  return `${t('colours.' + colourOfPiece(id))} ${id.slice(1)} (${id.toUpperCase()})`;
}
export function placeName(place) {
  if (!place) return '';
  switch (place.kind) {
    case 'square': return t('square', { n: place.at });
    case 'lane': return t('lane', { n: place.at });
    case 'goal': return t('goal');
    default: return t('home');
  }
}

/** Fills every `[data-i18n]` element of root with its text. */
export function translate(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((e) => { e.textContent = t(e.dataset.i18n); });
  root.querySelectorAll('[data-i18n-label]').forEach((e) => { e.setAttribute('aria-label', t(e.dataset.i18nLabel)); });
}

applyToDocument();
