// The "How to play" page: each rule set in a few lines, in the player's language. The referee
// (crates/rules, RULES.md) is what decides; this is a summary for people at the table.
import { h, clear } from './dom.js';
import { getLang } from './i18n.js';

const TEXT = {
  en: {
    title: 'How to play',
    intro: 'Everyone races their pieces once round the board and up their own lane to the goal. The server rolls the die and only offers legal moves: tap a piece (or a move in the list) to play it.',
    common: ['A square holds at most two pieces.', 'Safe squares (marked) protect from capture.', 'Moving is never optional: if a move is possible, one must be played.', 'The goal needs the exact number.'],
    sets: {
      playgridia: ['A piece leaves home only with a 5, and a 5 must bring one out (unless your exit already holds two of your pieces).', 'A 6 rolls again; it counts 7 once none of your pieces is at home.', 'Three sixes in a row: the third is void and the last piece you moved goes home (unless it is in its lane).', 'Two pieces of one colour form a blockade nobody passes or lands on, its owner included. On a rolled 6 you must open one of your blockades if you can.', 'Landing alone on an opponent off a safe square captures it: count 20 with any piece. A piece reaching the goal counts 10.', 'Coming out onto your exit when two pieces stand there, one of them an opponent, captures the opponent that arrived last.', 'Pairs: partners sit opposite, never capture each other, and win together when both are home.'],
      ludoteka: ['Two pieces of each colour start on their exit; the others come out with a 5.', 'A 6 rolls again; it moves 7 once every piece of that colour is out of home.', 'Three sixes: the piece moved with the second six goes home, unless it reached its lane.', 'Two pieces of one colour form a barrier nobody passes.', 'A capture earns 20 squares with any of your pieces; a piece arriving home earns 10 with another.', 'Pairs: teammates can capture each other, and a player who cannot move moves a partner\'s piece.', '1 v 1 and 6 pieces: two colours each, move either; 3 v 3 is played on the six-colour board.'],
      morocco: ['First roll: whatever the number, a piece comes out and moves by it (a 5 brings two out). Afterwards pieces come out only with a 5, and must.', 'With all four pieces of a colour in play, a 6 moves 12.', 'Capturing is mandatory (by 12 before by 6), and every capture earns a mandatory 20; arriving home earns 10.', 'On a 6, opening one of your blockades comes first.', 'Three sixes: the piece moved with the second six goes back, unless it stands on a safe square or in a blockade.', 'Allied colours may form a blockade on a safe square. A visitor on an exit is safe except from its owner coming out, who captures every opponent there.', 'Two players play eight pieces each: blue and yellow against green and red.'],
    },
    modes: { individual: 'Individual: 2 to 4 players, one colour each.', quick: 'Quick: one piece starts on the exit; first with two home wins.', pairs: 'Pairs: 2 against 2, partners opposite.', '1v1': '1 v 1: two colours each.', '6-piece': '6 pieces: two colours of six pieces each; six of one colour home win.', '3v3': '3 v 3: six colours, teams alternating round the board.' },
    modes_h: 'Modes', common_h: 'At every table',
    house_h: 'House rules', house: 'A room may change some rules of play on top of its rule set, such as the count for a capture or the three-sixes penalty: whoever creates it chooses them under “House rules”, and the room shows them to everyone before and during the game. Games with house rules do not count on the leaderboard.',
  },
  es: {
    title: 'Cómo se juega',
    intro: 'Cada cual lleva sus fichas una vuelta al tablero y por su pasillo hasta la meta. El servidor tira el dado y solo ofrece jugadas legales: toca una ficha (o una jugada de la lista) para jugarla.',
    common: ['En una casilla caben como mucho dos fichas.', 'Los seguros (marcados) protegen de las capturas.', 'Mover nunca es opcional: si hay una jugada posible, hay que hacerla.', 'A la meta se entra con el número exacto.'],
    sets: {
      playgridia: ['Una ficha sale de casa solo con un 5, y un 5 obliga a sacarla (salvo si tu salida ya tiene dos fichas tuyas).', 'Un 6 repite tirada; cuenta 7 cuando no te queda ninguna ficha en casa.', 'Tres seises seguidos: el tercero no vale y la última ficha movida vuelve a casa (salvo si está en su pasillo).', 'Dos fichas de un color forman una barrera que nadie pasa ni ocupa, ni su dueño. Con un 6 tirado hay que abrir una de tus barreras si se puede.', 'Caer sola sobre un rival fuera de un seguro lo come: te cuentas 20 con cualquier ficha. Una ficha que llega a la meta cuenta 10.', 'Salir a tu casilla de salida cuando hay dos fichas, una de ellas rival, come a la rival llegada en último lugar.', 'Parejas: los compañeros se sientan enfrente, nunca se comen entre sí y ganan juntos cuando los dos han terminado.'],
      ludoteka: ['Dos fichas de cada color empiezan en su salida; las demás salen con un 5.', 'Un 6 repite tirada; mueve 7 cuando todas las fichas de ese color están fuera de casa.', 'Tres seises: la ficha movida con el segundo seis vuelve a casa, salvo si ya llegó a su pasillo.', 'Dos fichas de un color forman una barrera que nadie pasa.', 'Comer da 20 casillas con cualquiera de tus fichas; llegar a la meta da 10 con otra.', 'Parejas: los compañeros pueden comerse, y quien no puede mover mueve una ficha de su compañero.', '1 c 1 y 6 fichas: dos colores cada uno, se mueve cualquiera; el 3 c 3 se juega en el tablero de seis colores.'],
      morocco: ['Primera tirada: salga lo que salga, una ficha sale y avanza ese número (un 5 saca dos). Después las fichas salen solo con un 5, y es obligatorio.', 'Con las cuatro fichas de un color en juego, un 6 mueve 12.', 'Comer es obligatorio (con 12 antes que con 6) y cada captura da un 20 obligatorio; llegar a la meta da 10.', 'Con un 6, abrir una de tus barreras va primero.', 'Tres seises: la ficha movida con el segundo seis vuelve, salvo si está en un seguro o en una barrera.', 'Dos colores aliados pueden formar barrera en un seguro. Una ficha visitante en una salida está a salvo salvo del dueño al salir, que come a todos los rivales que haya.', 'A dos jugadores, ocho fichas cada uno: azul y amarillo contra verde y rojo.'],
    },
    modes: { individual: 'Individual: de 2 a 4 jugadores, un color cada uno.', quick: 'Rápida: una ficha empieza en la salida; gana quien lleve dos a la meta.', pairs: 'Parejas: 2 contra 2, compañeros enfrente.', '1v1': '1 c 1: dos colores cada uno.', '6-piece': '6 fichas: dos colores de seis fichas cada uno; ganan las seis de un color en la meta.', '3v3': '3 c 3: seis colores, equipos alternados alrededor del tablero.' },
    modes_h: 'Modalidades', common_h: 'En todas las mesas',
    house_h: 'Normas de la casa', house: 'Una sala puede cambiar algunas reglas de juego de su reglamento, como la cuenta por comer o el castigo de los tres seises: quien la crea las elige en «Normas de la casa», y la sala las muestra a todos antes y durante la partida. Las partidas con normas de la casa no cuentan en la clasificación.',
  },
  fr: {
    title: 'Comment jouer',
    intro: 'Chacun fait faire à ses pions un tour du plateau puis monter son couloir jusqu’à l’arrivée. Le serveur lance le dé et ne propose que des coups légaux : touchez un pion (ou un coup de la liste) pour le jouer.',
    common: ['Une case accueille au plus deux pions.', 'Les cases sûres (marquées) protègent des captures.', 'Jouer n’est jamais facultatif : s’il existe un coup, il faut en jouer un.', 'L’arrivée se fait au nombre exact.'],
    sets: {
      playgridia: ['Un pion ne sort de la base qu’avec un 5, et un 5 oblige à sortir (sauf si votre case de sortie porte déjà deux de vos pions).', 'Un 6 fait rejouer ; il compte 7 quand aucun de vos pions n’est à la base.', 'Trois 6 de suite : le troisième est annulé et le dernier pion déplacé retourne à la base (sauf s’il est dans son couloir).', 'Deux pions d’une couleur forment un barrage que personne ne franchit ni n’occupe, pas même son propriétaire. Sur un 6 lancé, il faut ouvrir un de vos barrages si possible.', 'Arriver seul sur un adversaire hors case sûre le capture : comptez 20 avec n’importe quel pion. Un pion qui atteint l’arrivée compte 10.', 'Sortir sur votre case de sortie quand deux pions s’y trouvent, dont un adverse, capture l’adversaire arrivé en dernier.', 'Équipes : les partenaires sont face à face, ne se capturent jamais et gagnent ensemble quand les deux ont fini.'],
      ludoteka: ['Deux pions de chaque couleur commencent sur leur sortie ; les autres sortent avec un 5.', 'Un 6 fait rejouer ; il avance de 7 quand tous les pions de cette couleur sont hors de la maison.', 'Trois 6 : le pion déplacé avec le deuxième 6 retourne à la maison, sauf s’il a atteint son couloir.', 'Deux pions d’une couleur forment une barrière que personne ne franchit.', 'Une capture rapporte 20 cases avec n’importe lequel de vos pions ; un pion arrivé en rapporte 10 avec un autre.', 'Équipes : les coéquipiers peuvent se capturer, et qui ne peut pas jouer déplace un pion de son partenaire.', '1 c 1 et 6 pions : deux couleurs chacun, on joue l’une ou l’autre ; le 3 c 3 se joue sur le plateau à six couleurs.'],
      morocco: ['Premier lancer : quel que soit le nombre, un pion sort et avance d’autant (un 5 en sort deux). Ensuite on ne sort qu’avec un 5, et c’est obligatoire.', 'Avec les quatre pions d’une couleur en jeu, un 6 avance de 12.', 'La capture est obligatoire (par 12 avant par 6) et chaque capture donne un 20 obligatoire ; un pion arrivé donne 10.', 'Sur un 6, ouvrir un de vos barrages passe en premier.', 'Trois 6 : le pion déplacé avec le deuxième 6 retourne en réserve, sauf s’il est sur une case sûre ou dans un barrage.', 'Deux couleurs alliées peuvent former un barrage sur une case sûre. Un visiteur sur une sortie est à l’abri, sauf du propriétaire qui sort : il capture tous les adversaires présents.', 'À deux joueurs, huit pions chacun : bleu et jaune contre vert et rouge.'],
    },
    modes: { individual: 'Individuel : 2 à 4 joueurs, une couleur chacun.', quick: 'Rapide : un pion commence sur la sortie ; le premier à en rentrer deux gagne.', pairs: 'Équipes : 2 contre 2, partenaires face à face.', '1v1': '1 c 1 : deux couleurs chacun.', '6-piece': '6 pions : deux couleurs de six pions chacun ; six pions d’une couleur arrivés gagnent.', '3v3': '3 c 3 : six couleurs, équipes alternées autour du plateau.' },
    modes_h: 'Modes', common_h: 'À toutes les tables',
    house_h: 'Règles maison', house: 'Une salle peut changer certaines règles de jeu de son règlement, comme les cases comptées pour une capture ou la pénalité des trois 6 : qui la crée les choisit dans « Règles maison », et la salle les montre à tous avant et pendant la partie. Les parties aux règles maison ne comptent pas au classement.',
  },
};

const NAMES = { playgridia: 'Playgridia', ludoteka: 'Ludoteka', morocco: { en: 'Morocco', es: 'Marruecos', fr: 'Maroc' } };

/** The page's texts, per language (read by the translation tests). */
export const HOWTO_TEXT = TEXT;

export function mountHowTo(main) {
  const lang = TEXT[getLang()] ? getLang() : 'en';
  const x = TEXT[lang];
  const name = (set) => (typeof NAMES[set] === 'string' ? NAMES[set] : NAMES[set][lang]);
  clear(main, h('article.card.howto', { id: 'howto' },
    h('h2', x.title), h('p', x.intro),
    h('h3', x.common_h), h('ul', x.common.map((line) => h('li', line))),
    Object.keys(x.sets).map((set) => h('section', { id: `howto-${set}` },
      h('h3', name(set)), h('ul', x.sets[set].map((line) => h('li', line))))),
    h('h3', x.modes_h), h('ul', Object.values(x.modes).map((line) => h('li', line))),
    h('section', { id: 'howto-house' }, h('h3', x.house_h), h('p', x.house))));
  return () => {};
}
