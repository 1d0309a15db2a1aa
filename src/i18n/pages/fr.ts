// Français. Vouvoiement (« vous »), comme la plupart des plateformes. Espace insécable avant « : ? ! ».
// Glossaire : ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Se connecter avec itch.io',
  checking: 'Vérification du jeu qui a ouvert cette fenêtre…',
  leaving: 'Ouverture d’itch.io…',
  confirm: 'Cette fenêtre ne peut pas voir le jeu qui l’a ouverte.',
  confirm_code:
    '{site} ({origin}) vous demande de confirmer ce code. Ne confirmez que si le jeu de {site} affiche ce même code en ce moment. Si un autre site, un autre jeu, un message ou une personne vous a donné ce code, choisissez «\u00a0Il ne l’affiche pas\u00a0»\u00a0: confirmer les connecterait à {site} avec votre compte.',
  code_label: 'code {code}',
  yes: 'Le jeu affiche {code}',
  no: 'Il ne l’affiche pas',
  close: 'Fermer',
  popup_unverified:
    'Cette fenêtre n’a pas pu être reliée au jeu qui l’a ouverte\u00a0: la connexion s’arrête ici pour votre sécurité. Fermez cette fenêtre et reconnectez-vous depuis le jeu (autorisez les fenêtres pop-up si votre navigateur le demande).',
  state_mismatch: 'La page qui a ouvert cette fenêtre n’est pas autorisée à se connecter à ce site. Fermez cette fenêtre.',
  refused: 'Cette connexion n’a pas pu démarrer. Fermez cette fenêtre et réessayez.',
  network: 'Le site est injoignable. Fermez cette fenêtre et réessayez.',
  silent: 'La page qui a ouvert cette fenêtre n’a pas répondu. Fermez cette fenêtre et reconnectez-vous depuis le jeu.',
  unavailable: 'Le site ne peut pas vous connecter pour le moment. Fermez cette fenêtre et réessayez dans un instant.',
  cookies_blocked:
    'Votre navigateur bloque les cookies dont cette connexion a besoin. Autorisez les cookies pour ce site dans les paramètres de confidentialité de votre navigateur (cookies et données de site), puis fermez cette fenêtre et reconnectez-vous.',
};
