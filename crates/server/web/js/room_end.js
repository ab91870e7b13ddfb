// The room page's end of game: who won, this device's result, ratings, figures, rematch, dice proof.
import { h, clear } from './dom.js';
import { t, winnersText, listNames } from './i18n.js';
import { api, me } from './api.js';
import { verifySeed } from './sha256.js';
import { navigate, banner } from './nav.js';
import { figuresTable } from './figures.js';
import { ratingsList } from './rating.js';
import { swatch } from './room_parts.js';

/** The end card and dice proof of the room `r` (mountRoom's shared context and helpers). */
export function endCard(r) {
  const { ctx } = r;
  const { mySeatIndex, localSeats, seatName } = r;

  async function renderEnd() {
    const st = ctx.state;
    const g = st.game;
    renderProof();
    const over = g.view.turn.phase === 'over' || st.room.status === 'finished';
    const end = ctx.els.end;
    if (!over) { end.classList.add('hidden'); return; }
    const side = g.result ? g.result.winner_side : g.view.turn.winner_side;
    const seats = g.result && g.result.winner_seats ? g.result.winner_seats : g.view.seats.filter((s) => s.side === side).map((s) => s.seat);
    const mine = mySeatIndex();
    const here = localSeats();
    const ratings = g.result && Array.isArray(g.result.ratings) ? g.result.ratings : [];
    const figures = g.result && Array.isArray(g.result.seats) ? g.result.seats : [];
    const key = `${side}/${seats.join(',')}/${mine}/${here.join(',')}/${!!g.seed}/${ratings.map((r) => `${r.seat}:${r.before}:${r.after}`).join(',')}/${figures.length}`;
    if (end.dataset.key === key) return;
    end.dataset.key = key;
    end.classList.remove('hidden');
    const colours = (s) => (g.view.seats[s] ? g.view.seats[s].colours.map(swatch) : null);
    clear(end,
      h('h2', { id: 'end-title' }, t('game_over')),
      h('p', { id: 'winner' }, seats.map(colours), ' ',
        winnersText(seats.map(seatName))),
      resultHere(seats, mine, here),
      // A rated game: each person's rating before → after, as the server computed it.
      ratingsList(g.result, seatName, { decorate: colours }),
      // Every row played from this device is marked, the people added at it (a shared phone) included.
      figuresTable(g.result, seatName, { mine: [mine, ...here].filter((s) => s !== null), decorate: colours }),
      h('div.row',
        // The same players and settings in a new room: whoever asks first creates it, the others join it.
        mine !== null ? h('button.primary', { type: 'button', id: 'rematch', onclick: async (e) => {
          const button = e.currentTarget;
          button.disabled = true;
          try {
            const next = await api.rematch(st.room.id);
            // Against bots (and people at this device) there is no one to wait for: the new game starts at
            // once. With other people it waits for them in the waiting room, where they come back to.
            // The new room may have drawn the seats again: this player is found by id, not by the old seat.
            const myId = (me() || {}).id;
            const alone = next.status === 'waiting' && next.seats.every((s) => (myId && s.player_id === myId) || s.bot || s.local_of);
            if (alone) await api.start(next.id).catch(() => null);
            navigate(`/room/${next.id}`);
          } catch (err) {
            banner(err.message, 'error');
            button.disabled = false;
          }
        } }, t('rematch')) : null,
        h('a', { href: `/replay/${g.id}`, 'data-link': true, id: 'replay-link', class: mine !== null ? 'button' : 'button primary' }, t('replay')),
        h('a', { href: '/', 'data-link': true, class: 'button' }, t('back_home'))),
    );
    // Drawn again (the ratings came after the seed): the dice proof checked already stays on it.
    const checked = ctx.els.proof && ctx.els.proof.querySelector('#proof-status[data-verified]');
    if (checked) end.append(endProof(checked));
  }

  /**
   * The end card's line for this device: "You won!" when its player's seat won; when a seat played here by
   * someone else won, the device won all the same ("Abuela won, on this device!"); else "You lost.". Nothing
   * for a device that played no seat.
   */
  function resultHere(winners, mine, here) {
    if (mine === null && !here.length) return null;
    const wonHere = here.filter((seat) => winners.includes(seat));
    const text = winners.includes(mine) ? t('you_won')
      : wonHere.length ? t('local_won', { names: listNames(wonHere.map(seatName)), n: wonHere.length })
        : t('you_lost');
    return h('p', { id: 'result-me' }, h('strong', text));
  }

  /** The end card's line of the dice proof, from the proof card's checked status. */
  function endProof(status) {
    return h('div.proof', h('p', h('strong', t('dice_proof')), ': ', h('span', { class: status.className, id: 'end-proof', 'data-verified': status.dataset.verified }, status.textContent)));
  }

  async function renderProof() {
    const g = ctx.state.game;
    const box = ctx.els.proof;
    if (!box) return;
    const key = `${g.seed_hash}/${g.seed}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const status = h('p', { id: 'proof-status' });
    clear(box,
      h('p', t('seed_hash'), ': ', h('code', { id: 'seed-hash', dir: 'ltr' }, g.seed_hash || '…')),
      h('p', t('seed'), ': ', g.seed ? h('code', { id: 'seed', dir: 'ltr' }, g.seed) : h('em.muted', t('seed_hidden'))),
      status);
    if (g.seed && g.seed_hash) {
      const ok = await verifySeed(g.seed, g.seed_hash).catch(() => false);
      status.className = ok ? 'verified' : 'not-verified';
      status.textContent = ok ? `✓ ${t('verified')}` : `✗ ${t('not_verified')}`;
      status.dataset.verified = ok ? 'true' : 'false';
      const det = box.closest('details');
      if (det) det.open = true;
      // The end card also shows the proof.
      const end = ctx.els.end;
      if (end && !end.classList.contains('hidden') && !end.querySelector('.proof')) {
        end.append(endProof(status));
      }
    }
  }

  return { render: renderEnd };
}
