// A room's address for other devices: the link to share (an invitation to a free seat, or a link to watch),
// the Share / Copy link control, and what a page opened on another device offers when the server refuses it
// (a private room without its code: sign in if it is your game). The server decides who may do what; these
// links only carry what it asks for (a private room's join code, never guessable from its id).
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { me, signIn } from './api.js';
import { navigate } from './nav.js';

/**
 * The link to give for the room `rest` (its REST view) in `state`: a private room's by its join code (whoever
 * opens it may watch, or join while a seat is free), a public room's by its id. `invite` while the room
 * waits with a free seat, else `watch` (`?watch=1`: the page opens as a spectator's).
 */
export function roomLink(rest, state) {
  const code = rest && !state.room.settings.public ? rest.join_code : null;
  const ref = encodeURIComponent(code || state.room.id);
  const free = state.room.status === 'waiting' && state.seats.some((s) => !s.player_id && !s.local_of && !s.bot);
  const kind = free ? 'invite' : 'watch';
  return { kind, url: `${location.origin}/room/${ref}${kind === 'watch' ? '?watch=1' : ''}` };
}

/**
 * "Invite to a seat: <link> [Share]" or "Watch link: <link> [Copy link]": the system's share sheet where there
 * is one (phones), else the clipboard, else the link selected to copy by hand.
 */
export function sharePanel(rest, state) {
  const { kind, url } = roomLink(rest, state);
  const text = h('span.share', { id: 'share-link', dir: 'ltr', 'data-kind': kind }, url);
  const phone = typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches;
  const button = h('button', {
    type: 'button',
    id: 'copy-link',
    onclick: async () => {
      try {
        if (phone) {
          await navigator.share({ title: t('title'), text: t(kind === 'invite' ? 'share_invite_text' : 'share_watch_text'), url });
          return;
        }
        await navigator.clipboard.writeText(url);
        button.textContent = t('copied');
      } catch (x) {
        if (x && x.name === 'AbortError') return; // the share sheet was closed: nothing to say
        // No clipboard (a plain-HTTP address on a LAN, or refused): the link is selected, to copy by hand.
        window.getSelection().selectAllChildren(text);
        button.textContent = t('copy_by_hand');
      }
    },
  }, phone ? t('share') : t('copy_link'));
  return h('p.row.share-row', { id: 'share-row' },
    h('span', t(kind === 'invite' ? 'share_invite' : 'share_watch'), ': '), text, button);
}

/** Signing in on this page (another device of an account's player): then the same address opens again. */
export function roomSignIn() {
  const err = h('p.error', { role: 'alert' });
  const user = h('input', { id: 'room-sign-in-username', required: true, maxlength: 24, autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false' });
  const pass = h('input', { id: 'room-sign-in-password', type: 'password', required: true, maxlength: 128, autocomplete: 'current-password' });
  return h('details.account', { id: 'room-sign-in' },
    h('summary', t('room_sign_in')),
    h('p.muted', t('room_sign_in_hint')),
    h('form.stack', {
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          await signIn(user.value.trim(), pass.value);
          navigate(location.pathname + location.search, true);
        } catch (x) { err.textContent = t('error', { msg: x.message }); }
      },
    },
    h('label', { for: user.id }, t('username')), user,
    h('label', { for: pass.id }, t('password')), pass,
    h('div.row', h('button.primary', { type: 'submit', id: 'room-sign-in-submit' }, t('sign_in')))),
    err);
}

/**
 * A private room the server will not show this device (no code in its address, and this player neither owns
 * it nor sits in it): why, and what to do: ask for the link, or sign in if it is your game (an account's seat
 * is its own on every device it signs in on). Its game over (`rest`: the server shows a finished room to
 * anyone, without its code): its replay, which is anyone's.
 */
export function privateRoomRefused(root, rest = null) {
  const who = me();
  if (rest && rest.status === 'finished' && rest.game_id) {
    clear(root,
      h('section.card', { id: 'private-refused' },
        h('p', { id: 'room-over', role: 'status' }, t('room_over_replay')),
        h('p.row', h('a', { href: `/replay/${encodeURIComponent(rest.game_id)}`, 'data-link': true, id: 'replay-link', class: 'button primary' }, t('replay')),
          h('a', { href: '/', 'data-link': true }, t('back_home')))));
    return;
  }
  clear(root,
    h('section.card', { id: 'private-refused' },
      h('p.error', { id: 'private-room', role: 'alert' }, t('private_room_closed')),
      h('p.muted', who && who.username ? t('private_room_not_yours', { name: who.username }) : t('private_room_yours')),
      who && who.username ? null : roomSignIn(),
      h('a', { href: '/', 'data-link': true }, t('back_home'))));
}
