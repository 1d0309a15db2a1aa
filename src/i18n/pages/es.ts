// Español (neutro). Tuteo («tú»), como la mayoría de las interfaces de juegos. Glosario: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Iniciar sesión con itch.io',
  checking: 'Comprobando el juego que abrió esta ventana…',
  leaving: 'Abriendo itch.io…',
  confirm: 'Esta ventana no puede ver el juego que la abrió.',
  confirm_code:
    '{site} ({origin}) te pide que confirmes este código. Confirma solo si el juego de {site} muestra este mismo código ahora mismo. Si otro sitio, otro juego, un mensaje o una persona te dio este código, elige «No lo muestra»: al confirmar, iniciarías sesión en {site} para ellos con tu cuenta.',
  code_label: 'código {code}',
  yes: 'El juego muestra {code}',
  no: 'No lo muestra',
  close: 'Cerrar',
  popup_unverified:
    'No se pudo vincular esta ventana con el juego que la abrió, así que el inicio de sesión se detiene aquí por tu seguridad. Cierra esta ventana y vuelve a iniciar sesión desde el juego (permite las ventanas emergentes si tu navegador lo pide).',
  state_mismatch: 'La página que abrió esta ventana no tiene permiso para iniciar sesión en este sitio. Cierra esta ventana.',
  refused: 'No se pudo empezar este inicio de sesión. Cierra esta ventana y vuelve a intentarlo.',
  network: 'No se pudo conectar con el sitio. Cierra esta ventana y vuelve a intentarlo.',
  silent: 'La página que abrió esta ventana no respondió. Cierra esta ventana y vuelve a iniciar sesión desde el juego.',
  unavailable: 'El sitio no puede iniciar tu sesión en este momento. Cierra esta ventana y vuelve a intentarlo en un momento.',
  cookies_blocked:
    'Tu navegador está bloqueando las cookies que necesita este inicio de sesión. Permite las cookies de este sitio en la configuración de privacidad de tu navegador (cookies y datos de sitios), cierra esta ventana y vuelve a iniciar sesión.',
};
