// Français. Vouvoiement (« vous »), comme la plupart des plateformes. Espace insécable avant « : ? ! ».
// Glossaire : ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'Connexion itch.io',
  finishing: 'Finalisation de la connexion itch.io…',
  nothing_title: 'Rien à finaliser ici',
  nothing: 'Cette adresse ne contient aucune réponse d’itch.io. Vous pouvez fermer cet onglet.',
  stopped_title: 'L’application n’attend plus',
  stopped: 'Elle n’attend plus cette connexion\u00a0: relancez la connexion depuis l’application. Vous pouvez fermer cet onglet.',
  done_title: 'Vous êtes connecté',
  done: 'Vous pouvez fermer cet onglet et revenir à l’application.',
  cancelled_title: 'Connexion annulée',
  failed_title: 'La connexion n’a pas abouti',
  told: 'L’application a été prévenue. Vous pouvez fermer cet onglet.',
  close: 'Vous pouvez fermer cet onglet.',
};
