// Français. Vouvoiement (« vous »), comme la plupart des plateformes. Espace insécable avant « : ? ! ».
// Glossaire : ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Se connecter avec itch.io',
  cancel: 'Annuler',
  continue: 'Continuer avec itch.io',
  dismiss: 'Annuler',
  idle: 'Aucune connexion itch.io en cours.',
  pending: 'Connexion avec itch.io en cours…',
  success: 'Vous êtes connecté avec itch.io.',
  retry: 'Réessayer',
  close: 'Fermer',
  store: 'Obtenir sur itch.io',
  code: 'Connexion itch.io\u00a0: ne confirmez dans sa fenêtre que si elle affiche le code {code}.',
  access_denied: 'Vous avez refusé la connexion sur itch.io.',
  state_missing: 'Cette connexion n’a pas été lancée sur ce site, elle n’a donc pas abouti.',
  state_mismatch: 'Cette connexion n’a pas été lancée ici, ou elle a déjà été utilisée.',
  state_expired: 'La connexion a pris plus de 10 minutes.',
  invalid_response: 'itch.io a renvoyé une réponse illisible.',
  backend_rejected: 'Le serveur de ce site a refusé la connexion.',
  network_error: 'Le serveur de ce site est injoignable.',
  popup_blocked: 'La fenêtre itch.io a été bloquée par le navigateur.',
  popup_closed: 'La fenêtre itch.io a été fermée avant la fin de la connexion.',
  config_invalid: 'La connexion avec itch.io n’est pas correctement configurée sur ce site.',
  timeout: 'itch.io n’a pas répondu à temps\u00a0: veuillez vous reconnecter.',
  not_owner: 'Vous devez posséder ce jeu sur itch.io pour continuer.',
  popup_unverified:
    'La fenêtre itch.io n’a pas pu être reliée à la page qui l’a ouverte\u00a0: la connexion a été arrêtée pour votre sécurité.',
  aborted: 'La connexion a été annulée.',
  service_unavailable: 'Le serveur de ce site ou itch.io ne répond pas pour le moment. Réessayez dans une minute.',
  cookies_blocked:
    'Votre navigateur bloque les cookies dont cette connexion a besoin. Autorisez les cookies pour ce site dans les paramètres de confidentialité de votre navigateur (cookies et données de site), puis réessayez.',
  next_not_owner: 'Procurez-vous le jeu sur itch.io, ou déconnectez-vous-y pour utiliser le compte qui le possède.',
  next_backend_rejected: 'Pour utiliser un autre compte itch.io, déconnectez-vous d’abord sur itch.io.',
  next_network_error: 'Réessayez dans quelques minutes.',
  back: 'Retour au site',
  state_used:
    'Ce lien de connexion ne fonctionne qu’une fois, dans l’onglet où la connexion a commencé\u00a0: ici, il n’a rien fait. Si vous avez terminé la connexion dans cet onglet, vous êtes déjà connecté.',
};
