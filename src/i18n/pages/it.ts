// Italiano. Si dà del «tu», come nella maggior parte delle interfacce di giochi. Glossario: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Accedi con itch.io',
  checking: 'Verifica del gioco che ha aperto questa finestra…',
  leaving: 'Apertura di itch.io…',
  confirm: 'Questa finestra non può vedere il gioco che l’ha aperta.',
  confirm_code:
    '{site} ({origin}) ti chiede di confermare questo codice. Conferma solo se il gioco di {site} mostra proprio ora lo stesso codice. Se un altro sito, un altro gioco, un messaggio o una persona ti ha dato questo codice, scegli «Non lo mostra»: confermando, faresti accedere loro a {site} con il tuo account.',
  code_label: 'codice {code}',
  yes: 'Il gioco mostra {code}',
  no: 'Non lo mostra',
  close: 'Chiudi',
  popup_unverified:
    'Non è stato possibile collegare questa finestra al gioco che l’ha aperta, quindi l’accesso si ferma qui per la tua sicurezza. Chiudi questa finestra e accedi di nuovo dal gioco (consenti i pop-up se il browser lo chiede).',
  state_mismatch: 'La pagina che ha aperto questa finestra non è autorizzata ad accedere a questo sito. Chiudi questa finestra.',
  refused: 'Impossibile avviare questo accesso. Chiudi questa finestra e riprova.',
  network: 'Impossibile raggiungere il sito. Chiudi questa finestra e riprova.',
  silent: 'La pagina che ha aperto questa finestra non ha risposto. Chiudi questa finestra e accedi di nuovo dal gioco.',
  unavailable: 'Al momento il sito non può farti accedere. Chiudi questa finestra e riprova tra poco.',
  cookies_blocked:
    'Il tuo browser sta bloccando i cookie necessari per questo accesso. Consenti i cookie per questo sito nelle impostazioni sulla privacy del browser (cookie e dati dei siti), poi chiudi questa finestra e accedi di nuovo.',
};
